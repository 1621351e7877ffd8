import Foundation

/// The synced part of a store: `changes/<device-id>/…`, one folder per device, each written by
/// that device alone.
///
/// Writing creates files once and never replaces or removes another device's files. Reading
/// tolerates everything a sync engine leaves: its temporary files and placeholders are skipped,
/// conflict copies are read as the change they copy, and another device's file that is
/// incomplete or damaged is "not arrived yet" — skipped now, read again next time. Only this
/// device's own files are trusted to be whole: a damaged one is an error naming it.
struct ChangeFolder: Sendable {
  let url: URL
  /// How messages name the folder, e.g. "BabyDashboard.store/changes".
  let displayName: String

  func deviceURL(_ device: DeviceID) -> URL { url.appendingPathComponent(device.text) }
  func display(_ device: DeviceID, _ name: String) -> String { displayName + "/" + device.text + "/" + name }

  /// Creates one change file of this device, durably. Returns false, writing nothing, when its
  /// name is taken: a commit of this device that a crash kept from being recorded, or another
  /// copy of the store writing under the same device id.
  func create(_ change: ChangeFile) throws -> Bool {
    try makeDeviceFolder(change.device)
    let path = display(change.device, change.fileName)
    return try FileSystem.createOnce(ChangeFileCodec.encode(change), at: deviceURL(change.device).appendingPathComponent(change.fileName), displayPath: path)
  }

  /// Like ``create(_:)``, for callers (tests) that know the name is free.
  func write(_ change: ChangeFile) throws {
    guard try create(change) else {
      throw StoreError(.damaged, path: display(change.device, change.fileName), "already exists — nothing was written.")
    }
  }

  func makeDeviceFolder(_ device: DeviceID) throws {
    try FileSystem.makeFolder(url, displayPath: displayName)
    try FileSystem.makeFolder(deviceURL(device), displayPath: displayName + "/" + device.text)
  }

  /// Writes `device.json` for this device once; an existing one stays.
  func writeDeviceInfo(_ info: DeviceInfo, of device: DeviceID) throws {
    try makeDeviceFolder(device)
    let data = try StoreCoding.makeEncoder().encode(info)
    try FileSystem.createOnce(data, at: deviceURL(device).appendingPathComponent("device.json"), displayPath: display(device, "device.json"))
  }

  /// A device's `device.json`, if it is there and readable.
  func deviceInfo(_ device: DeviceID) -> DeviceInfo? {
    let url = deviceURL(device).appendingPathComponent("device.json")
    guard let data = try? FileSystem.read(url, displayPath: display(device, "device.json")) else { return nil }
    return try? StoreCoding.makeDecoder().decode(DeviceInfo.self, from: data)
  }

  /// Reads every change file whose (device, sequence) is not `known`, with what was skipped
  /// and what is missing.
  func scan(own: DeviceID?, known: (DeviceID, Int) -> Bool = { _, _ in false }) throws -> ChangeScan {
    var scan = ChangeScan()
    for name in Self.names(in: url) {
      guard let device = DeviceID(name) else {
        if ChangeFileName.isArtefact(name) { scan.artefactsSkipped += 1 } else { scan.unknown.append(displayName + "/" + name) }
        continue
      }
      try scanDevice(device, isOwn: device == own, known: known, into: &scan)
    }
    scan.files.sort { $0.stamp < $1.stamp }
    return scan
  }

  private func scanDevice(_ device: DeviceID, isOwn: Bool, known: (DeviceID, Int) -> Bool, into scan: inout ChangeScan) throws {
    var sequences: Set<Int> = []
    var newestNamed = 0  // arrived or not: the name alone says the change exists
    var seen: Set<ChangeStamp> = []
    scan.devices.insert(device)
    for name in Self.names(in: deviceURL(device)) {
      let (kind, isCopy) = ChangeFileName.classify(name)
      let path = display(device, name)
      switch kind {
      case .artefact:
        scan.artefactsSkipped += 1
      case .unknown:
        scan.unknown.append(path)
      case .deviceInfo:
        if isCopy { scan.conflictCopies += 1 }
      case .change(let sequence):
        newestNamed = max(newestNamed, sequence)
        if known(device, sequence) {
          sequences.insert(sequence)
          if isCopy { scan.conflictCopies += 1 }
          continue
        }
        switch try read(deviceURL(device).appendingPathComponent(name), path: path) {
        case .success(let change) where change.device == device && change.sequence == sequence:
          if isCopy { scan.conflictCopies += 1 }
          sequences.insert(sequence)
          // A copy repeats its original; one that differs is a second writer under this id,
          // and both changes count.
          guard seen.insert(change.stamp).inserted else { continue }
          scan.files.append(change)
        case .success:
          if isOwn { throw Self.ownDamaged(path, "its contents belong to another name or device") }
          scan.notArrived.append(path)
        case .failure(let failure):
          if isOwn { throw Self.ownDamaged(path, Self.describe(failure)) }
          scan.notArrived.append(path)
        }
      }
    }
    let missing = newestNamed - sequences.count
    if missing > 0 { scan.waiting[device] = missing }
    scan.lastSequence[device] = sequences.max() ?? 0
  }

  private func read(_ url: URL, path: String) throws -> Result<ChangeFile, ChangeFileCodec.Failure> {
    guard let data = try FileSystem.read(url, displayPath: path) else { return .failure(.incomplete) }
    return ChangeFileCodec.decode(data)
  }

  private static func ownDamaged(_ path: String, _ reason: String) -> StoreError {
    StoreError(
      .damaged, path: path,
      "this device's own change file is damaged (\(reason)) — restore it from a backup or from another device's copy of changes/; the store was left untouched.")
  }

  private static func describe(_ failure: ChangeFileCodec.Failure) -> String {
    switch failure {
    case .incomplete: "incomplete or truncated"
    case .checksumMismatch: "its checksum does not match its contents"
    case .unreadable(let reason): reason
    }
  }

  /// Every name in a folder, hidden ones included (they are counted as skipped).
  private static func names(in folder: URL) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
  }
}

/// `changes/<device>/device.json`: who a device is, written once when it first commits.
struct DeviceInfo: Codable, Equatable, Sendable {
  var formatVersion = ChangeFile.formatVersion
  var id: String
  var name: String
  var created: Date
  var schemaVersion: Int
}

/// What one reading of `changes/` found.
struct ChangeScan: Sendable {
  /// The complete change files not already known, by stamp.
  var files: [ChangeFile] = []
  /// Conflict copies read (or recognised as repeats of a file already read).
  var conflictCopies = 0
  /// Sync engines' temporary files, placeholders and the like.
  var artefactsSkipped = 0
  /// Other devices' files that are incomplete or damaged: read again next time.
  var notArrived: [String] = []
  /// Names the store did not write and does not know: left alone.
  var unknown: [String] = []
  /// Per device, how many of its changes below its newest are missing: "waiting for N changes".
  var waiting: [DeviceID: Int] = [:]
  /// Per device, its newest sequence seen.
  var lastSequence: [DeviceID: Int] = [:]
  /// Every device with a folder.
  var devices: Set<DeviceID> = []
}
