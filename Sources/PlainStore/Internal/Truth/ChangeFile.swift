import Foundation

/// One committed transaction of one device: the unit of sync. Created once under
/// `changes/<device>/<sequence>.json` and never rewritten, so every file-sync engine can
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
  var fileName: String { ChangeFileName.changeName(sequence: sequence) }

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
    device = try container.decodeDeviceID(forKey: .device)
    sequence = try container.decode(Int.self, forKey: .sequence)
    hlc = try container.decodeClock(forKey: .hlc)
    author = try container.decode(String.self, forKey: .author)
    timestamp = try container.decode(Date.self, forKey: .timestamp)
    schemaVersion = try container.decode(Int.self, forKey: .schemaVersion)
    objects = try container.decode([ObjectChange].self, forKey: .objects)
  }

  func encode(to encoder: Encoder) throws {
    // In key order, as the file has them: the encoder then copies nothing to sort them.
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(author, forKey: .author)
    try container.encode(device.text, forKey: .device)
    try container.encode(formatVersion, forKey: .formatVersion)
    try container.encode(HybridLogicalClock.text(hlc), forKey: .hlc)
    try container.encode(objects, forKey: .objects)
    try container.encode(schemaVersion, forKey: .schemaVersion)
    try container.encode(sequence, forKey: .sequence)
    try container.encode(timestamp, forKey: .timestamp)
  }
}

/// What one change does to one object.
struct ObjectChange: Codable, Equatable, Sendable, JSONRecord {
  enum Kind: String, Codable, Sendable { case upsert, delete }
  var entity: String
  var id: UUID
  var kind: Kind
  /// For an upsert: the object's properties as exact JSON text; a property set to nil is
  /// `null`. Read from a file; a writer may give `value` instead.
  var fields: [String: RawJSON]?
  /// For an upsert being written: the object itself, encoded as `fields`.
  var value: (any Entity)?
  /// For an upsert being written: `value`'s JSON when it was encoded already, written as
  /// `fields` as it is.
  var encodedValue: RawJSON?
  /// The field groups the upsert sets (see ``MergeSchema``); nil: every group in `fields`.
  /// An update carries the whole object, so that the processes of its own device read it
  /// whole, but sets only the groups it changed, so a merge takes only those.
  var groups: [String]?

  enum CodingKeys: String, CodingKey { case entity, id, kind, fields, groups }

  init(entity: String, id: UUID, kind: Kind, fields: [String: RawJSON]?, groups: [String]? = nil) {
    self.entity = entity
    self.id = id
    self.kind = kind
    self.fields = fields
    self.groups = groups
  }

  init(entity: String, id: UUID, kind: Kind, value: (any Entity)?, groups: [String]?) {
    self.entity = entity
    self.id = id
    self.kind = kind
    self.value = value
    self.groups = groups
  }

  init(from decoder: Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    entity = try container.decode(String.self, forKey: .entity)
    id = try container.decode(UUID.self, forKey: .id)
    kind = try container.decode(Kind.self, forKey: .kind)
    fields = try container.decodeIfPresent([String: RawJSON].self, forKey: .fields)
    groups = try container.decodeIfPresent([String].self, forKey: .groups)
    if kind == .upsert && fields == nil {
      throw DecodingError.keyNotFound(CodingKeys.fields, .init(codingPath: container.codingPath, debugDescription: "an upsert without fields"))
    }
  }

  func encode(to encoder: Encoder) throws { try encodeRecord(to: encoder) }

  func encodeMembers(_ members: inout some JSONRecordMembers) throws {
    try members.encode(entity, forKey: "entity")
    if let encodedValue {
      try members.encode(encodedValue, forKey: "fields")
    } else if let value {
      try members.encode(AnyEncodableEntity(value: value), forKey: "fields")
    } else if let fields {
      try members.encode(fields, forKey: "fields")
    }
    if let groups { try members.encode(groups, forKey: "groups") }
    try members.encode(id, forKey: "id")
    try members.encode(kind.rawValue, forKey: "kind")
  }

  static func == (lhs: ObjectChange, rhs: ObjectChange) -> Bool {
    lhs.entity == rhs.entity && lhs.id == rhs.id && lhs.kind == rhs.kind && lhs.fields == rhs.fields && lhs.groups == rhs.groups
      && entitiesEqual(lhs.value, rhs.value)
  }
}
