import Foundation

/// What a store's `changes/` folder holds and what it waits for: the answer to "are the two
/// phones in step?".
public struct SyncStatus: Sendable, Equatable {
  /// One device that has written change files.
  public struct Device: Sendable, Equatable {
    /// Its id, 32 lowercase hex digits (the name of its folder in `changes/`).
    public var id: String
    /// The name it gave itself, if its `device.json` has arrived.
    public var name: String
    public var isThisDevice: Bool
    /// Its newest change that has arrived here, and when it was written.
    public var lastSequence: Int
    public var lastChange: Date?
    /// How many of its changes below `lastSequence` have not arrived (or arrived incomplete).
    public var waiting: Int
    /// The number of its newest snapshot (its compacted view), if one has arrived.
    public var snapshot: Int?
    /// How far its newest snapshot acknowledges this device's changes: this device deletes
    /// its own change files up to there once every active device is as far.
    public var acknowledgesThisDeviceThrough: Int?
    /// Silent for longer than ``StoreOptions/inactiveDeviceInterval``: it no longer holds
    /// back compaction, and merges from the snapshots when it returns.
    public var isInactive: Bool
  }

  /// This copy's device id; nil until it first commits.
  public var thisDevice: String?
  /// The folder the change files are in.
  public var folder: URL
  /// Every device with a folder, this one first, then by id.
  public var devices: [Device]
  /// Other devices' files that are incomplete or damaged so far: read again at the next sync.
  public var notArrived: [String]
  /// Names in `changes/` that the store did not write: left alone.
  public var unknownFiles: [String]
  /// Sync engines' temporary files, placeholders and the like, skipped.
  public var artefactsSkipped: Int
  /// Conflict copies read as the change they copy.
  public var conflictCopies: Int
  /// Change files written by a newer version of the program (a newer schema) on another
  /// device: kept, and merged once this program is updated.
  public var awaitingUpdate: [String]
}

extension StoreCoordinator {
  func syncStatus() throws -> SyncStatus? {
    guard let files else { return nil }
    let device = state.withLock { $0.device }
    let scan = try files.changes.scan(own: device, readableSchema: schema.version)
    var newest: [DeviceID: ChangeFile] = [:]
    for file in scan.files where file.sequence >= (newest[file.device]?.sequence ?? 0) { newest[file.device] = file }
    var snapshots: [DeviceID: ChangeSnapshot] = [:]
    for snapshot in scan.snapshots where snapshot.number >= (snapshots[snapshot.device]?.number ?? 0) { snapshots[snapshot.device] = snapshot }
    let now = options.clock()
    let devices = scan.devices.sorted { ($0 == device ? 0 : 1, $0.text) < ($1 == device ? 0 : 1, $1.text) }.map { id in
      let lastActive = scan.lastActive[id].map(HybridLogicalClock.date(of:))
      return SyncStatus.Device(
        id: id.text, name: files.changes.deviceInfo(id)?.name ?? "", isThisDevice: id == device,
        lastSequence: scan.lastSequence[id] ?? 0, lastChange: newest[id]?.timestamp ?? lastActive, waiting: scan.waiting[id] ?? 0,
        snapshot: snapshots[id]?.number, acknowledgesThisDeviceThrough: device.flatMap { snapshots[id]?.covers[$0] },
        isInactive: id != device && lastActive.map { now.timeIntervalSince($0) > options.inactiveDeviceInterval } ?? false)
    }
    return SyncStatus(
      thisDevice: device?.text, folder: files.changes.url, devices: devices, notArrived: scan.notArrived, unknownFiles: scan.unknown,
      artefactsSkipped: scan.artefactsSkipped, conflictCopies: scan.conflictCopies, awaitingUpdate: awaitingUpdate(scan, files))
  }
}
