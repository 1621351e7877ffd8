import Foundation

extension StoreCoordinator {
  /// Merges what arrived, writes a snapshot of the merged view when it holds more than this
  /// device's newest one, and deletes this device's own change files that every active device
  /// has acknowledged.
  func compactChanges() throws -> ChangeCompaction? {
    try backing.compactChanges(self)
  }

  /// Compacting the change files; nil in a format-1 store read for its migration (no lock).
  /// The heavy part — reading and folding every file, encoding the snapshot — is done first,
  /// without the lock, so other processes commit meanwhile (at 20k objects it took a second,
  /// and held up every writer of the device for it).
  func compactChanges(_ files: StoreFiles, _ lock: FileLock?) throws -> ChangeCompaction? {
    guard let lock else { return nil }
    let plan = try planChangeCompaction(files)
    let report = try lock.withLock(timeout: options.lockTimeout) {
      try state.withLock { state in
        try catchUp(&state)
        _ = try mergeArrived(&state, files: files, always: false)
        return try compactChanges(&state, files, plan: plan)
      }
    }
    deliverRemoteChanges()
    return report
  }

  /// What a change compaction writes, found from the files alone: this device's view of every
  /// file, folded, and the snapshot that holds it when its newest snapshot does not, encoded.
  /// Change files are created once and a snapshot says what it covers, so it stays true
  /// whatever is committed or arrives after it was made.
  struct ChangeCompactionPlan {
    var device: DeviceID
    var scan: ChangeScan
    /// This device's newest snapshot when the plan was made.
    var own: ChangeSnapshot?
    /// The snapshot to write, encoded; nil when `own` holds the fold already.
    var snapshot: (snapshot: ChangeSnapshot, bytes: Data)?
    /// The highest snapshot number this device's folder held (a placeholder's included).
    var newestNumber: Int
    /// Files asked for and not downloaded within the wait, as messages name them.
    var missing: [String]
    /// Whether one of this device's snapshots is still not downloaded: nothing may be written.
    var waitsForDownload: Bool
  }

  /// A plan made without the lock, once this device has its id and its outbox is empty (a
  /// snapshot waits for its changes to leave the outbox first); nil otherwise, and the
  /// compaction plans holding the lock.
  func planChangeCompaction(_ files: StoreFiles) throws -> ChangeCompactionPlan? {
    guard let device = state.withLock({ $0.device }), files.changes.isCarrying, files.changes.outbox.isEmpty else { return nil }
    let format = state.withLock { $0.writeFormat } ?? ChangeFormat.oldest
    return try planChangeCompaction(device: device, format: format, files) { newest in
      state.withLock { $0.clock.tick(now: options.clock(), after: newest) }
    }
  }

  /// The plan for `device`: its files asked for and waited for where iOS evicted them, then
  /// every file folded, and the snapshot to write stamped by `stamp`, which is handed the
  /// newest stamp read (the snapshot comes after everything it holds).
  /// The snapshot is written in `format` (``ChangeFormat``).
  func planChangeCompaction(device: DeviceID, format: Int, _ files: StoreFiles, stamp: (UInt64) -> UInt64) throws -> ChangeCompactionPlan {
    var scan = try files.changes.scan(own: device, readableSchema: schema.version)
    // A file of this device's that is not downloaded (iOS evicted it) holds changes that may be
    // nowhere else: a snapshot made without it would not hold them (a change file's, it covers
    // nothing past it), and an old snapshot would be deleted unread. They are asked for and
    // waited for, bounded; a snapshot still missing then stops the compaction, which says so.
    let missing = awaitDownloads(scan, of: [device], files: files)
    if missing.count < notDownloaded(scan, of: [device], files: files).count {
      scan = try files.changes.scan(own: device, readableSchema: schema.version)
    }
    let newestNumber = snapshotNumbers(of: device, files).max() ?? 0
    let own = scan.snapshots.filter { $0.device == device }.max { $0.number < $1.number }
    var plan = ChangeCompactionPlan(
      device: device, scan: scan, own: own, snapshot: nil, newestNumber: newestNumber, missing: missing,
      waitsForDownload: !(scan.notDownloadedSnapshots[device]?.isEmpty ?? true))
    guard !plan.waitsForDownload else { return plan }
    let merged = fold(scan)
    if own == nil || own?.covers != merged.coverage() || scan.files.contains(where: { $0.sequence > (own?.covers[$0.device] ?? 0) }) {
      let newestRead = max(scan.files.map(\.hlc).max() ?? 0, scan.snapshots.map(\.hlc).max() ?? 0)
      var snapshot = merged.snapshot(device: device, number: newestNumber + 1, hlc: stamp(newestRead), schemaVersion: schema.version)
      snapshot.formatVersion = format
      plan.snapshot = (snapshot, try ChangeFileCodec.encode(snapshot))
    }
    options.phaseObserver?("compact: planned")
    return plan
  }

  /// The numbers of `device`'s snapshots in its folder, a placeholder's included: a number it
  /// holds is taken.
  private func snapshotNumbers(of device: DeviceID, _ files: StoreFiles) -> [Int] {
    let listing = files.changes.transport.list(files.changes.deviceURL(device).path)
    return (listing.arrived + listing.notDownloaded).compactMap { name in
      if case .snapshot(let number) = ChangeFileName.classify(name).kind { return number }
      return nil
    }
  }

  /// Runs holding the flock and the state lock, after a merge of everything that arrived. A
  /// `plan` made without the lock is used when it still holds — made for this device's id,
  /// and no snapshot of it written since — and made here otherwise.
  func compactChanges(_ state: inout StoreState, _ files: StoreFiles, plan: ChangeCompactionPlan?) throws -> ChangeCompaction {
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
    func stillHolds(_ plan: ChangeCompactionPlan) -> Bool {
      plan.device == device && plan.newestNumber == (snapshotNumbers(of: device, files).max() ?? 0)
    }
    let plan = try plan.flatMap { stillHolds($0) ? $0 : nil }
      ?? planChangeCompaction(device: device, format: state.writeFormat ?? ChangeFormat.oldest, files) {
        state.clock.tick(now: options.clock(), after: $0)
      }
    let scan = plan.scan
    var report = ChangeCompaction(
      snapshotWritten: nil, snapshotsDeleted: 0, changeFilesDeleted: 0, changeFilesKept: 0, waitingFor: [], inactiveDevices: [],
      waitingForDownload: plan.missing)
    guard !plan.waitsForDownload else { return report }

    var current = plan.own
    if let (snapshot, bytes) = plan.snapshot {
      let path = files.changes.display(device, snapshot.fileName)
      options.phaseObserver?("compact: snapshot")
      guard try files.changes.create(snapshot, encoded: bytes) else {
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
      guard files.changes.isActive(other, lastSeen: scan.lastActive[other], now: now, within: options.inactiveDeviceInterval) else {
        report.inactiveDevices.append(other.text)
        continue
      }
      let newest = scan.snapshots.filter { $0.device == other }.max { $0.number < $1.number }
      let covered = newest?.covers[device] ?? 0
      if covered < (current.covers[device] ?? 0) { report.waitingFor.append(other.text) }
      acknowledged = min(acknowledged, covered)
    }

    // Evicted files count: an acknowledged change that is not downloaded goes as its placeholder.
    let ownFolder = files.changes.deviceURL(device)
    let listing = files.changes.transport.list(ownFolder.path)
    var removed = false
    options.phaseObserver?("compact: delete")
    for name in listing.arrived + listing.notDownloaded {
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
