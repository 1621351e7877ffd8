import Foundation

extension StoreCoordinator {
  /// Opens the cache in `local/`, rebuilding it from `changes/` when a file of it is missing or
  /// damaged, then merges the change files that arrived since it was written.
  func openCache(_ files: StoreFiles, _ lock: FileLock) throws {
    // Every time, not only when a folder is missing: a symbolic link in place of one of the
    // cache's folders is refused before anything is read or written through it.
    try files.createLayout()
    try settleJournalIfNeeded(files, lock)
    do {
      try loadCache(files)
    } catch let error as StoreError where Self.isCacheDamage(error, files) {
      // What looked damaged may be another process's write in progress: look again while no
      // one writes, and rebuild only what is still damaged then.
      try lock.withLock(timeout: options.lockTimeout) {
        do {
          try loadCache(files)
        } catch let error as StoreError where Self.isCacheDamage(error, files) {
          try rebuildCache(files, because: error.description)
        }
      }
    }
    guard options.mergesArrivalsOnOpen else { return }
    // A cache that holds nothing yet (local/ lost, a copy's first open) is filled from every
    // file: those iCloud has not downloaded — evicted ones of this device's included — are
    // asked for and waited for first, bounded (a plain folder cannot ask: it does not look).
    if files.changes.transport.canDownload, state.withLock({ $0.folded.sequences.isEmpty && $0.folded.snapshots.isEmpty }) {
      _ = awaitDownloads(try files.changes.scan(own: state.withLock { $0.device }), of: nil, files: files)
    }
    _ = try syncArrived(files, lock)
  }

  /// A damaged, missing or unreadable (mode 000) file of the cache: repaired by a rebuild,
  /// never by the user. A symbolic link or a newer format is not damage: those are refused.
  static func isCacheDamage(_ error: StoreError, _ files: StoreFiles) -> Bool {
    guard error.path.hasPrefix(files.display(files.cachePrefix)) else { return false }
    switch error.code {
    case .damaged, .missing, .io(EACCES): return true
    default: return false
    }
  }

  /// Leaves the marker that makes the next open rebuild the cache, and says so in the error:
  /// found in the middle of a fetch, the damage cannot be repaired there.
  func markCacheDamaged(_ error: StoreError, _ files: StoreFiles) -> StoreError {
    // Not in a format-1 store read for its migration, nor in one opened read-only: those are
    // refused untouched.
    if files.layout == .format2, !options.readOnly {
      try? FileSystem.writeAtomically(Data(), to: files.rebuildMarkerURL, displayPath: files.display(files.cachePrefix + "rebuild"))
    }
    return StoreError(
      error.code, path: error.path,
      "\(error.detail.components(separatedBy: " — ").first ?? error.detail) — this file is the local cache: it is rebuilt from changes/ the next time the store opens; nothing was lost.")
  }

  /// Empties the cache (the lock stays) and folds every change file again. The device id is
  /// not the cache's: this copy goes on under it (`device-id` beside `changes/`), so a rebuild
  /// never makes one phone two devices. Runs holding the flock.
  func rebuildCache(_ files: StoreFiles, because reason: String) throws {
    let device = try readDeviceID(files)
    // The truth must be readable before the cache goes: a change file a power loss took comes
    // back from the journal first, and a damaged change file of this device refuses the
    // rebuild and leaves every file as it was (the journal too: it is emptied below).
    try settleJournal(files, emptying: false)
    // Files that are not downloaded (iCloud evicted them, this device's own included) are asked
    // for and waited for, bounded, before the cache goes: what does not come is shown once it
    // does, and sync status names it meanwhile.
    _ = awaitDownloads(try files.changes.scan(own: device), of: nil, files: files)
    // Local transaction numbers go on from the highest one on disk, so that other processes
    // and history readers of this device never see them go back.
    let newestLog = files.log.newestSequence()
    try files.createLayout()
    // Every old file of the cache goes, or the rebuild stops here (a stale log file left
    // behind would later read as history); the next open starts it again.
    try FileSystem.removeAnything(files.manifestURL, displayPath: files.display(files.manifestPath))
    try FileSystem.removeAnything(files.rebuildMarkerURL, displayPath: files.display(files.cachePrefix + "rebuild"))
    try FileSystem.removeFiles(in: files.segmentsURL, displayPath: files.display(files.cachePrefix + "segments"))
    try FileSystem.removeFiles(in: files.logURL, displayPath: files.log.displayName)
    if files.journal.size > 0 { try files.journal.empty() }  // its change files are whole and flushed
    try state.withLock { state in
      let floor = max(newestLog, state.sequence)
      let noticed = state.undelivered
      state.reset(to: Manifest(), schema: schema)
      state.sequence = floor
      state.manifest.sequence = floor
      state.manifestIdentity = nil
      state.device = device
      state.statistics.cacheRebuilds += 1
      state.lastRebuildReason = reason
      _ = try mergeArrived(&state, files: files, always: true)
      if !files.changes.isCarrying {
        // Rebuilt from the outbox alone: the sync folder cannot be read while syncing is off.
        // This copy no longer knows its newest change there, so it goes on under a new id
        // (never reusing a sequence another file of its old id may hold); the rest comes back
        // with the first merge once syncing is on.
        _ = try mintDevice(&state, files)
      }
      try compact(&state)
      // The fold of every file is no news; other processes' commits noticed and not yet
      // announced are, and any object may differ from what the contexts read: a reload.
      state.undelivered = noticed
      state.undeliveredReload = true
    }
  }

  /// This copy's device id from `device-id` (or, written by a program before this one, from
  /// `local/device-id`, which it then copies beside `changes/`); nil when it has none yet. A
  /// file that does not hold an id is no id: the next commit takes a new one, as a copy that
  /// never had one does, and no file under another id is touched. Runs under the flock.
  func readDeviceID(_ files: StoreFiles) throws -> DeviceID? {
    for url in [files.deviceIDURL, files.legacyDeviceIDURL] {
      let path = files.display(url == files.deviceIDURL ? "device-id" : files.cachePrefix + "device-id")
      let data: Data?
      do {
        data = try FileSystem.read(url, displayPath: path)
      } catch let error as StoreError where error.code == .damaged || error.code == .io(EACCES) {
        continue
      }
      guard let data, let device = DeviceID(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
        continue
      }
      if url != files.deviceIDURL, files.layout == .format2, !options.readOnly { try writeDeviceID(device, files) }
      return device
    }
    return nil
  }

  /// Records this copy's device id where it lives, and where programs before this one read it.
  private func writeDeviceID(_ device: DeviceID, _ files: StoreFiles) throws {
    let text = Data((device.text + "\n").utf8)
    try FileSystem.writeAtomically(text, to: files.deviceIDURL, displayPath: files.display("device-id"))
    try FileSystem.writeAtomically(text, to: files.legacyDeviceIDURL, displayPath: files.display(files.cachePrefix + "device-id"))
  }

  /// The device id to commit under: the one in `device-id` (another process of this
  /// device may have minted it since this one opened), else a new one. Runs under the flock.
  func ensureDevice(_ state: inout StoreState, _ files: StoreFiles) throws -> DeviceID {
    if let device = state.device { return device }
    if let device = try readDeviceID(files) {
      state.device = device
      return device
    }
    // The id asked for only while the sync folder can show whether it is taken.
    return try mintDevice(&state, files, preferred: files.changes.isCarrying ? options.deviceID.flatMap(DeviceID.init) : nil)
  }

  /// Takes a new device id: at the first commit, and when files under the old id turn out to
  /// be another copy's (a restored backup, a copied folder), which must never share a name.
  func mintDevice(_ state: inout StoreState, _ files: StoreFiles, preferred: DeviceID? = nil) throws -> DeviceID {
    let device = preferred ?? DeviceID.mint()
    try files.createLayout()
    try writeDeviceID(device, files)
    try files.changes.writeDeviceInfo(
      DeviceInfo(id: device.text, name: options.deviceName, created: options.clock(), schemaVersion: schema.version, reads: options.newestChangeFormat),
      of: device,
      toOutbox: !(try drainOutbox(&state, files)))
    state.device = device
    return device
  }
}
