import Foundation

extension StoreCoordinator {
  /// Merges the change files that arrived (from other devices, or left by a crashed commit of
  /// this one) as one local transaction authored "sync". Returns it; nil when nothing arrived
  /// or nothing changed.
  ///
  /// First, this device's files waiting in the outbox move into the sync folder. While the
  /// carrier is not there (or is another account's), nothing is read or merged.
  @discardableResult
  func syncArrived() throws -> Transaction? {
    try backing.syncArrived(self)
  }

  /// Syncing on files; nothing in a format-1 store read for its migration (no lock).
  func syncArrived(_ files: StoreFiles, _ lock: FileLock?) throws -> Transaction? {
    guard let lock else { return nil }
    try drainOutbox(files, lock)
    guard files.changes.isCarrying else {
      try rebuildFromOutboxIfEmpty(files, lock)
      return nil
    }
    let pending = try state.withLock { state in
      decideChangeFormat(&state, files)
      return try files.changes.scan(own: state.device, readableSchema: schema.version, known: state.folded)
    }
    // Files of a newer schema wait for this program's update: they alone are no reason to merge.
    let folded = state.withLock { $0.folded }
    guard
      pending.files.contains(where: { $0.schemaVersion <= schema.version }) || !pending.snapshots.isEmpty
        || !pending.divergent.isSubset(of: folded.divergent)
    else {
      let waiting = awaitingUpdate(pending, files)
      state.withLock { $0.awaitingUpdate = waiting }
      return nil
    }
    // A damaged cache file the merge reads (a segment) is rebuilt, which merges too.
    let transaction = try repairingCache {
      try lock.withLock(timeout: options.lockTimeout) {
        try state.withLock { state -> Transaction? in
          try catchUp(&state)
          options.phaseObserver?("merge")
          let merged = try mergeArrived(&state, files: files, always: false)
          // A merge keeps the cache as a commit does (a phone that joined, the widget: rather than
          // read its record back at every open), and one that folded every file at once: its
          // stamps are in memory only until a compaction writes them (`WriteStamps+File.swift`).
          if let merged, isCompactionDue(state) || merged.retired != nil {
            options.phaseObserver?("merge: compact")
            do { try compact(&state) } catch { state.statistics.housekeepingFailures += 1 }
          }
          options.phaseObserver?("merged")
          return merged.flatMap { $0.changesObjects ? $0.transaction : nil }
        }
      }
    }
    deliverRemoteChanges()  // the merge reaches observers as a remote change
    return transaction
  }

  /// While the carrier is not there, a cache that holds nothing (`local/` was deleted) is
  /// rebuilt from what can be read, the outbox (see ``rebuildCache(_:because:)``); the rest comes
  /// with the first merge once the carrier is back.
  private func rebuildFromOutboxIfEmpty(_ files: StoreFiles, _ lock: FileLock) throws {
    guard !files.changes.outbox.isEmpty, state.withLock({ $0.folded == FoldedChanges() }) else { return }
    try lock.withLock(timeout: options.lockTimeout) {
      guard state.withLock({ $0.folded == FoldedChanges() }) else { return }
      try rebuildCache(files, because: "the cache was empty while syncing is off: rebuilt from the outbox")
    }
    deliverRemoteChanges()
  }

  /// Folds the change files that arrived into the cache, and records the difference as one
  /// local transaction: folding only those files onto the objects they touch where that gives
  /// the same answer (`mergeOnlyArrived`), else every file, compared with the whole cache.
  /// Runs under the flock and the state lock. With `always`, folds every file even when no new
  /// one arrived (a rebuild). Only a rebuild runs while the carrier is not there, from the
  /// outbox alone: a merge then would take what it cannot read for deleted.
  func mergeArrived(_ state: inout StoreState, files: StoreFiles, always: Bool) throws -> LogEntry? {
    guard always || files.changes.isCarrying else { return nil }
    if !always {
      switch try mergeOnlyArrived(&state, files: files) {
      case .nothing: return nil
      case .merged(let entry): return entry
      case .needsFullFold: break
      }
    }
    var scan = try files.changes.scan(own: state.device, readableSchema: schema.version)
    // A file the cache folded that iOS has since evicted: the fold waits for it (bounded), and
    // is put off if it does not come, rather than take its changes out of the cache.
    let evicted = always ? [] : foldedNotDownloaded(scan, state.folded, files: files)
    if !evicted.isEmpty {
      guard awaitDownloads(evicted, files: files).isEmpty else { return nil }
      scan = try files.changes.scan(own: state.device, readableSchema: schema.version)
    }
    if let device = state.device { state.ownNotDownloaded.formUnion(scan.notDownloadedSequences[device] ?? []) }
    // A device that runs a newer program writes files this one cannot read: they stay out of
    // the merge (and out of `folded`) until this program is updated, and sync status says so.
    state.awaitingUpdate = awaitingUpdate(scan, files)
    scan.files.removeAll { $0.schemaVersion > schema.version }
    let newlyDivergent = scan.divergent.subtracting(state.folded.divergent)
    let newlyDivergentSnapshots = scan.divergentSnapshots.subtracting(state.folded.divergentSnapshots)
    var arrived = scan.files.filter { state.folded.awaits($0, divergent: scan.divergent) }
    var arrivedCoverage = scan.coverage(notIn: state.folded)
    var arrivedSnapshots = scan.snapshots.filter { !state.folded.contains(snapshot: $0.number, of: $0.device) }
    // A second change under a covered sequence is never folded (the snapshot stands for it),
    // but it still says that two copies write under one id.
    guard
      always || !arrived.isEmpty || !newlyDivergent.isEmpty || !newlyDivergentSnapshots.isEmpty || !arrivedCoverage.isEmpty
        || !arrivedSnapshots.isEmpty
    else { return nil }
    if let device = state.device,
      newlyDivergent.union(newlyDivergentSnapshots).contains(where: { $0.device == device })
        || (!always && !state.folded.isEmpty
          && (isAnotherCopys(arrived, device: device, state, files) || arrivedSnapshots.contains { $0.device == device }))
    {
      // Another copy of the store writes under this id (a snapshot of it this copy did not make,
      // or a second one of one number, says so too): this one takes a new id, and re-publishes
      // under it what a snapshot of that copy's, now or later, may leave out.
      let republished = try takeNewDeviceID(leaving: device, &state, files)
      scan.files = (scan.files + republished.changes).sorted { $0.stamp < $1.stamp }
      arrived += republished.changes
      if let snapshot = republished.snapshot {
        scan.snapshots.append(snapshot)
        arrivedSnapshots.append(snapshot)
        arrivedCoverage = scan.coverage(notIn: state.folded)
      }
    }
    state.crashedCommits = []
    state.mergeWarnings = []
    state.statistics.fullFolds += 1
    let merged = fold(scan)
    state.mergeWarnings += merged.migrationFailures.map { "\($0.entity) \($0.id.uuidString): \($0)" }
    // The stamps are read from the registers the aliases joined, which go at once: kept to the
    // end of the merge beside the fold's own, they were a second copy of every register (a
    // join's peak memory +28 % at 100k objects).
    let (view, survivors, stamps) = {
      let materialized = merged.materializeWithAliases()
      return (materialized.objects, materialized.survivors, WriteStamps(merged, live: materialized.registers, view: materialized.objects))
    }()
    var diff = MergeDiff()
    var retired = RetiredObjects()
    // Everything the fold knows and the cache does not show: deleted, merged away (and, below,
    // unreadable).
    for key in merged.objects.keys where view[key.entity]?[key.id] == nil {
      retired.insert(key, mergedInto: survivors[key.entity]?[key.id])
    }
    for entity in schema.entities {
      let table = try state.table(entity.name)
      try loadAll(table, &state)
      var current: [UUID: any Entity] = [:]
      for slot in table.slots.values { slot.objects?.forEachObject { current[$0.id] = $0 } }
      var target: [UUID: any Entity] = [:]
      for (id, fields) in view[entity.name] ?? [:] {
        do {
          target[id] = try Self.decodeEntity(entity.type, fields)
        } catch {
          // Another device's object this program cannot read (a newer schema, or changes of it
          // still on their way): left out of the cache until it reads, and reported.
          state.mergeWarnings.append("\(entity.name) \(id.uuidString): \(StoreCoding.reason(error))")
          retired.insert(ObjectKey(entity: entity.name, id: id))
        }
      }
      diff.add(
        entity: entity.name, table: table, current: current, target: target,
        mergedFrom: Self.newlyMerged(entity.name, into: current, retired.aliases(of: entity.name), before: state.retired))
    }
    let entry = try recordMerge(
      diff, arrived: arrived, coverage: arrivedCoverage, snapshots: arrivedSnapshots, divergent: scan.divergent,
      divergentSnapshots: scan.divergentSnapshots, retired: retired, &state, files)
    // What each object's groups' last writes were, for the merges of arrivals alone after it.
    state.stamps = stamps
    return entry
  }

  /// The other devices' objects that this merge made aliases of one the cache shows (the same
  /// feed logged on two devices), by survivor: ids that were neither aliases before (`before`,
  /// the cache's; none are said when it kept none) nor the cache's own objects, which the merge
  /// report says merged away themselves.
  static func newlyMerged(
    _ entity: String, into current: [UUID: any Entity], _ aliases: [UUID: UUID], before: RetiredObjects?
  ) -> [UUID: [UUID]] {
    guard let before else { return [:] }
    var merged: [UUID: [UUID]] = [:]
    for (alias, survivor) in aliases where current[alias] == nil && current[survivor] != nil {
      guard before.lastSurvivor(of: ObjectKey(entity: entity, id: alias)) == nil else { continue }
      merged[survivor, default: []].append(alias)
    }
    return merged.mapValues { $0.sorted(by: uuidPrecedes) }
  }

  /// Whether a change file under this device's id that arrived unfolded was written by another
  /// copy of the store (a restored backup, a cloned phone) rather than by this one — which then
  /// takes a new id, as it does for a second change under one of its sequences (see
  /// `mergeArrived`). This copy folds each of its commits as it writes it, but the record of that
  /// is its local log, which is never flushed and may be lost; so a file of its own arrives
  /// unfolded only when that happened, when a crash cut its commit short, or when iOS evicted
  /// it. What says which files this copy wrote: below its newest folded sequence, every one it
  /// folded; above it, none past the newest its journal holds (a commit's record, kept until the
  /// journal settles). With the journal empty, a file above the newest tells nothing. A rebuild,
  /// or a cache that has folded nothing, does not ask: its own files come in afresh.
  func isAnotherCopys(_ arrived: [ChangeFile], device: DeviceID, _ state: StoreState, _ files: StoreFiles) -> Bool {
    let own = arrived.filter {
      $0.device == device && !state.crashedCommits.contains($0.sequence) && !state.ownNotDownloaded.contains($0.sequence)
    }
    let newest = state.folded.newest(of: device)
    if own.contains(where: { $0.sequence <= newest }) { return true }
    guard own.contains(where: { $0.sequence > newest }),
      let journaled = (try? files.journal.records())?.filter({ $0.device == device }).map(\.sequence).max()
    else { return false }
    return own.contains { $0.sequence > max(newest, journaled) }
  }

  /// Records what a merge changed as one local transaction authored "sync": the local log, the
  /// tables, the statistics and the merge's report. A merge of arrivals alone says when its
  /// changes were `written`, which objects it wrote `unchanged`, whether it `reshapes` (see
  /// `KeyHistory.swift`) and the `stamps` its fold set (``WriteStamps``).
  func recordMerge(
    _ diff: MergeDiff, arrived: [ChangeFile], coverage: [ChangeStamp], snapshots: [ChangeSnapshot], divergent: Set<ChangeStamp>,
    divergentSnapshots: Set<ChangeStamp> = [], retired: RetiredObjects?, written: UInt64? = nil, unchanged: [String: [UUID]] = [:],
    reshapes: Bool = false, stamps: WriteStamps? = nil, _ state: inout StoreState, _ files: StoreFiles
  ) throws -> LogEntry {
    var changes = diff.changes
    changes.sortInLogOrder()
    var entry = LogEntry(
      sequence: state.sequence + 1, author: "sync", timestamp: options.clock(), changes: changes,
      folded: arrived.map(\.stamp), foldedThrough: coverage,
      foldedDivergent: divergent.subtracting(state.folded.divergent).sorted(),
      foldedSnapshots: Dictionary(snapshots.map { ($0.device.text, $0.number) }) { max($0, $1) }, origin: nil, retired: retired)
    entry.written = written
    let newlyDivergentSnapshots = divergentSnapshots.subtracting(state.folded.divergentSnapshots)
    if !newlyDivergentSnapshots.isEmpty { entry.foldedDivergentSnapshots = newlyDivergentSnapshots.sorted() }
    if !unchanged.isEmpty { entry.writtenUnchanged = unchanged }
    if reshapes { entry.reshapes = true }
    if let stamps, !stamps.isEmpty { entry.stamps = stamps.fileBytes(sequence: entry.sequence)?.base64EncodedString() }
    try writeLocalLog(entry, &state, files)
    state.apply(entry)
    if entry.changesObjects { state.undelivered.append(entry.transaction) }
    state.statistics.changeFilesMerged += arrived.count
    var reported = diff.reported
    for index in reported.indices where reported[index].kind == .deleted {
      reported[index].mergedInto = state.retired?.survivor(of: ObjectKey(entity: reported[index].entity, id: reported[index].id))
    }
    state.lastMergeDevices = Set(arrived.map(\.device) + snapshots.map(\.device)).sorted()
    state.lastMergeReport = MergeReport(devices: [], changes: reported.sorted { ($0.entity, uuidOrder($0.id)) < ($1.entity, uuidOrder($1.id)) })
    return entry
  }

  /// The state the files of a scan make: its snapshots and its change files, folded (those of
  /// a newer schema version than this program's are left out).
  func fold(_ scan: ChangeScan) -> MergedState {
    var merged = MergedState(schema: mergeSchema)
    for snapshot in scan.snapshots { merged.apply(snapshot) }
    for file in scan.files { merged.apply(file) }
    return merged
  }

  /// The display paths of the change files and snapshots written with a newer schema version
  /// than this program's, and of those of a newer change-file format, each with why.
  func awaitingUpdate(_ scan: ChangeScan, _ files: StoreFiles) -> [String] {
    let newerFormat = scan.newerFormat.map {
      ChangeFormat.refusal($0.path, format: $0.format, by: files.changes.label($0.device), reads: files.changes.reads)
    }
    return (scan.files.filter { $0.schemaVersion > schema.version }.map { files.changes.display($0.device, $0.fileName) }
      + scan.snapshotsAwaitingUpdate + newerFormat).sorted()
  }

  /// One object of the merged view as its entity type.
  static func decodeEntity<E: Entity>(_ type: E.Type, _ fields: [String: RawJSON]) throws -> any Entity {
    try StoreCoding.makeDecoder().decode(E.self, from: RawJSON.objectText(fields))
  }

  /// Appends a local transaction to the cache's log without flushing: it is rebuilt from the
  /// change files if a power loss takes it. Runs holding the flock, caught up with the log. A
  /// failure leaves the state as it was. A commit of this device (`origin`) comes with its
  /// values left out: its change file holds them.
  func writeLocalLog(_ entry: LogEntry, _ state: inout StoreState, _ files: StoreFiles) throws {
    try appendLocalLog(try LocalLog.record(entry), sequence: entry.sequence, &state, files)
  }

  /// Appends a record `LocalLog.record` made, as `writeLocalLog` does.
  func appendLocalLog(_ record: Data, sequence: Int, _ state: inout StoreState, _ files: StoreFiles) throws {
    state.logCursor = try files.log.append(
      record: record, sequence: sequence, after: state.logCursor, manifestSequence: state.manifest.sequence)
    state.statistics.logRecordsWritten += 1
  }

  /// Puts the values of a local log entry back from the change file that holds them: the one
  /// with the commit's stamp and a value for every object the entry puts. Another copy of this
  /// store (a restored backup, a cloned phone) may have written a different change under the
  /// same name, and a sync engine that met the two kept one under the name and the other as a
  /// conflict copy beside it: this copy's change is then read from the conflict copy.
  func fillValues(_ entry: inout LogEntry, from origin: ChangeStamp, files: StoreFiles, logPath: String) throws {
    let name = ChangeFileName.changeName(sequence: origin.sequence)
    let path = files.changes.display(origin.device, name)
    guard let data = try ownChangeFile(origin, files: files, logPath: logPath) else {
      // The truth no longer holds the change the log names: another copy of this store (a
      // restored backup, a cloned phone) compacted it into a snapshot and the engine carried its
      // removal here, or it was deleted. The log is the cache's, so it is the one that is wrong:
      // the error names it, and the cache is rebuilt from changes/ (`isCacheDamage`).
      throw StoreError(.missing, path: logPath, "refers to the change file \(path), which is not there.")
    }
    let values = try Self.changeFileValues(data, path: path, schema: schema).get()
    guard let missing = Self.fill(&entry, from: values, origin) else { return }
    for copy in try files.changes.conflictCopies(of: name, device: origin.device) {
      // A copy not whole yet, or of another change: not this one.
      guard case .success(let values) = Self.changeFileValues(copy.data, path: copy.display, schema: schema) else { continue }
      if Self.fill(&entry, from: values, origin) == nil { return }
    }
    throw StoreError(.damaged, path: path, "holds no value for \(missing.entity) \(missing.id.uuidString), which \(logPath) puts.")
  }

  /// Puts the values of a change file into a local log entry when it is the entry's change: its
  /// stamp, a value for every object the entry puts. Returns the first object it lacks (nil:
  /// filled); the entry is left as it was then.
  private static func fill(_ entry: inout LogEntry, from values: ChangeFileValues, _ origin: ChangeStamp) -> ObjectKey? {
    var byKey: [ObjectKey: ChangeFileValues.ObjectValue] = [:]
    for object in values.objects where object.value != nil { byKey[ObjectKey(entity: object.entity, id: object.id)] = object }
    // A put the change file does not hold (a delete rule's) carries its value in the record.
    let puts = entry.changes.indices.filter { index in
      entry.changes[index].isPut
        && (entry.changes[index].value == nil || byKey[ObjectKey(entity: entry.changes[index].entity, id: entry.changes[index].id)] != nil)
    }
    for index in puts {
      let key = ObjectKey(entity: entry.changes[index].entity, id: entry.changes[index].id)
      guard values.hlc == origin.hlc, byKey[key] != nil else { return key }
    }
    for index in puts {
      let object = byKey[ObjectKey(entity: entry.changes[index].entity, id: entry.changes[index].id)]
      entry.changes[index].value = object?.value
      // The JSON the commit encoded, kept with the object as the committing process keeps it:
      // the next compaction writes it rather than encoding the object again under the lock.
      entry.changes[index].encoded = object?.encoded
    }
    return nil
  }

  /// The objects and the clock stamp of one of this device's change files.
  private static func changeFileValues(_ data: Data, path: String, schema: Schema) -> Result<ChangeFileValues, StoreError> {
    guard case .success(let body) = ChangeFileCodec.body(data) else {
      return .failure(
        StoreError(.damaged, path: path, "this device's own change file is damaged — restore it from a backup or another device's copy."))
    }
    do {
      return .success(try StoreCoding.makeDecoder(schema: schema).decode(ChangeFileValues.self, from: body))
    } catch {
      return .failure(StoreError(.damaged, path: path, StoreCoding.reason(error)))
    }
  }
}

/// The objects of a change file decoded as their entity types, for the processes of the device
/// that wrote it.
struct ChangeFileValues: Decodable {
  /// The change's clock stamp: which of two changes written under one name this is.
  var hlc: UInt64
  var objects: [ObjectValue]

  enum CodingKeys: String, CodingKey { case hlc, schemaVersion, objects }

  init(from decoder: Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    hlc = try container.decodeClock(forKey: .hlc)
    objects = try container.decode([ObjectValue].self, forKey: .objects)
    // An older schema's JSON decodes to the same values, but is not the bytes the store's
    // encoder writes for them now: only the decoder's schema's is kept.
    let schemaVersion = try container.decode(Int.self, forKey: .schemaVersion)
    if schemaVersion != (decoder.userInfo[.plainStoreSchema] as? SchemaBox)?.schema.version {
      for index in objects.indices { objects[index].encoded = nil }
    }
  }

  struct ObjectValue: Decodable {
    var entity: String
    var id: UUID
    var value: (any Entity)?
    /// The value's JSON as the change file holds it, which its commit encoded (read by the
    /// store's decoder only, of a change written under its schema's version).
    var encoded: RawJSON?

    enum CodingKeys: String, CodingKey { case entity, id, kind, fields }

    init(from decoder: Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      entity = try container.decode(String.self, forKey: .entity)
      id = try container.decode(UUID.self, forKey: .id)
      guard try container.decode(ObjectChange.Kind.self, forKey: .kind) == .upsert else { return }
      guard let schema = (decoder.userInfo[.plainStoreSchema] as? SchemaBox)?.schema, let type = schema.entity(named: entity)?.type else {
        return  // an entity of a newer schema: its device's processes know it
      }
      value = try Self.decode(type, container)
      if decoder is JSONDecoding { encoded = try container.decode(RawJSON.self, forKey: .fields) }
    }

    private static func decode<E: Entity>(_ type: E.Type, _ container: KeyedDecodingContainer<CodingKeys>) throws -> any Entity {
      try container.decode(E.self, forKey: .fields)
    }
  }
}
