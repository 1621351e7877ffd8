import Foundation

extension StoreCoordinator {
  /// Compacts the cache: the segments that changed and the manifest that names them.
  func compact(_ state: inout StoreState) throws {
    try backing.compact(&state, self)
  }

  /// A segment of at most this many objects keeps each one's JSON once its file is written:
  /// the month that takes the commits is written again at every compaction, and encoding all
  /// its objects each time was most of a compaction (a month of a busy family is about a
  /// thousand objects, a few hundred kilobytes). A larger one, a bulk save's, lets it go.
  static let segmentJSONKeptLimit = 4_096

  /// Whether the cache is due for compaction: its log is long, in commits or in objects.
  func isCompactionDue(_ state: StoreState) -> Bool { compactionLevel(state) >= 1 }

  /// How many times over the cache's log is long: its commits since the manifest in
  /// thresholds, or the objects they changed in theirs, whichever is more; due from 1. A
  /// commit compacts when it takes the log to a new level (``keepCache(afterLogging:written:levelBefore:_:_:)``),
  /// so that among several writers one commit compacts, not each that finds it due before
  /// that one's manifest comes.
  func compactionLevel(_ state: StoreState) -> Int {
    max((state.sequence - state.manifest.sequence) / options.compactionThreshold, state.changesSinceManifest / Self.compactionChangeThreshold)
  }

  /// Compact also once this many objects changed since the last compaction, so a bulk save
  /// does not leave a huge log for every later open to replay.
  static let compactionChangeThreshold = 2_000

  /// Writes the segments that changed since the manifest, then the manifest (the commit point),
  /// then removes the files nothing refers to any more and the log streams no one needs.
  /// Runs holding the store's flock and the coordinator's lock.
  func compact(_ state: inout StoreState, _ files: StoreFiles) throws {
    guard let taken = try takeSegments(&state) else { return }
    let compaction = try writeSegments(taken, files)
    if try install(compaction, &state, files) { syncFoldersAfterRemovals(files) }
  }

  /// The segments a compaction writes, taken from the state holding the coordinator's lock:
  /// each changed segment's objects as a copy (``SegmentObjects/copy()``), which the state's
  /// later commits do not change, so that they are encoded and written without the lock.
  struct SegmentsToWrite: Sendable {
    /// The new manifest without its segments: of the state at its sequence.
    var manifest: Manifest
    /// The identity of the manifest file it was made from.
    var replacing: FileIdentity?
    /// The objects changed since the manifest that the new one holds.
    var changesFolded: Int
    /// The id filters the state knew (`StoreState.segmentIDs`); nil: read from their file.
    var knownIDs: [String: String]?
    var segments: [Segment]
    /// The write stamps at the manifest's sequence (a copy: it shares its tables until a commit
    /// changes them); nil when this process never read them, which `stampsOrigin` then says
    /// where to read.
    var stamps: WriteStamps?
    /// The stamps file the replaced manifest named, and that manifest's sequence.
    var stampsOrigin: (file: SegmentEntry, sequence: Int)?

    /// A changed segment, its objects copied from the table's (`live`), which `install` puts
    /// the copy in place of, with the JSON it encoded, if they are still the table's.
    struct Segment: Sendable {
      var entity: String
      var name: String
      var table: EntityTable
      var live: (any SegmentObjects)?
      var copy: (any SegmentObjects)?
    }
  }

  /// Segment files written for a compaction, and the manifest that will name them.
  struct SegmentCompaction: Sendable {
    /// The new manifest, of the state at its sequence.
    var manifest: Manifest
    /// The identity of the manifest file it was made from.
    var replacing: FileIdentity?
    /// The id filters of the segment files written.
    var idFilters: [String: String]
    /// The objects changed since the manifest that the new one holds.
    var changesFolded: Int
    /// The manifest's bytes.
    var manifestData: Data
    /// The id filters of the files the manifest names, with their file's bytes.
    var segmentIDs: (filters: [String: String], data: Data?)?
    /// The segments written, whose copies the tables take at the install.
    var segments: [SegmentsToWrite.Segment]
    /// The bytes of the stamps file the manifest names.
    var stamps: Data?
  }

  /// The segments that changed since the manifest, loaded and copied, and the manifest's other
  /// fields, as the state holds them; changes no state but what is loaded. nil when the state
  /// moved while a segment was loaded (a load may read another process's compaction and
  /// commits): its segments are not of one state. Runs holding the coordinator's lock, and
  /// costs it the loads alone: a copy shares its arrays until one side changes them.
  func takeSegments(_ state: inout StoreState) throws -> SegmentsToWrite? {
    var manifest = state.manifest
    manifest.sequence = state.sequence
    manifest.folded = state.folded
    manifest.schemaVersion = schema.version
    manifest.retired = state.retired
    manifest.newestKeyChange = state.newestKeyChange
    manifest.mergeRules = MergedState.rulesVersion
    manifest.stamps = nil  // named by `writeSegments`, if the stamps are known: the last one's is of another sequence
    let replacing = state.manifestIdentity
    var segments: [SegmentsToWrite.Segment] = []
    for (name, table) in state.tables.sorted(by: { $0.key < $1.key }) {
      for (segment, slot) in table.slots.sorted(by: { $0.key < $1.key }) where !slot.pending.isEmpty {
        try ensureLoaded(table, segment, &state)
        guard state.sequence == manifest.sequence, state.manifestIdentity == replacing else { return nil }
        let live = table.slots[segment]?.objects
        segments.append(SegmentsToWrite.Segment(entity: name, name: segment, table: table, live: live, copy: live?.copy()))
      }
    }
    return SegmentsToWrite(
      manifest: manifest, replacing: replacing, changesFolded: state.changesSinceManifest, knownIDs: state.segmentIDs, segments: segments,
      stamps: state.stamps, stampsOrigin: state.manifest.stamps.map { ($0, state.manifest.sequence) })
  }

  /// Writes and flushes the segments taken, and makes the manifest that names them; changes
  /// nothing on disk that anything names, and touches no state: it runs with or without the
  /// coordinator's lock.
  func writeSegments(_ taken: SegmentsToWrite, _ files: StoreFiles) throws -> SegmentCompaction {
    let encoder = StoreCoding.makeEncoder()
    var manifest = taken.manifest
    // A process that only commits (the widget, a CLI command) keeps the stamps too: it reads
    // them here, off the saving thread, as of the new manifest's sequence.
    let stamps = taken.stamps ?? taken.stampsOrigin.flatMap { loadStamps($0.file, of: $0.sequence, through: manifest.sequence, files) }
    let stampsBytes = stamps.flatMap { $0.fileBytes(sequence: manifest.sequence) }
    manifest.stamps = stampsBytes.map {
      SegmentEntry(file: "stamps", count: stamps!.count, size: $0.count, checksum: StoreFiles.checksum($0))
    }
    var written: [String] = []
    var idFilters: [String: String] = [:]
    for segment in taken.segments {
      let (name, key) = (segment.entity, segment.name)
      if let objects = segment.copy, objects.count > 0 {
        let file = "\(name).\(key).\(Digits.decimal(manifest.sequence, width: 8)).json"
        let keepsJSON = objects.count <= Self.segmentJSONKeptLimit
        if keepsJSON { try objects.encodeEach(encoder) }
        let data = try objects.encodeFile(entity: name, segment: key, encoder: encoder)
        try FileSystem.writeAtomically(
          data, to: files.segmentsURL.appendingPathComponent(file), displayPath: files.display(files.segmentPath(file)), durable: false)
        manifest.segments[name, default: [:]][key] = SegmentEntry(
          file: file, count: objects.count, size: data.count, checksum: StoreFiles.checksum(data))
        idFilters[file] = objects.idFilter.text
        if !keepsJSON { objects.forgetEncoded() }
        written.append(file)
      } else {
        manifest.segments[name]?[key] = nil
      }
    }
    for (name, segments) in manifest.segments where segments.isEmpty { manifest.segments[name] = nil }
    // The new segments reach the disk before the manifest names them, flushed together: a disk
    // takes flushes that arrive together as one (a bulk save's hundred months flushed one by
    // one, file then folder, were 3–6 % of the save). Their names carry the new sequence, so
    // until the manifest is written nothing refers to them.
    if let first = written.first {
      // No power-loss state needs this flush: the segments are the cache's, and one a power loss took or tore fails its checksum in the manifest and the cache is rebuilt from changes/; the flush spares that rebuild (PowerLossTests: segment compaction, a merge).
      try FileSystem.flushToDisk(
        paths: written.map { files.segmentsURL.appendingPathComponent($0).path }, folders: [files.segmentsURL],
        displayPath: files.display(files.segmentPath(first)))
    }
    return SegmentCompaction(
      manifest: manifest, replacing: taken.replacing, idFilters: idFilters, changesFolded: taken.changesFolded,
      manifestData: try encoder.encode(manifest),
      segmentIDs: idFilters.isEmpty ? nil : segmentIDs(adding: idFilters, for: manifest, known: taken.knownIDs, files),
      segments: taken.segments, stamps: stampsBytes)
  }

  /// Writes the manifest of a compaction (the commit point), which the tables take as they take
  /// another process's: the commits after its sequence stay pending. Then removes what no one
  /// needs any more. Runs holding the store's flock and the coordinator's lock. Returns whether
  /// it removed files, whose folders the caller flushes (``syncFoldersAfterRemovals(_:)``).
  func install(_ compaction: SegmentCompaction, _ state: inout StoreState, _ files: StoreFiles) throws -> Bool {
    let manifest = compaction.manifest
    if let ids = compaction.segmentIDs { writeSegmentIDs(ids, &state, files) }
    if let stamps = compaction.stamps { writeStamps(stamps, files) }
    try FileSystem.writeAtomically(compaction.manifestData, to: files.manifestURL, displayPath: files.display(files.manifestPath))
    for (name, table) in state.tables {
      table.adopt(manifest.segments[name] ?? [:], through: manifest.sequence)
    }
    for segment in compaction.segments where state.tables[segment.entity] === segment.table {
      if let live = segment.live, let copy = segment.copy { segment.table.take(copy, for: segment.name, copiedFrom: live) }
    }
    state.manifest = manifest
    state.manifestIdentity = files.manifestIdentity
    state.changesSinceManifest = max(0, state.changesSinceManifest - compaction.changesFolded)
    state.statistics.compactions += 1
    return removeUnreferencedFiles(manifest, keepingLogsAfter: logsToKeepAfter(manifest), files: files)
  }

  /// Logs after this sequence stay: the recent ones for processes that have not caught up, and
  /// those a registered history reader has not consumed (within the retention limit).
  func logsToKeepAfter(_ manifest: Manifest) -> Int {
    max(0, min(manifest.sequence - options.logRetention, readersFloor(manifest)))
  }

  /// The logs after this sequence are kept for registered history readers: from the oldest
  /// reader's token on, but no more than `historyRetentionLimit` of them.
  func readersFloor(_ manifest: Manifest) -> Int {
    guard let oldestReader = manifest.readers.values.min() else { return Int.max }
    return max(oldestReader, manifest.sequence - options.historyRetentionLimit)
  }

  /// Removes the segment files and log streams no one needs any more; returns whether it removed
  /// any.
  private func removeUnreferencedFiles(_ manifest: Manifest, keepingLogsAfter keep: Int, files: StoreFiles) -> Bool {
    let referenced = Set(manifest.segments.values.flatMap { $0.values.map(\.file) })
    let entities = Set(schema.entities.map(\.name))
    var removed = false
    // Only segment files the store wrote and no longer needs: a file it did not write stays.
    for name in FileSystem.unsortedList(files.segmentsURL)
    where !referenced.contains(name) && SegmentKey.isSegmentFileName(name, entities: entities) {
      FileSystem.remove(files.segmentsURL.appendingPathComponent(name))
      removed = true
    }
    if files.log.removeStreams(through: keep) { removed = true }
    return removed
  }

  /// Flushes the folders a compaction removed files from; no lock needed.
  func syncFoldersAfterRemovals(_ files: StoreFiles) {
    // No power-loss state needs this flush: a segment file a power loss brings back is one no manifest names, passed over and removed by the next compaction (PowerLossTests: segment compaction).
    try? FileSystem.syncFolder(files.segmentsURL, displayPath: files.display(files.cachePrefix + "segments"))
    // No power-loss state needs this flush: a log stream a power loss brings back holds records the manifest covers, passed over and removed by the next compaction (PowerLossTests: segment compaction).
    try? FileSystem.syncFolder(files.logURL, displayPath: files.display(files.cachePrefix + "log"))
  }
}
