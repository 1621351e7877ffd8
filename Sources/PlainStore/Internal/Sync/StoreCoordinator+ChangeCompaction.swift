import Foundation

extension StoreCoordinator {
  /// Merges what arrived, writes a snapshot of the merged view when it holds more than this
  /// device's newest one, and deletes this device's own change files that every active device
  /// has acknowledged. Nil for an in-memory store.
  func compactChanges() throws -> ChangeCompaction? {
    try backing.compactChanges(self)
  }

  /// Compacting the change files; nil in a format-1 store read for its migration (no lock).
  func compactChanges(_ files: StoreFiles, _ lock: FileLock?) throws -> ChangeCompaction? {
    guard let lock else { return nil }
    let report = try lock.withLock(timeout: options.lockTimeout) {
      try state.withLock { state in
        try catchUp(&state)
        _ = try mergeArrived(&state, files: files, always: false)
        return try compactChanges(&state, files)
      }
    }
    deliverRemoteChanges()
    return report
  }

  /// Runs holding the flock and the state lock, after a merge of everything that arrived.
  func compactChanges(_ state: inout StoreState, _ files: StoreFiles) throws -> ChangeCompaction {
    // A snapshot goes into the sync folder and covers this device's changes: it waits for the
    // carrier, and for the outbox to be empty (its changes before the snapshot that covers them).
    guard try drainOutbox(&state, files) else {
      try compact(&state)
      return ChangeCompaction(
        snapshotWritten: nil, snapshotsDeleted: 0, changeFilesDeleted: 0, changeFilesKept: 0, waitingFor: [], inactiveDevices: [])
    }
    let device = try ensureDevice(&state, files)
    // Change files are deleted below only once snapshots cover them: every one on disk first,
    // so that a power loss cannot bring back from the journal a file compacted away.
    try settleJournal(files)
    state.manifest.changesCompactedThrough = state.folded.newest(of: device)
    // The manifest first folds in every commit of the local log: a process that catches up
    // then reads the values of a commit whose change file goes below from the segments.
    try compact(&state)
    var scan = try files.changes.scan(own: device, readableSchema: schema.version)
    // A file of this device's that is not downloaded (iOS evicted it) holds changes that may be
    // nowhere else: a snapshot made without it would not hold them (a change file's, it covers
    // nothing past it), and an old snapshot would be deleted unread. They are asked for and
    // waited for, bounded; a snapshot still missing then stops the compaction, which says so.
    let missing = awaitDownloads(scan, of: [device], files: files)
    if missing.count < notDownloaded(scan, of: [device], files: files).count {
      scan = try files.changes.scan(own: device, readableSchema: schema.version)
    }
    guard scan.notDownloadedSnapshots[device]?.isEmpty ?? true else {
      return ChangeCompaction(
        snapshotWritten: nil, snapshotsDeleted: 0, changeFilesDeleted: 0, changeFilesKept: 0, waitingFor: [], inactiveDevices: [],
        waitingForDownload: missing)
    }
    let merged = fold(scan)
    let ownFolder = files.changes.deviceURL(device)
    // Evicted files count: a number a placeholder holds is taken, and an acknowledged change
    // that is not downloaded goes as its placeholder.
    let listing = files.changes.transport.list(ownFolder.path)
    let names = listing.arrived + listing.notDownloaded
    let own = scan.snapshots.filter { $0.device == device }.max { $0.number < $1.number }
    var report = ChangeCompaction(
      snapshotWritten: nil, snapshotsDeleted: 0, changeFilesDeleted: 0, changeFilesKept: 0, waitingFor: [], inactiveDevices: [],
      waitingForDownload: missing)

    var current = own
    let covers = merged.coverage()
    if own == nil || own?.covers != covers || scan.files.contains(where: { $0.sequence > (own?.covers[$0.device] ?? 0) }) {
      let taken = names.compactMap { name -> Int? in
        if case .snapshot(let number) = ChangeFileName.classify(name).kind { return number }
        return nil
      }
      let hlc = state.clock.tick(now: options.clock())
      let snapshot = merged.snapshot(device: device, number: (taken.max() ?? 0) + 1, hlc: hlc, schemaVersion: schema.version)
      let path = files.changes.display(device, snapshot.fileName)
      options.phaseObserver?("compact: snapshot")
      guard try files.changes.create(snapshot) else {
        throw StoreError(.damaged, path: path, "already exists — another copy of the store writes under this device's id; nothing was deleted.")
      }
      report.snapshotWritten = path
      current = snapshot
      try recordOwnSnapshot(snapshot, &state, files)
    }
    guard let current else { return report }

    // Every active device's newest snapshot acknowledges this device's changes up to a point.
    let now = options.clock()
    var acknowledged = current.covers[device] ?? 0
    for other in scan.devices.sorted() where other != device {
      let lastActive = scan.lastActive[other].map(HybridLogicalClock.date(of:)) ?? files.changes.deviceInfo(other)?.created
      guard let lastActive, now.timeIntervalSince(lastActive) <= options.inactiveDeviceInterval else {
        report.inactiveDevices.append(other.text)
        continue
      }
      let newest = scan.snapshots.filter { $0.device == other }.max { $0.number < $1.number }
      let covered = newest?.covers[device] ?? 0
      if covered < (current.covers[device] ?? 0) { report.waitingFor.append(other.text) }
      acknowledged = min(acknowledged, covered)
    }

    var removed = false
    options.phaseObserver?("compact: delete")
    for name in names {
      switch ChangeFileName.classify(name).kind {
      case .snapshot(let number) where number < current.number:
        files.changes.transport.remove(atPath: files.changes.filePath(device, name))
        report.snapshotsDeleted += 1
        removed = true
      case .change(let sequence) where sequence <= acknowledged:
        files.changes.transport.remove(atPath: files.changes.filePath(device, name))
        report.changeFilesDeleted += 1
        removed = true
      case .change:
        report.changeFilesKept += 1
      default:
        break
      }
    }
    if removed {
      do {
        // No power-loss state needs this flush: it makes the deletions durable, and a change file a power loss brings back is one the snapshot (flushed before any deletion) covers, merged as before and deleted by the next compaction (PowerLossTests: change compaction).
        try FileSystem.syncFolder(ownFolder, displayPath: files.changes.displayName + "/" + device.text)
      } catch {
        state.statistics.housekeepingFailures += 1  // the deletions are only cleanup: redone next time
      }
    }
    options.phaseObserver?("compact: done")
    return report
  }

  /// Records this device's new snapshot as folded (a log entry that changes nothing), so that
  /// the next merge does not read it as an arrival and fold every file for it. Only its number:
  /// it is the fold of what the cache holds, but a file that arrived while it was being made is
  /// in it and not yet in the cache, and is still to be merged; what it covers stays unrecorded.
  func recordOwnSnapshot(_ snapshot: ChangeSnapshot, _ state: inout StoreState, _ files: StoreFiles) throws {
    let entry = LogEntry(
      sequence: state.sequence + 1, author: "sync", timestamp: options.clock(), changes: [], folded: [], foldedThrough: [],
      foldedDivergent: [], foldedSnapshots: [snapshot.device.text: snapshot.number], origin: nil, retired: nil)
    try writeLocalLog(entry, &state, files)
    state.apply(entry)
  }

  /// Whether this device has committed `changeCompactionThreshold` changes since its change
  /// files were last compacted; if so, records that they are being compacted now.
  func takeChangeCompactionTurn(_ state: inout StoreState) -> Bool {
    guard options.changeCompactionThreshold > 0, let device = state.device else { return false }
    let newest = state.folded.newest(of: device)
    guard newest - (state.manifest.changesCompactedThrough ?? 0) >= options.changeCompactionThreshold else { return false }
    state.manifest.changesCompactedThrough = newest
    return true
  }
}
