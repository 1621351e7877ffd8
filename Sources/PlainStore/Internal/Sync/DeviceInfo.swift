import Foundation

/// `changes/<device>/device.json`: who a device is, written once when it first commits.
struct DeviceInfo: Codable, Equatable, Sendable {
  var formatVersion = ChangeFile.formatVersion
  var id: String
  var name: String
  var created: Date
  var schemaVersion: Int
  /// The newest change-file format the device read when it wrote this; absent (written before
  /// it was kept): ``ChangeFormat/oldest``. A newer one it reads later is a `reads-<N>.json`
  /// beside this file (see ``ChangeFormat``).
  var reads: Int?
}
