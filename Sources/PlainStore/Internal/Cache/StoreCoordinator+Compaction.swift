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
    guard let compaction = try writeSegments(&state, files) else { return }
    if try install(compaction, &state, files) { syncFoldersAfterRemovals(files) }
  }

  /// A commit's compaction, once the commit has let the flock go: the segments are written and
  /// flushed holding only the coordinator's lock, and the flock is taken again for the
  /// manifest alone, while other processes commit. Under four writers, writing a month's
  /// segment held the flock for a few milliseconds every 64 commits. The segments are of one
  /// state, at one sequence, and named for it: the manifest that names them is written only
  /// if no other has been since (which a compaction's or a rebuild's removals come with), and
  /// the commits made meanwhile stay in the log after that sequence. Segments that no manifest
  /// names are removed by the next compaction, as a crash's are.
  ///
  /// Holding the flock, it does only what must be done there: the manifest and the id filters
  /// are encoded with the segments, the commits made while they were written are read before
  /// the flock is taken and while it waits for it (as a commit's are), and the folders that
  /// lost files are flushed once it is let go. Among four writers (4 × 200 commits, 13
  /// compactions) a compaction held the flock 3.2–4.1 ms on average, and 2.2 ms so.
  ///
  /// The segments are written on the saving thread; the manifest, which waits for the flock,
  /// off it (see ``LockedHousekeeping``). A compaction due while this process's last one's
  /// manifest is still to come waits for it first: its segments start from that manifest
  /// rather than the one before, which that manifest's coming would make it refuse.
  func compactAfterCommit(_ files: StoreFiles, _ lock: FileLock) {
    lockedHousekeeping.wait()
    let compaction: SegmentCompaction
    do {
      guard let written = try state.withLock({ state in isCompactionDue(state) ? try writeSegments(&state, files) : nil }) else { return }
      compaction = written
    } catch {
      state.withLock { $0.statistics.housekeepingFailures += 1 }
      return
    }
    options.phaseObserver?("compact: segments written")
    lockedHousekeeping.start { [self] in installAfterCommit(compaction, files, lock) }
  }

  /// A commit's compaction's second part: its manifest installed, holding the flock, unless
  /// another came first.
  private func installAfterCommit(_ compaction: SegmentCompaction, _ files: StoreFiles, _ lock: FileLock) {
    do {
      let catchUp: @Sendable () -> Void = { [self] in _ = try? catchUpWithOtherProcesses() }  // a damaged file is found holding the flock
      catchUp()
      let removed = try lock.withLock(timeout: options.lockTimeout, whileWaiting: catchUp) {
        try state.withLock { state in
          try self.catchUp(&state)
          guard state.manifestIdentity == compaction.replacing else { return false }  // another manifest came first
          return try install(compaction, &state, files)
        }
      }
      if removed { syncFoldersAfterRemovals(files) }
    } catch {
      state.withLock { $0.statistics.housekeepingFailures += 1 }
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
    /// The bytes of the stamps file the manifest names.
    var stamps: Data?
  }

  /// Writes and flushes the segments that changed since the manifest, as the state holds them,
  /// and makes the manifest that names them; changes nothing on disk that anything names, nor
  /// any state but what is loaded. nil when the state moved while a segment was loaded (a load
  /// may read another process's compaction and commits): its segments are not of one state.
  private func writeSegments(_ state: inout StoreState, _ files: StoreFiles) throws -> SegmentCompaction? {
    readStamps(&state, files)  // a process that only commits (the widget, a CLI command) keeps them too
    let encoder = StoreCoding.makeEncoder()
    var manifest = state.manifest
    manifest.sequence = state.sequence
    manifest.folded = state.folded
    manifest.schemaVersion = schema.version
    manifest.retired = state.retired
    manifest.recent = state.recent
    manifest.mergeRules = MergedState.rulesVersion
    // Never the last one's: it is of another sequence.
    let stamps = state.stamps.map { $0.fileBytes(sequence: manifest.sequence) }
    manifest.stamps = stamps.map {
      SegmentEntry(file: "stamps", count: state.stamps!.objects.count, size: $0.count, checksum: StoreFiles.checksum($0))
    }
    let replacing = state.manifestIdentity
    var written: [String] = []
    var idFilters: [String: String] = [:]
    for (name, table) in state.tables.sorted(by: { $0.key < $1.key }) {
      for (segment, slot) in table.slots.sorted(by: { $0.key < $1.key }) where !slot.pending.isEmpty {
        try ensureLoaded(table, segment, &state)
        guard state.sequence == manifest.sequence, state.manifestIdentity == replacing else { return nil }
        if let objects = table.slots[segment]?.objects, objects.count > 0 {
          let file = "\(name).\(segment).\(Digits.decimal(manifest.sequence, width: 8)).json"
          let keepsJSON = objects.count <= Self.segmentJSONKeptLimit
          if keepsJSON { try objects.encodeEach(encoder) }
          let data = try objects.encodeFile(entity: name, segment: segment, encoder: encoder)
          try FileSystem.writeAtomically(
            data, to: files.segmentsURL.appendingPathComponent(file), displayPath: files.display(files.segmentPath(file)), durable: false)
          manifest.segments[name, default: [:]][segment] = SegmentEntry(
            file: file, count: objects.count, size: data.count, checksum: StoreFiles.checksum(data))
          idFilters[file] = objects.idFilter.text
          if !keepsJSON { objects.forgetEncoded() }
          written.append(file)
        } else {
          manifest.segments[name]?[segment] = nil
        }
      }
      if manifest.segments[name]?.isEmpty == true { manifest.segments[name] = nil }
    }
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
      manifest: manifest, replacing: replacing, idFilters: idFilters, changesFolded: state.changesSinceManifest,
      manifestData: try encoder.encode(manifest),
      segmentIDs: idFilters.isEmpty ? nil : segmentIDs(adding: idFilters, for: manifest, &state, files), stamps: stamps)
  }

  /// Writes the manifest of a compaction (the commit point), which the tables take as they take
  /// another process's: the commits after its sequence stay pending. Then removes what no one
  /// needs any more. Runs holding the store's flock and the coordinator's lock. Returns whether
  /// it removed files, whose folders the caller flushes (``syncFoldersAfterRemovals(_:)``).
  private func install(_ compaction: SegmentCompaction, _ state: inout StoreState, _ files: StoreFiles) throws -> Bool {
    let manifest = compaction.manifest
    if let ids = compaction.segmentIDs { writeSegmentIDs(ids, &state, files) }
    if let stamps = compaction.stamps { writeStamps(stamps, files) }
    try FileSystem.writeAtomically(compaction.manifestData, to: files.manifestURL, displayPath: files.display(files.manifestPath))
    for (name, table) in state.tables {
      table.adopt(manifest.segments[name] ?? [:], through: manifest.sequence)
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
  private func syncFoldersAfterRemovals(_ files: StoreFiles) {
    // No power-loss state needs this flush: a segment file a power loss brings back is one no manifest names, passed over and removed by the next compaction (PowerLossTests: segment compaction).
    try? FileSystem.syncFolder(files.segmentsURL, displayPath: files.display(files.cachePrefix + "segments"))
    // No power-loss state needs this flush: a log stream a power loss brings back holds records the manifest covers, passed over and removed by the next compaction (PowerLossTests: segment compaction).
    try? FileSystem.syncFolder(files.logURL, displayPath: files.display(files.cachePrefix + "log"))
  }
}
