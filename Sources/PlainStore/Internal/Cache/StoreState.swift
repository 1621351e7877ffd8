import Foundation

/// Everything the coordinator knows, behind its lock.
struct StoreState: @unchecked Sendable {  // only ever touched inside the coordinator's lock
  var tables: [String: EntityTable]
  /// The last transaction applied.
  var sequence = 0
  var manifest = Manifest()
  var manifestIdentity: FileIdentity?
  /// Where this process stopped reading the local log.
  var logCursor: LocalLog.Cursor?
  /// Objects changed by the log entries since the manifest: with the count of entries, what
  /// decides when to compact.
  var changesSinceManifest = 0
  var undelivered: [Transaction] = []
  var undeliveredReload = false
  var statistics = StoreStatistics()
  var cleanedTemporaryFiles = false
  /// This copy's device id; nil until its first commit mints one.
  var device: DeviceID?
  var clock = HybridLogicalClock()
  /// The change files the state holds (the manifest's, plus those of the log entries after it).
  var folded = FoldedChanges()
  /// Sequences of this device whose names a commit found taken: change files that a crashed
  /// commit of this copy left, merged right after the commit that found them.
  var crashedCommits: Set<Int> = []
  /// Sequences of this device whose files a merge found not downloaded (a placeholder stood
  /// for them): this device's own, evicted, when they come back, not another copy's.
  var ownNotDownloaded: Set<Int> = []
  var lastRebuildReason: String?
  /// This device's change files that a power loss took, written again from the journal when
  /// the store opened (display paths).
  var restoredFromJournal: [String] = []
  /// Objects of the last merge that could not be read as their entity.
  var mergeWarnings: [String] = []
  /// What this container's last merge of arrived files changed, and from which devices (named
  /// when the report is asked for).
  var lastMergeReport: MergeReport?
  var lastMergeDevices: [DeviceID] = []
  /// Change files written with a newer schema version than this program's: left out of the
  /// merge until the program is updated (display paths).
  var awaitingUpdate: [String] = []
  /// The change-file format this device writes, as last decided (`decideChangeFormat`); nil until
  /// this process first syncs or commits.
  var writeFormat: Int?
  /// Whether this process has published the device's name, if it was another (`publishName`).
  var namePublished = false
  /// Why the outbox's last drain stopped before it was empty, with the carrier there.
  var outboxBlocked: String?
  /// What the fold knows but the cache does not show (see ``RetiredObjects``); nil until a
  /// merge has folded every file into a cache that keeps it.
  var retired: RetiredObjects?
  /// Every delete and unique-key change the cache holds is at or before this clock (see
  /// `KeyHistory.swift`): a merge of arrivals alone folds a write of the key history only when
  /// it is later, since which objects held one key at one moment depends on their order.
  var newestKeyChange: UInt64 = 0
  /// Who last wrote each group of the objects the cache shows (see ``WriteStamps``); nil until
  /// a merge folded every file, or the file of them the manifest names is read.
  var stamps: WriteStamps?
  /// The manifest sequence whose file of stamps this state last read (`readStamps`).
  var stampsRead: Int?
  /// The segment files' id filters, once a merge needed one (see `SegmentIDs.swift`).
  var segmentIDs: [String: String]?

  init(schema: Schema) {
    tables = Dictionary(uniqueKeysWithValues: schema.entities.map { ($0.name, EntityTable(schema: $0)) })
  }

  mutating func reset(to manifest: Manifest, schema: Schema) {
    let (statistics, restored) = (self.statistics, restoredFromJournal)
    self = StoreState(schema: schema)
    self.statistics = statistics
    restoredFromJournal = restored
    self.manifest = manifest
    sequence = manifest.sequence
    folded = manifest.folded ?? FoldedChanges()
    // An empty cache that has folded nothing knows of nothing it does not show.
    retired = manifest.retired ?? (manifest == Manifest() ? RetiredObjects() : nil)
    newestKeyChange = manifest.newestKeyChange ?? folded.newestClock
    // An empty cache has no stamps to know; any other's are known once a merge folds every file.
    stamps = manifest == Manifest() ? WriteStamps() : nil
    clock.observe(folded.newestClock)
    for (name, table) in tables {
      for (segment, entry) in manifest.segments[name] ?? [:] {
        table.slots[segment] = EntityTable.Slot(file: entry.file, objects: nil)
      }
    }
  }

  /// Resets to a manifest that is ahead of this state's log, announced as a reload; the
  /// transactions noticed before it are still announced.
  mutating func reload(from manifest: Manifest, schema: Schema) {
    let noticed = undelivered
    reset(to: manifest, schema: schema)
    undelivered = noticed
    undeliveredReload = true
  }

  /// Applies one committed transaction to the in-memory state.
  mutating func apply(_ entry: LogEntry) {
    // By index, each change read in place (binding one to a name copies it), and its table
    // looked up once per entity: an entry's changes come entity by entity.
    var last: EntityTable?
    for index in entry.changes.indices {
      let entity = entry.changes[index].entity
      if last?.schema.name != entity { last = tables[entity] }
      guard let table = last else { continue }
      let segment = entry.changes[index].segment
      if let from = entry.changes[index].from, from != segment {
        table.apply(.remove(entry.changes[index].id), to: from, sequence: entry.sequence)
      }
      if entry.changes[index].kind == .delete || entry.changes[index].kind == .retire {
        retired?.insert(ObjectKey(entity: entity, id: entry.changes[index].id), mergedInto: entry.changes[index].mergedInto)
      }
      if entry.changes[index].kind == .retire { continue }  // never in the tables
      if let value = entry.changes[index].value {
        table.apply(
          .put(value, entry.changes[index].encoded), to: segment, sequence: entry.sequence,
          uniqueKeys: entry.changes[index].uniqueKeys)
      } else {
        table.apply(.remove(entry.changes[index].id), to: segment, sequence: entry.sequence)
      }
    }
    if let all = entry.retired { retired = all }
    sequence = entry.sequence
    changesSinceManifest += entry.changes.count
    for stamp in entry.folded ?? [] {
      folded.insert(stamp)
      clock.observe(stamp.hlc)
    }
    for (text, number) in entry.foldedSnapshots ?? [:] {
      if let device = DeviceID(text) { folded.insert(snapshot: number, of: device) }
    }
    for stamp in entry.foldedDivergent ?? [] {
      folded.insert(divergent: stamp)
    }
    for stamp in entry.foldedDivergentSnapshots ?? [] {
      folded.insert(divergentSnapshot: stamp)
    }
    for stamp in entry.foldedThrough ?? [] {
      folded.insert(device: stamp.device, through: stamp.sequence, hlc: stamp.hlc)
      clock.observe(stamp.hlc)
    }
    // A commit's or a merge of arrivals' key changes are at their time; after a merge that
    // folded every file (or an entry that does not say when its changes were written), every
    // one is at or before the newest change folded.
    if entry.retired == nil, let written = entry.written ?? entry.origin?.hlc {
      if entry.reshapes == true { newestKeyChange = max(newestKeyChange, written) }
    } else if entry.retired != nil || !entry.changes.isEmpty {
      newestKeyChange = max(newestKeyChange, folded.newestClock)
    }
    if entry.retired != nil { stamps = nil } else { stamps?.note(entry) }
  }
}

extension StoreState {
  /// The table of an entity of the schema.
  /// - Throws: ``StoreError`` `.invalidObject` when the schema has no such entity.
  func table(_ name: String) throws -> EntityTable {
    guard let table = tables[name] else {
      throw StoreError(
        .invalidObject, path: name,
        "'\(name)' is not an entity of this store's schema — add its EntitySchema to the Schema.")
    }
    return table
  }

  /// The manifest's entry for a segment file (its size and checksum, when the manifest was
  /// written late enough to hold them); nil when the table has moved on to another file.
  func manifestEntry(of file: String, _ entity: String, _ segment: String) -> SegmentEntry? {
    guard let entry = manifest.segments[entity]?[segment], entry.file == file else { return nil }
    return entry
  }
}
