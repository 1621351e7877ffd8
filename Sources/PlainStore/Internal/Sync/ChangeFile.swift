import Foundation

/// One committed transaction of one device: the unit of sync. Created once under
/// `changes/<device>/<sequence>-<hlc>.json` and never rewritten, so every file-sync engine can
/// carry it safely; the merge is a pure function of the set of these files.
struct ChangeFile: Codable, Equatable, Sendable {
  static let formatVersion = 2

  var formatVersion = Self.formatVersion
  var device: DeviceID
  /// The device's own counter: 1, 2, 3… with no gaps, so a reader knows what has not arrived.
  var sequence: Int
  /// The hybrid logical clock stamp every value of this change carries.
  var hlc: UInt64
  var author: String
  var timestamp: Date
  var schemaVersion: Int
  var objects: [ObjectChange]

  var stamp: ChangeStamp { ChangeStamp(hlc: hlc, device: device, sequence: sequence) }
  var fileName: String { ChangeFileName.changeName(sequence: sequence, hlc: hlc) }

  enum CodingKeys: String, CodingKey { case formatVersion, device, sequence, hlc, author, timestamp, schemaVersion, objects }

  init(device: DeviceID, sequence: Int, hlc: UInt64, author: String, timestamp: Date, schemaVersion: Int, objects: [ObjectChange]) {
    self.device = device
    self.sequence = sequence
    self.hlc = hlc
    self.author = author
    self.timestamp = timestamp
    self.schemaVersion = schemaVersion
    self.objects = objects
  }

  init(from decoder: Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    formatVersion = try container.decode(Int.self, forKey: .formatVersion)
    let deviceText = try container.decode(String.self, forKey: .device)
    guard let device = DeviceID(deviceText) else {
      throw DecodingError.dataCorruptedError(forKey: .device, in: container, debugDescription: "'\(deviceText)' is not a device id.")
    }
    self.device = device
    sequence = try container.decode(Int.self, forKey: .sequence)
    let hlcText = try container.decode(String.self, forKey: .hlc)
    guard let hlc = HybridLogicalClock.parse(hlcText) else {
      throw DecodingError.dataCorruptedError(forKey: .hlc, in: container, debugDescription: "'\(hlcText)' is not a clock stamp.")
    }
    self.hlc = hlc
    author = try container.decode(String.self, forKey: .author)
    timestamp = try container.decode(Date.self, forKey: .timestamp)
    schemaVersion = try container.decode(Int.self, forKey: .schemaVersion)
    objects = try container.decode([ObjectChange].self, forKey: .objects)
  }

  func encode(to encoder: Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(formatVersion, forKey: .formatVersion)
    try container.encode(device.text, forKey: .device)
    try container.encode(sequence, forKey: .sequence)
    try container.encode(HybridLogicalClock.text(hlc), forKey: .hlc)
    try container.encode(author, forKey: .author)
    try container.encode(timestamp, forKey: .timestamp)
    try container.encode(schemaVersion, forKey: .schemaVersion)
    try container.encode(objects, forKey: .objects)
  }
}

/// What one change does to one object.
struct ObjectChange: Codable, Equatable, Sendable {
  enum Kind: String, Codable, Sendable { case upsert, delete }
  var entity: String
  var id: UUID
  var kind: Kind
  /// For an upsert: the properties it sets, each field group whole, as exact JSON text. An
  /// absent property is one the change does not touch; a property set to nil is `null`.
  var fields: [String: RawJSON]?
}
