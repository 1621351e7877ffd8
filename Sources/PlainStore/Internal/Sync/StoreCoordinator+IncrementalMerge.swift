import Foundation

extension StoreCoordinator {
  /// What a merge of only the arrived files found.
  enum IncrementalMerge {
    /// Nothing arrived that a merge would take.
    case nothing
    case merged(LogEntry)
    /// The arrived files need the whole fold (see `mergeOnlyArrived`).
    case needsFullFold
  }

  /// Merges the change files that arrived by folding them onto the objects they touch, which
  /// costs what they hold rather than the whole history — when that gives what folding every
  /// file would. Each touched object is seeded with the cache's values and its groups' last
  /// writers' stamps (``WriteStamps``): then each group goes to its last writer, whether the
  /// arrival is newer or older than the cache's write. An object whose stamps are not known (a
  /// delete rule changed it, it survived a merge, the cache's file of them is lost) takes the
  /// whole fold, which knows them again.
  /// Deletes and key writes must come after every delete and key change the cache holds: which
  /// objects held one key at one moment, and so are one, depends on their order. An arrived
  /// edit of an object this cache deleted changes nothing (the delete wins), unless it writes a
  /// key. The one thing left to decide is whether a touched object meets another — on a unique
  /// key, through a reference, by a delete others point at. Where it might, or anything else is
  /// unusual (a snapshot, a file of this device — in the sync folder or in its outbox — or of an
  /// older schema, a second change under a sequence not folded yet, an object merged away, or
  /// deleted where its delete's rule may be undone), the merge folds every file instead
  /// (`.needsFullFold`). Reached only while the carrier is there (`mergeArrived`): its scan reads
  /// the sync folder then alone. The rules stay the fold's: the touched objects go through
  /// `MergedState` seeded with the cache's values, and the differential test holds both roads
  /// to one answer.
  func mergeOnlyArrived(_ state: inout StoreState, files: StoreFiles) throws -> IncrementalMerge {
    // Nothing folded yet (a phone joining its family): the whole fold reads each file once, where
    // this road would read them all to learn that they are too many.
    guard let retired = state.retired, !state.folded.isEmpty else { return .needsFullFold }
    var scan = try files.changes.scan(own: state.device, readableSchema: schema.version, known: state.folded)
    if let device = state.device { state.ownNotDownloaded.formUnion(scan.notDownloadedSequences[device] ?? []) }
    state.awaitingUpdate = awaitingUpdate(scan, files)
    scan.files.removeAll { $0.schemaVersion > schema.version }
    guard scan.snapshots.isEmpty, scan.divergent.isSubset(of: state.folded.divergent), scan.coverage(notIn: state.folded).isEmpty else {
      return .needsFullFold
    }
    // Read again for a conflict copy beside it (which the fold has met): nothing new.
    scan.files.removeAll { !state.folded.awaits($0, divergent: scan.divergent) }
    guard !scan.files.isEmpty else { return .nothing }
    // This device's files: under its id, or waiting in the outbox (under an older id of this copy too).
    let inOutbox = Set(files.changes.outbox.devices())
    for file in scan.files {
      guard file.device != state.device, !inOutbox.contains(file.device),
        !state.folded.contains(device: file.device, sequence: file.sequence),
        file.schemaVersion == schema.version
      else { return .needsFullFold }
    }
    let oldest = scan.files.map(\.hlc).min()!
    guard Self.isFewerThanAFold(arrived: scan.files.reduce(0) { $0 + $1.objects.count }, cached: state.manifest.objectCount) else {
      return .needsFullFold
    }

    // The touched objects as the cache shows them, seeded into a fold of their own.
    var touched: [ObjectKey: (segment: String, object: any Entity)?] = [:]
    // Objects this cache deleted that arrived writes set: the delete wins, they change nothing.
    var deleted: Set<ObjectKey> = []
    for file in scan.files {
      for object in file.objects {
        let key = ObjectKey(entity: object.entity, id: object.id)
        // Which objects held one key at one moment, and so are one, depends on every delete
        // and key write in stamp order: those must come after the cache's (`KeyHistory.swift`).
        let writesKeys = mergeSchema.writesKeyHistory(object)
        if writesKeys && file.hlc <= state.newestKeyChange { return .needsFullFold }
        if touched[key] == nil && !deleted.contains(key) {
          if retired.contains(key) {
            if !writesKeys { readStamps(&state, files) }
            guard !writesKeys, state.stamps?.isDeleted(key) == true else { return .needsFullFold }
            deleted.insert(key)
            continue
          }
          guard let table = state.tables[key.entity] else { return .needsFullFold }
          let hint = object.fields.flatMap { Self.segmentHint(table, $0) }
          touched[key] = .some(try locate(table, key.id, hint: hint, &state))
          // An object the cache shows: its stamps, which an open reads from the cache's file at the
          // first merge that touches one (an arrival that only inserts never reads them).
          if touched[key]! != nil { readStamps(&state, files) }
        }
        if deleted.contains(key) {
          guard !writesKeys else { return .needsFullFold }
          continue
        }
        guard touched[key]! != nil else { continue }
        // Its groups' last writers, which the seed takes: each group goes to the later one. Not
        // known (a change a delete rule derived, a survivor's): only the whole fold knows them.
        // An insert sets only the members it carries, which the cache's values cannot tell
        // from nil.
        guard let stamps = state.stamps?[key], object.kind != .upsert || object.groups != nil || stamps.newest < file.stamp else {
          return .needsFullFold
        }
      }
    }
    guard !keyHeldBeforeItsSeed(scan.files, touched: touched, state.stamps) else { return .needsFullFold }
    var fold = MergedState(schema: mergeSchema)
    // Before every arrived write, after every write of the groups they set.
    let before = ChangeStamp(hlc: oldest - 1, device: scan.files[0].device, sequence: 0)
    var seeds: [ObjectKey: [String: RawJSON]] = [:]
    for (key, current) in touched {
      guard let current, let stamps = state.stamps?[key] else { continue }
      seeds[key] = try EntityFields.of(current.object)
      fold.seed(key, fields: seeds[key]!, stamps: stamps, created: min(before, stamps.oldest))
    }
    // The writes of objects deleted here change nothing: the fold leaves them out.
    var arrivals = scan.files
    if !deleted.isEmpty {
      for index in arrivals.indices { arrivals[index].objects.removeAll { deleted.contains(ObjectKey(entity: $0.entity, id: $0.id)) } }
    }
    for file in arrivals { fold.apply(file) }
    let view = fold.materialize()
    // A key held only in between may have made an object one with another for good.
    guard !heldAKeyInBetween(arrivals, seeds: seeds, view: view) else { return .needsFullFold }

    // The fold's value of each touched object, and whether it meets anything outside them.
    var targets: [ObjectKey: any Entity] = [:]
    for (key, current) in touched {
      let table = try state.table(key.entity)
      guard let fields = view[key.entity]?[key.id] else {
        // Gone: deleted, or merged with another touched object (which the cache cannot tell).
        guard fold.objects[key]?.deleted != nil, current != nil else { return .needsFullFold }
        // Objects elsewhere that point at it follow its delete rule: the whole fold's work.
        if schema.entities.contains(where: { $0.references.contains { $0.targetEntity == key.entity } }) { return .needsFullFold }
        continue
      }
      guard let value = try? Self.decodeEntity(table.schema.type, fields) else { return .needsFullFold }
      targets[key] = value
    }
    for (key, value) in targets {
      let table = try state.table(key.entity)
      for reference in table.schema.references {
        guard let target = reference.target(value) else { continue }
        let targetKey = ObjectKey(entity: reference.targetEntity, id: target)
        if targets[targetKey] != nil { continue }
        guard touched[targetKey] == nil, let targetTable = state.tables[reference.targetEntity],
          try locate(targetTable, target, hint: nil, &state) != nil
        else { return .needsFullFold }  // a referent deleted, merged away or not arrived yet
      }
      for constraint in table.schema.uniqueKeys.indices {
        guard let holder = try holder(of: value, constraint: constraint, table, &state), holder != key.id,
          touched[ObjectKey(entity: key.entity, id: holder)] == nil
        else { continue }
        return .needsFullFold  // two objects on one key: the fold decides which one stays
      }
    }

    var diff = MergeDiff()
    for entity in schema.entities {
      var current: [UUID: any Entity] = [:]
      var target: [UUID: any Entity] = [:]
      for (key, located) in touched where key.entity == entity.name {
        if let located { current[key.id] = located.object }
        if let value = targets[key] { target[key.id] = value }
      }
      guard !current.isEmpty || !target.isEmpty else { continue }
      diff.add(entity: entity.name, table: try state.table(entity.name), current: current, target: target)
    }
    let changed = Set(diff.changes.map { ObjectKey(entity: $0.entity, id: $0.id) })
    var unchanged: [String: [UUID]] = [:]
    for key in touched.keys where !changed.contains(key) { unchanged[key.entity, default: []].append(key.id) }
    let reshapes = arrivals.contains { file in
      file.objects.contains { mergeSchema.changesKeys($0, existed: (touched[ObjectKey(entity: $0.entity, id: $0.id)] ?? nil) != nil) }
    }
    // The stamps the fold set, which every process of the device keeps (`WriteStamps.note`).
    var stamps = WriteStamps()
    for key in touched.keys {
      guard let registers = fold.objects[key] else { continue }
      if registers.deleted != nil {
        stamps.delete(key)
      } else if targets[key] != nil {
        stamps.set(key, ObjectStamps(registers))
      }
    }
    let entry = try recordMerge(
      diff, arrived: scan.files, coverage: [], snapshots: [], divergent: [], retired: nil, written: scan.files.map(\.hlc).max(),
      unchanged: unchanged.mapValues { $0.sorted(by: uuidPrecedes) }, reshapes: reshapes, stamps: stamps, &state, files)
    state.statistics.arrivalOnlyMerges += 1
    return .merged(entry)
  }

  /// Whether an arrived write of an object's key history (a key written, a delete) comes before
  /// the last write of another touched object's key groups, which that object is seeded with
  /// (its stamps): the fold of the touched objects has it hold its keys from that write on, and
  /// what it held before is not in the cache. The arrived write may have met it then (a feed
  /// logged at another's start, arriving with the other's delete), which only the whole fold
  /// can tell.
  private func keyHeldBeforeItsSeed(_ arrived: [ChangeFile], touched: [ObjectKey: (segment: String, object: any Entity)?], _ stamps: WriteStamps?)
    -> Bool
  {
    guard let stamps else { return false }
    var seededKeys: [ObjectKey: ChangeStamp] = [:]
    for (key, current) in touched where current != nil {
      guard let written = stamps[key], let groups = mergeSchema.entities[key.entity]?.keyGroups, !groups.isEmpty else { continue }
      seededKeys[key] = groups.map { written.group($0).stamp }.max()
    }
    guard !seededKeys.isEmpty else { return false }
    return arrived.contains { file in
      file.objects.contains { object in
        mergeSchema.writesKeyHistory(object)
          && seededKeys.contains { $0.key.entity == object.entity && $0.key.id != object.id && $0.value > file.stamp }
      }
    }
  }

  /// Whether an arrived object held, write by write, a unique key that neither the cache nor the
  /// end of the fold shows it with: moved onto another object's key and away again, or onto it
  /// and then deleted. It met that object then, and the two are one for good (an alias), which
  /// the end state no longer shows; only the whole fold can tell. Values are compared as their
  /// JSON text, so a key written again unchanged (a feed's end set, its start kept) holds
  /// nothing new. The arrivals come in stamp order, each after the cache's values.
  func heldAKeyInBetween(_ arrivals: [ChangeFile], seeds: [ObjectKey: [String: RawJSON]], view: [String: [UUID: [String: RawJSON]]]) -> Bool {
    var values = seeds
    var held: [ObjectKey: Set<[RawJSON?]>] = [:]
    func key(_ fields: [String: RawJSON], _ constraints: [[String]]) -> [RawJSON?] { constraints.joined().map { fields[$0] } }
    for file in arrivals {
      for object in file.objects where object.kind == .upsert {
        guard let constraints = mergeSchema.entities[object.entity]?.uniqueKeys, !constraints.isEmpty, let fields = object.fields else { continue }
        let objectKey = ObjectKey(entity: object.entity, id: object.id)
        values[objectKey, default: [:]].merge(fields) { $1 }
        held[objectKey, default: []].insert(key(values[objectKey]!, constraints))
      }
    }
    return held.contains { objectKey, keys in
      let constraints = mergeSchema.entities[objectKey.entity]?.uniqueKeys ?? []
      let shown = [seeds[objectKey], view[objectKey.entity]?[objectKey.id]].compactMap { $0.map { key($0, constraints) } }
      return !keys.subtracting(shown).isEmpty
    }
  }

  /// Whether folding `arrived` objects onto the cache costs less than folding every file: a
  /// search for each object (its segment read, its keys checked) costs several times what one
  /// pass over the files does for it, so arrivals that rival the cache in size (a phone
  /// joining its family, the other phone's bulk import) take the one pass.
  static func isFewerThanAFold(arrived: Int, cached: Int) -> Bool {
    arrived <= max(1_000, cached / 4)
  }

  /// The segment an arrived object's fields put it in, when they carry its segment date: where
  /// to look for it first. Read from the date's text as the store writes it, not by decoding
  /// the whole object (the fold's value is decoded once, later); any other text gives no hint,
  /// and the object is searched for.
  private static func segmentHint(_ table: EntityTable, _ fields: [String: RawJSON]) -> String? {
    guard table.isSegmented, let name = table.schema.segmentKeyName, let text = fields[name]?.bytes, text.count > 2,
      text.first == UInt8(ascii: "\""), text.last == UInt8(ascii: "\"")
    else { return nil }
    return _ByteView.reading(text[1..<(text.count - 1)], JSONDateScanner.date).map(SegmentKey.month(of:))
  }
}
