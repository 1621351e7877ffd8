import Foundation

extension StoreCoordinator {
  /// Moves the outbox's files into the sync folder when the carrier is there: what opening,
  /// ``StoreContainer/sync()`` and an availability change the carrier reports (it comes as an
  /// arrival) call. Takes the flock only when the outbox holds files.
  func drainOutbox() throws {
    try backing.drainOutbox(self)
  }

  /// Draining on files; not in a format-1 store read for its migration (no lock).
  func drainOutbox(_ files: StoreFiles, _ lock: FileLock?) throws {
    guard let lock, !files.changes.outbox.isEmpty, files.changes.isCarrying else { return }
    try lock.withLock(timeout: options.lockTimeout) {
      try state.withLock { state in _ = try drainOutbox(&state, files) }
    }
  }

  /// The one road out of the outbox, which every caller takes (a commit, a new device id, the
  /// calls above): while the carrier is there, moves the outbox's files into the sync folder,
  /// in order — `device.json` first, then the changes by sequence — each created there durably
  /// before it leaves the outbox, so a kill in between leaves it in both, and the next drain
  /// finds it there with the same bytes and only removes it from the outbox. A name the sync
  /// folder holds with other bytes is never overwritten: the drain stops there and the status
  /// names it (``SyncStatus/outboxBlocked``); one whose file is not downloaded is asked for,
  /// and compared once it is. Runs holding the flock and the state lock.
  /// - Returns: whether this device's new files go into the sync folder now: the carrier is
  ///   there and the outbox is empty.
  func drainOutbox(_ state: inout StoreState, _ files: StoreFiles) throws -> Bool {
    let changes = files.changes
    let outbox = changes.outbox
    guard changes.isCarrying else { return false }
    guard !outbox.isEmpty else {
      state.outboxBlocked = nil
      return true
    }
    // Every file of the outbox whole and durable first: a power loss may have taken one that
    // the journal holds, and a move reads the bytes it copies.
    try settleJournal(files)
    state.outboxBlocked = nil
    options.phaseObserver?("outbox")
    for device in outbox.devices() {
      for name in outbox.names(of: device) {
        let from = outbox.display(device, name)
        guard let bytes = try FileSystem.read(atPath: outbox.filePath(device, name), displayPath: from) else { continue }
        try changes.makeDeviceFolder(device)
        let target = changes.filePath(device, name)
        let to = changes.display(device, name)
        if try !changes.transport.createOnce(bytes, atPath: target, displayPath: to) {
          // Taken: by this very move, which a kill interrupted after the file was created, or by another file.
          if changes.transport.isNotDownloaded(atPath: target) {
            changes.transport.requestDownload(atPath: target)
            state.outboxBlocked = "\(from) waits for \(to), which is in the cloud but not downloaded here, to be compared with it."
            return false
          }
          let existing = try changes.transport.read(atPath: target, displayPath: to)
          // Who the device is: the first one written stands.
          if existing != bytes && name != "device.json" {
            state.outboxBlocked = StoreError(
              .damaged, path: to,
              "holds another change than \(from), which should move there — nothing was overwritten: \(from) stays in the outbox with this device's later changes behind it. Another copy of this store writes under this device's id: keep the copy whose data is right, and move the other aside."
            ).description
            return false
          }
        }
        outbox.remove(device, name)
        state.statistics.outboxFilesMoved += 1
      }
      outbox.removeIfEmpty(device)
    }
    outbox.removeIfEmpty()
    return outbox.isEmpty
  }
}
