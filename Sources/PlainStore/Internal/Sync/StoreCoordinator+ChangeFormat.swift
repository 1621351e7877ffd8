import Foundation

extension StoreCoordinator {
  /// Decides the format this device's next change files and snapshots are written in
  /// (``ChangeFormat``), at each sync and at a process's first commit: the family's answer while
  /// the carrier is there, else the last one, else the oldest. A program that reads only the
  /// oldest format writes it, looking at nothing. First, this device says that it reads a newer
  /// format, if it has not yet.
  @discardableResult
  func decideChangeFormat(_ state: inout StoreState, _ files: StoreFiles) -> Int {
    guard options.newestChangeFormat > ChangeFormat.oldest else { return ChangeFormat.oldest }
    do {
      try state.device.map(files.changes.publishReads(of:))
    } catch {
      state.statistics.housekeepingFailures += 1  // said again at the next sync
    }
    let decided = files.changes.changeFormats(own: state.device, now: options.clock(), inactiveAfter: options.inactiveDeviceInterval)?.writes
    state.writeFormat = decided ?? state.writeFormat ?? ChangeFormat.oldest
    return state.writeFormat!
  }

  /// Says this device's name anew when the app gives another than the one it goes by: at a
  /// process's first commit, a write anyway, so that a command that only reads writes nothing.
  /// A name is not said over a `device.json` that does not read (damaged, or still in the outbox).
  func publishNameOnce(_ state: inout StoreState, _ files: StoreFiles, device: DeviceID) {
    guard !state.namePublished, files.changes.isCarrying, files.changes.deviceInfo(device) != nil else { return }
    do {
      try files.changes.publishName(options.deviceName, of: device)
      state.namePublished = true
    } catch {
      state.statistics.housekeepingFailures += 1  // tried again at the next commit
    }
  }
}
