import Foundation

/// `changes/<device>/device.json`: who a device is, written once when it first commits.
struct DeviceInfo: Codable, Equatable, Sendable {
  var formatVersion = ChangeFile.formatVersion
  var id: String
  var name: String
  var created: Date
  var schemaVersion: Int
}
