import Foundation

/// The shared state of one open store in this process: what the contexts read and what their
/// saves commit to. One per container.
final class StoreCoordinator: Sendable {
  let schema: Schema
  let options: StoreOptions
  /// What the store keeps its commits on: its files, or memory.
  let backing: any StoreBacking
  let state: StoreMutex<StoreState>
  let broadcaster = ChangeBroadcaster()
  /// A commit's housekeeping that takes the store's lock again, once its save has returned.
  let lockedHousekeeping = LockedHousekeeping()
  /// The schema by property name, as the merge and the change files see it.
  let mergeSchema: MergeSchema

  /// An in-memory store: every segment is loaded (and empty) from the start.
  init(inMemory schema: Schema, options: StoreOptions) {
    self.schema = schema
    self.options = options
    self.backing = MemoryBacking()
    self.state = StoreMutex(StoreState(schema: schema))
    self.mergeSchema = MergeSchema(schema)
  }

  /// Opens the store folder at `root`, creating it if it does not exist. Reads store.json and
  /// the cache (manifest and local log; segments wait until a fetch needs them), rebuilding the
  /// cache from `changes/` if it is missing or damaged, then merges the change files that have
  /// arrived since. Migrates a format-1 store first.
  init(root: URL, schema: Schema, options: StoreOptions) throws {
    do {
      try MigrationPlan.validate(schema.migrations, schemaVersion: schema.version)
    } catch {
      throw StoreError(.migration, path: "Schema.migrations", "\(error.description) Nothing was read or written.")
    }
    if let error = schema.nameError { throw error }
    let files = StoreFiles(root: root, syncFolder: options.syncFolder, transport: options.transport ?? FolderTransport())
    self.schema = schema
    self.options = options
    let lock = FileLock(
      url: files.lockURL, displayPath: files.display(files.cachePrefix + "lock"), holderHint: options.lockHolderHint,
      assertion: options.backgroundAssertion, claimURL: files.lockClaimURL)
    self.backing = FileBacking(files: files, lock: lock)
    self.state = StoreMutex(StoreState(schema: schema))
    self.mergeSchema = MergeSchema(schema)
    try openFiles(files, lock)
  }

  /// Reads a format-1 store as it is, for its migration: nothing is written.
  init(format1 root: URL, schema: Schema, options: StoreOptions) throws {
    let files = StoreFiles(root: root, layout: .format1)
    self.schema = schema
    self.options = options
    self.backing = FileBacking(files: files, lock: nil)
    self.state = StoreMutex(StoreState(schema: schema))
    self.mergeSchema = MergeSchema(schema)
    try loadCache(files)
  }

  private func openFiles(_ files: StoreFiles, _ lock: FileLock) throws {
    let decoder = StoreCoding.makeDecoder(schema: schema)
    let encoder = StoreCoding.makeEncoder()
    try FileSystem.refuseSymbolicLink(at: files.root, displayPath: files.rootName)
    if !FileSystem.exists(files.root) {
      try FileManager.default.createDirectory(at: files.root.deletingLastPathComponent(), withIntermediateDirectories: true)
      try FileSystem.makeFolder(files.root, displayPath: files.rootName)
    }
    let readHeader = { try files.decode(StoreHeader.self, at: files.headerURL, relative: "store.json", decoder: decoder) }
    let notAStore = StoreError(
      .missing, path: files.display("store.json"),
      "the folder holds other files but no store.json, so it is not a PlainStore store or has lost its header — restore store.json or choose another folder; nothing was changed.")
    var header = try readHeader()
    if header == nil, !Self.isNewOrInterruptedCreation(files) {
      // Another process may have created the store, and committed to it, since the read above:
      // store.json is always in place before any other file of a store.
      header = try readHeader()
      guard header != nil else { throw notAStore }
    }
    if header == nil {
      try FileSystem.makeFolder(files.cacheURL, displayPath: files.display("local"))
      header = try lock.withLock(timeout: options.lockTimeout) {
        // Another process may have created the store while this one waited: look again, and
        // decide under the lock, where no creation is half done.
        if let created = try readHeader() { return created }
        guard Self.isNewOrInterruptedCreation(files) else { throw notAStore }
        try createLayout(files)
        try files.write(StoreHeader(schema: schema), to: files.headerURL, relative: "store.json", encoder: encoder)
        return StoreHeader(schema: schema)
      }
    }
    guard var header else { return }
    try refuseNewerSchema(header, files)
    if header.formatVersion < StoreFiles.formatVersion {
      try migrateFormat1(files)
      header = try readHeader() ?? header
    }
    if header.schemaVersion < schema.version {
      try migrateSchema(files, lock, readHeader: readHeader)
    } else {
      try openCache(files, lock)
    }
  }

  func refuseNewerSchema(_ header: StoreHeader, _ files: StoreFiles) throws {
    guard header.schemaVersion > schema.version else { return }
    throw StoreError(
      .newerSchema(header.schemaVersion), path: files.display("store.json"),
      "the store has schema version \(header.schemaVersion) but this program knows only up to \(schema.version) — update the program; the store was left untouched.")
  }

  /// Reads the cache — manifest, local log, device id — into the state.
  func loadCache(_ files: StoreFiles) throws {
    let decoder = StoreCoding.makeDecoder(schema: schema)
    let identity = files.manifestIdentity
    let manifest = try files.decode(Manifest.self, at: files.manifestURL, relative: files.manifestPath, decoder: decoder)
    if manifest == nil, !FileSystem.list(files.segmentsURL).isEmpty {
      throw StoreError(.missing, path: files.display(files.manifestPath), "is missing while segment files are there.")
    }
    if FileSystem.exists(files.rebuildMarkerURL) {
      throw StoreError(.damaged, path: files.display(files.cachePrefix + "rebuild"), "a process found the cache damaged.")
    }
    if let manifest {
      try checkSegmentNames(manifest, files)
      try checkSchemaVersion(manifest, files, opening: true)
      try checkMergeRules(manifest, files)
    }
    // The segment files are not looked at here: a missing, truncated or damaged one is found
    // when a fetch or a save first reads it (by its size and checksum), and the cache rebuilt
    // then (`repairingCache`), so opening costs the manifest and not one call per month.
    let device = try readDeviceID(files)
    try state.withLock { state in
      state.reset(to: manifest ?? Manifest(), schema: schema)
      state.manifestIdentity = identity
      state.device = device
      try catchUp(&state, files, values: .fromChangeFiles)
      state.undelivered = []
      state.undeliveredReload = false
      // Log records past the last one read: some in between are lost, and the later ones must
      // not be applied out of order by a later commit that fills the gap.
      switch files.layout {
      case .format1:
        let newest = FileSystem.list(files.logURL).compactMap { $0.hasSuffix(".json") ? Int($0.dropLast(5)) : nil }.max() ?? 0
        if newest > state.sequence {
          throw StoreError(.missing, path: files.display(files.format1LogPath(state.sequence + 1)), "is missing while later log files are there.")
        }
      case .format2:
        if let later = files.log.streams().first(where: { $0 > state.sequence + 1 }) {
          throw StoreError(
            .missing, path: files.log.displayPath(later),
            "starts at transaction \(later), but the log holds none from \(state.sequence + 1) on: the records in between are lost.")
        }
      }
    }
  }

  /// The segment file names a manifest lists become paths: each must be a name the store
  /// writes, for an entity of the schema, so that no manifest can lead outside `segments/`.
  func checkSegmentNames(_ manifest: Manifest, _ files: StoreFiles) throws {
    let entities = Set(schema.entities.map(\.name))
    for (entity, entries) in manifest.segments {
      for (segment, entry) in entries
      where !entities.contains(entity) || !SegmentKey.isValid(segment) || !SegmentKey.isSegmentFileName(entry.file, entities: [entity]) {
        throw StoreError(
          .damaged, path: files.display(files.manifestPath), "lists '\(entry.file)' for \(entity) \(segment), which is not a segment file name.")
      }
    }
  }

  /// The segments a manifest lists hold values of this program's schema version (a manifest
  /// written before versions were recorded is taken as this version's). Opening, store.json has
  /// the last word: a cache of another version is a migration killed before store.json took
  /// the new version, rebuilt as damage. Open, a newer cache means a newer program migrated.
  func checkSchemaVersion(_ manifest: Manifest, _ files: StoreFiles, opening: Bool) throws {
    guard let version = manifest.schemaVersion, version != schema.version else { return }
    if version > schema.version && !opening {
      throw StoreError(
        .newerSchema(version), path: files.display(files.manifestPath),
        "a newer program migrated the store to schema version \(version) while this one (version \(schema.version)) had it open — update the program.")
    }
    throw StoreError(.damaged, path: files.display(files.manifestPath), "holds a cache of schema version \(version), not \(schema.version).")
  }

  /// The segments were folded by this program's rules, or could not tell them apart: a cache
  /// that shows merged or deleted objects (where the rules of survivors decide) and was folded
  /// by other rules is rebuilt, as damage, so that it is again the fold of its files.
  func checkMergeRules(_ manifest: Manifest, _ files: StoreFiles) throws {
    let rules = manifest.mergeRules ?? 1
    guard rules != MergedState.rulesVersion, manifest.folded != nil, manifest.retired.map({ !$0.isEmpty }) ?? true else { return }
    throw StoreError(
      .damaged, path: files.display(files.manifestPath),
      "holds a cache folded by the merge rules of version \(rules), not \(MergedState.rulesVersion) (which object of two that met on a unique key survives, and where an edit of the other goes).")
  }

  /// Whether a folder without store.json may become a store: it is empty, or holds only what a
  /// creation killed before writing store.json leaves (the cache folder with nothing committed
  /// in it, empty segments and log folders of format 1, temporary files), or a `changes/`
  /// folder that a sync engine brought from another device. A cache that holds commits is a
  /// store that lost its store.json: refused, not created again over it.
  static func isNewOrInterruptedCreation(_ files: StoreFiles) -> Bool {
    FileSystem.list(files.root).allSatisfy { name in
      switch name {
      case "lock", "changes", "sync-account": true  // the account is recorded as the layout is made
      case "local":
        !FileSystem.exists(files.manifestURL) && FileSystem.list(files.logURL).isEmpty && FileSystem.list(files.segmentsURL).isEmpty
      case "segments", "log": FileSystem.list(files.root.appendingPathComponent(name)).isEmpty
      default: false
      }
    }
  }

  func createLayout(_ files: StoreFiles) throws {
    try FileSystem.makeFolder(files.root, displayPath: files.rootName)
    try FileSystem.makeFolder(files.cacheURL, displayPath: files.display("local"))
    try FileSystem.makeFolder(files.segmentsURL, displayPath: files.display(files.cachePrefix + "segments"))
    try FileSystem.makeFolder(files.logURL, displayPath: files.display(files.cachePrefix + "log"))
    // Not while the carrier is not there: on iOS there is then no container to make it in.
    guard files.changes.isCarrying else { return }
    // A sync folder given by the user (inside Dropbox, say) may need its parents made.
    let parent = files.changes.url.deletingLastPathComponent()
    if !FileSystem.exists(parent) { try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true) }
    try FileSystem.makeFolder(files.changes.url, displayPath: files.changes.displayName)
  }

  // MARK: Catching up with other processes

  /// Takes the lock and applies the commits other processes made since this one last looked
  /// (announced by ``deliverRemoteChanges()``): what containers and contexts call.
  /// - Returns: whether anything new was applied.
  @discardableResult
  func catchUpWithOtherProcesses() throws -> Bool {
    try state.withLock { state in try catchUp(&state) }
  }

  /// Applies the commits other processes made since this one last looked. Their transactions
  /// wait in `state.undelivered` until ``deliverRemoteChanges()`` announces them.
  @discardableResult
  func catchUp(_ state: inout StoreState) throws -> Bool {
    try backing.catchUp(&state, self)
  }

  /// Catching up on files: the manifest, if another process wrote one, then the local log
  /// from this state's sequence on. Opening reads this device's commits from their change
  /// files (`values`), so that damage to them is found there.
  @discardableResult
  func catchUp(_ state: inout StoreState, _ files: StoreFiles, values: LogValues = .asRecorded) throws -> Bool {
    var appliedAny = false
    for _ in 0..<16 {
      let identity = files.manifestIdentity
      if identity != state.manifestIdentity {
        let manifest =
          try files.decode(Manifest.self, at: files.manifestURL, relative: files.manifestPath, decoder: StoreCoding.makeDecoder(schema: schema))
          ?? Manifest()
        try checkSegmentNames(manifest, files)
        try checkSchemaVersion(manifest, files, opening: false)
        if manifest.sequence > state.sequence, try !logHolds(state.sequence + 1, state, files) {
          state.reload(from: manifest, schema: schema)
          appliedAny = true
        } else {
          for (name, table) in state.tables {
            table.adopt(manifest.segments[name] ?? [:], through: manifest.sequence)
          }
          state.manifest = manifest
        }
        state.manifestIdentity = identity
      }
      do {
        for entry in try readLog(from: state.sequence + 1, cursor: &state.logCursor, values: values, files) {
          state.apply(entry)
          if entry.changesObjects { state.undelivered.append(entry.transaction) }
          appliedAny = true
        }
      } catch let error as StoreError where error.code == .missing && state.manifest.sequence > state.sequence {
        // The change file that holds a commit's values was compacted away once the manifest
        // had folded the commit in: read the manifest's segments instead.
        state.reload(from: state.manifest, schema: schema)
        appliedAny = true
        continue
      }
      // Compaction may have pruned the next log between the manifest check and the reads.
      if files.manifestIdentity == state.manifestIdentity { break }
    }
    return appliedAny
  }

  /// Whether the local log still holds transaction `sequence` (compaction prunes old ones).
  private func logHolds(_ sequence: Int, _ state: StoreState, _ files: StoreFiles) throws -> Bool {
    switch files.layout {
    case .format1: return FileSystem.exists(files.format1LogURL(sequence))
    case .format2: return try !files.log.read(from: sequence, cursor: state.logCursor).records.isEmpty
    }
  }

  /// Where the values of the local log's entries come from.
  enum LogValues {
    /// Nowhere: history needs only which objects changed.
    case skipped
    /// The record, or the change file of a commit whose record does not carry them (see
    /// `localLogRecord`): a catch-up on what another process just wrote and checked.
    case asRecorded
    /// A commit of this device's change file, whatever its record carries: opening checks the
    /// truth the cache stands on, as a rebuild would.
    case fromChangeFiles
  }

  /// The local log's entries from `sequence` on, as far as they go without a gap, and `cursor`
  /// moved past them, with their values from where `values` says.
  func readLog(from sequence: Int, cursor: inout LocalLog.Cursor?, values: LogValues, _ files: StoreFiles) throws -> [LogEntry] {
    var entries: [(entry: LogEntry, path: String)] = []
    // Made only for records to decode: most looks of a waiting writer find none.
    lazy var decoder = StoreCoding.makeDecoder(schema: schema)
    switch files.layout {
    case .format1:
      var next = sequence
      while let data = try FileSystem.read(files.format1LogURL(next), displayPath: files.display(files.format1LogPath(next))) {
        let path = files.display(files.format1LogPath(next))
        entries.append((try files.decode(LogEntry.self, from: data, path: path, decoder: decoder), path))
        next += 1
      }
    case .format2:
      let (records, after) = try files.log.read(from: sequence, cursor: cursor)
      for record in records {
        let path = files.log.displayPath(record.stream)
        let entry =
          try LogRecordReader.entry(record.bytes, schema: schema, userInfo: decoder.userInfo)
          ?? files.decode(LogEntry.self, from: record.bytes, path: path, decoder: decoder)
        entries.append((entry, path))
      }
      cursor = after
    }
    return try entries.enumerated().map { index, read in
      var entry = read.entry
      guard entry.sequence == sequence + index else {
        throw StoreError(
          .damaged, path: read.path, "holds transaction \(entry.sequence), not \(sequence + index) — \(StoreFiles.untouched)")
      }
      let carried = !entry.changes.contains(where: { $0.isPut && $0.value == nil })
      if values == .skipped || (values == .asRecorded && carried) {
        return entry
      } else if let origin = entry.origin {
        try fillValues(&entry, from: origin, files: files, logPath: read.path)
      } else if !carried {
        throw StoreError(.damaged, path: read.path, "a change has no value and no change file holds it — \(StoreFiles.untouched)")
      }
      return entry
    }
  }

  /// Announces the other processes' commits noticed so far.
  func deliverRemoteChanges() {
    let (transactions, reloaded) = state.withLock { state in
      defer {
        state.undelivered = []
        state.undeliveredReload = false
      }
      return (state.undelivered, state.undeliveredReload)
    }
    guard !transactions.isEmpty || reloaded else { return }
    broadcaster.announceRemote(RemoteChange(transactions: transactions, reloaded: reloaded))
  }

  // MARK: Segments, loaded when first needed

  /// Makes sure a segment's objects are in memory.
  func ensureLoaded(_ table: EntityTable, _ segment: String, _ state: inout StoreState) throws {
    guard let slot = table.slots[segment], !slot.isLoaded, slot.file != nil else { return }
    try backing.loadSegment(table, segment, &state, self)
  }

  /// Reads a segment's file: the manifest's, or, when it is not there, the one the manifest of
  /// another process's compaction names.
  func loadSegment(_ table: EntityTable, _ segment: String, _ state: inout StoreState, _ files: StoreFiles) throws {
    if try loadSegmentFile(table, segment, &state, files) { return }
    // Another process's compaction may have replaced the file: look at its manifest and retry.
    try catchUp(&state, files)
    guard let retry = table.slots[segment], !retry.isLoaded, retry.file != nil else { return }
    if try loadSegmentFile(table, segment, &state, files) { return }
    throw StoreError(
      .missing, path: files.display(files.segmentPath(retry.file ?? segment)),
      "manifest.json lists this segment but the file is not there — open the store again to rebuild its cache from changes/.")
  }

  private func loadSegmentFile(_ table: EntityTable, _ segment: String, _ state: inout StoreState, _ files: StoreFiles) throws -> Bool {
    guard let file = table.slots[segment]?.file else { return true }
    let relative = files.segmentPath(file)
    let decoder = StoreCoding.makeDecoder(schema: schema)
    let decoded: (any SegmentObjects)?
    do {
      decoded = try Self.decodeSegment(
        table.schema, url: files.segmentsURL.appendingPathComponent(file), relative: relative, segment: segment,
        files: files, decoder: decoder, expected: state.manifestEntry(of: file, table.schema.name, segment))
    } catch let error as StoreError where Self.isCacheDamage(error, files) {
      throw markCacheDamaged(error, files)
    }
    guard let objects = decoded else { return false }
    table.load(segment, objects: objects)
    state.statistics.segmentFilesRead += 1
    return true
  }

  /// A segment file's objects, hashed by id (on the calling thread), or nil when the file is
  /// not there.
  private static func decodeSegment(
    _ schema: EntitySchema, url: URL, relative: String, segment: String, files: StoreFiles, decoder: StoreJSONDecoder,
    expected: SegmentEntry?
  ) throws -> (any SegmentObjects)? {
    func typed<E: Entity>(_ type: E.Type) throws -> (any SegmentObjects)? {
      guard let objects = try decodeSegment(type, url: url, relative: relative, segment: segment, files: files, decoder: decoder, expected: expected)
      else { return nil }
      let table = schema.makeObjects() as! TypedSegmentObjects<E>
      table.fill(objects)
      return table
    }
    return try typed(schema.type)
  }

  private static func decodeSegment<E: Entity>(
    _ type: E.Type, url: URL, relative: String, segment: String, files: StoreFiles, decoder: StoreJSONDecoder,
    expected: SegmentEntry?
  ) throws -> [E]? {
    guard let file = try files.decode(SegmentFile<[E]>.self, at: url, relative: relative, decoder: decoder, expected: expected)
    else {
      return nil
    }
    guard file.entity == E.entityName, file.segment == segment else {
      throw StoreError(
        .damaged, path: files.display(relative),
        "holds \(file.entity) \(file.segment), not \(E.entityName) \(segment) — \(StoreFiles.untouched)")
    }
    return file.objects
  }

  func loadAll(_ table: EntityTable, _ state: inout StoreState) throws {
    let segments = table.slots.keys.sorted()
    try preload(table, segments, &state)
    for segment in segments { try ensureLoaded(table, segment, &state) }
  }

  /// Loads the unloaded segments among `segments`, decoding their files on every core: JSON
  /// decoding is most of the time of a fetch that reads many months. A file that is not there
  /// is left to `ensureLoaded`, which catches up and retries.
  func preload(_ table: EntityTable, _ segments: [String], _ state: inout StoreState) throws {
    try backing.preload(table, segments, &state, self)
  }

  /// Preloading on files: each segment's file decoded on a core of its own.
  func preload(_ table: EntityTable, _ segments: [String], _ state: inout StoreState, _ files: StoreFiles) throws {
    let jobs = segments.compactMap { segment -> (segment: String, file: String)? in
      guard let slot = table.slots[segment], !slot.isLoaded, let file = slot.file else { return nil }
      return (segment, file)
    }
    guard jobs.count > 1 else { return }
    let results = StoreMutex<[Int: Result<(any SegmentObjects)?, any Error>]>([:])
    let entity = table.schema
    let schema = self.schema
    let expected = jobs.map { state.manifestEntry(of: $0.file, table.schema.name, $0.segment) }
    DispatchQueue.concurrentPerform(iterations: jobs.count) { index in
      let job = jobs[index]
      let result = Result {
        try Self.decodeSegment(
          entity, url: files.segmentsURL.appendingPathComponent(job.file), relative: files.segmentPath(job.file),
          segment: job.segment, files: files, decoder: StoreCoding.makeDecoder(schema: schema), expected: expected[index])
      }
      results.withLock { $0[index] = result }
    }
    let decoded = results.withLock { $0 }
    let loading = decoded.values.reduce(0) { total, result in
      guard case .success(let objects?) = result else { return total }
      return total + objects.count
    }
    table.segmentOf.reserveCapacity(table.segmentOf.count + loading)
    for (index, job) in jobs.enumerated() {
      let objects: (any SegmentObjects)?
      do {
        objects = try decoded[index]?.get()
      } catch let error as StoreError where Self.isCacheDamage(error, files) {
        throw markCacheDamaged(error, files)
      }
      guard let objects else { continue }
      table.load(job.segment, objects: objects)
      state.statistics.segmentFilesRead += 1
    }
  }

  /// The committed object with this id, if any. `segment` (where a value of the object goes)
  /// names the segment to look in first; `thorough` loads every segment before it answers "none".
  func committedObject(
    _ table: EntityTable, _ id: UUID, segment hint: String?, thorough: Bool, _ state: inout StoreState
  ) throws -> (any Entity)? {
    if let segment = table.segmentOf[id] {
      try ensureLoaded(table, segment, &state)
      if let object = table.slots[segment]?.objects?[id] { return object }
    }
    let first = hint ?? SegmentKey.all
    if let slot = table.slots[first] {
      // A loaded month, as the months a save writes to mostly are, costs one lookup, not three.
      var objects = slot.objects
      if objects == nil {
        try ensureLoaded(table, first, &state)
        objects = table.slots[first]?.objects
      }
      if let object = objects?[id] { return object }
    }
    guard thorough, !table.isFullyLoaded else { return nil }
    try loadAll(table, &state)
    return table.segmentOf[id].flatMap { table.slots[$0]?.objects?[id] }
  }
}

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
  /// The history of an in-memory store (a file store reads its log).
  var memoryHistory: [Transaction] = []
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
  /// What this container's last merge of arrived files changed.
  var lastMergeReport: MergeReport?
  /// Change files written with a newer schema version than this program's: left out of the
  /// merge until the program is updated (display paths).
  var awaitingUpdate: [String] = []
  /// Why the outbox's last drain stopped before it was empty, with the carrier there.
  var outboxBlocked: String?
  /// What the fold knows but the cache does not show (see ``RetiredObjects``); nil until a
  /// merge has folded every file into a cache that keeps it.
  var retired: RetiredObjects?
  /// When the objects the cache shows were last written (see ``RecentWrites``).
  var recent = RecentWrites(horizon: 0)
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
    recent = manifest.recent ?? RecentWrites(horizon: folded.newestClock)
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
    noteRecentWrites(entry)
  }

  /// Keeps ``RecentWrites`` with an applied entry: a commit's or a merge of arrivals' changes
  /// at their time; after a merge that folded every file (or an entry that does not say when its
  /// changes were written), every write is at or before the newest change folded.
  private mutating func noteRecentWrites(_ entry: LogEntry) {
    guard entry.retired == nil, let written = entry.written ?? entry.origin?.hlc else {
      if entry.retired != nil || !entry.changes.isEmpty { recent = RecentWrites(horizon: folded.newestClock) }
      return
    }
    for index in entry.changes.indices {
      recent.note(ObjectKey(entity: entry.changes[index].entity, id: entry.changes[index].id), groups: entry.changes[index].groups, at: written)
    }
    for (entity, ids) in entry.writtenUnchanged ?? [:] {
      for id in ids { recent.note(ObjectKey(entity: entity, id: id), at: written) }
    }
    if entry.reshapes == true { recent.noteReshaped(at: written) }
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

/// Counters a test or a benchmark can read: how much of the store a piece of work touched.
public struct StoreStatistics: Sendable, Equatable {
  /// Segment files read from disk since the container opened.
  public var segmentFilesRead = 0
  /// Records appended to the local log by this container (its saves and merges).
  public var logRecordsWritten = 0
  /// Compactions this container ran.
  public var compactions = 0
  /// Times this container rebuilt the local cache from the change files.
  public var cacheRebuilds = 0
  /// Change files of other devices (or of a crashed commit of this one) merged in.
  public var changeFilesMerged = 0
  /// Merges that folded only the files that arrived, onto the objects they touch.
  public var arrivalOnlyMerges = 0
  /// Merges and rebuilds that folded every change file.
  public var fullFolds = 0
  /// Housekeeping after a durable commit (cache files, compaction) that failed: the commit
  /// stands; the cache is repaired from the change files at the next open.
  public var housekeepingFailures = 0
  /// This device's files moved from the outbox into the sync folder by this container.
  public var outboxFilesMoved = 0
}
