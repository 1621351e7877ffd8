extension StoreCoordinator {
  /// Why the cache was last rebuilt from `changes/`, if it was.
  var lastRebuildReason: String? {
    state.withLock { $0.lastRebuildReason }
  }

  /// Change files written again from the journal when the store opened.
  var restoredFromJournal: [String] {
    state.withLock { $0.restoredFromJournal }
  }

  /// Objects of the last merge that could not be read as their entity.
  var lastMergeReport: MergeReport? {
    let (report, devices) = state.withLock { ($0.lastMergeReport, $0.lastMergeDevices) }
    // Named when asked, not at each merge: a device's name is a listing of its whole folder.
    return report.map { MergeReport(devices: devices.map(backing.files.changes.label), changes: $0.changes) }
  }

  var mergeWarnings: [String] {
    state.withLock { $0.mergeWarnings }
  }

  /// Counters of the work this store did since it opened.
  var statistics: StoreStatistics {
    state.withLock { $0.statistics }
  }

  /// This copy's device id; nil until its first commit mints one.
  var deviceID: DeviceID? {
    state.withLock { $0.device }
  }
}
