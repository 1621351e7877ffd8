/// What one compaction of the change files did (``StoreContainer/compactChanges()``).
///
/// A compaction writes a snapshot of this device's merged view — which is also its
/// acknowledgement of every change the view holds — and deletes this device's own change files
/// that every active device's snapshot covers. It never touches another device's files.
public struct ChangeCompaction: Sendable, Equatable {
  /// The snapshot written (a path under `changes/`); nil when the newest one still holds
  /// everything this device has merged.
  public var snapshotWritten: String?
  /// This device's older snapshots deleted, replaced by the newest.
  public var snapshotsDeleted: Int
  /// This device's change files deleted: every active device had acknowledged them.
  public var changeFilesDeleted: Int
  /// This device's change files kept because a device has not acknowledged them yet.
  public var changeFilesKept: Int
  /// The active devices whose acknowledgement is still missing for some of this device's
  /// changes, by id: they compact too (or sync) before those files can go.
  public var waitingFor: [String]
  /// Devices silent for longer than ``StoreOptions/inactiveDeviceInterval``, by id: they no
  /// longer hold deletion back, and merge from the snapshots when they return.
  public var inactiveDevices: [String]
  /// This device's own files that are not downloaded here (iCloud evicted them) and did not
  /// come within ``StoreOptions/downloadWait`` of being asked for, as paths under `changes/`.
  /// Nothing is lost: while one of them is a snapshot, nothing was written or deleted; a change
  /// file among them is simply not covered yet. The next compaction asks again.
  public var waitingForDownload: [String] = []
}
