import Foundation

struct LogChange: Codable, JSONRecord {
  /// `retire`: an id the cache keeps as an alias of another object without ever having held
  /// it — an insert that merged into a stored object, an edit or a delete addressed to an
  /// alias. No object changes: history and observers are not told of it.
  enum Kind: String, Codable { case insert, update, delete, retire }

  /// Whether the change puts a value into the tables.
  var isPut: Bool { kind == .insert || kind == .update }
  var entity: String
  var id: UUID
  var kind: Kind
  /// The segment the object is in after the change (for a delete: the one it was in).
  var segment: String
  /// The segment it was in before, when an update moved it.
  var from: String?
  var value: (any Entity)?
  /// The value's JSON as the commit's change file writes it, when the commit encoded it already:
  /// the segment and the local log record write it as it is. Not read from a record.
  var encoded: RawJSON?
  /// The value's unique keys, in the order of its entity's constraints, as the plan computed
  /// them: the tables' indexes take them instead of reading the value again. Not part of the
  /// log record.
  var uniqueKeys: [UniqueKey]?
  /// The field groups an update of a commit sets, as its change file names them (nil: every
  /// group, as for an insert, a delete, a merge's change, or a record written before groups
  /// were kept): the groups ``WriteStamps`` dates at its stamp.
  var groups: [String]?
  /// For a delete of a commit: the object it merged into on a unique key, which the cache keeps
  /// as its survivor (see ``RetiredObjects``); its change file carries the insert or the edit
  /// that took it there, as given (`encoded`).
  var mergedInto: UUID?
  /// The object `mergedInto` names.
  var survivor: ObjectKey? { mergedInto.map { ObjectKey(entity: entity, id: $0) } }
  /// Whether the commit's context gave this change; one it did not (a delete rule's, a holder's
  /// that another object met) is in no change file: every device's fold derives it. Not part of
  /// the log record.
  var isGiven = true
  /// For a given change whose object merged away, or that was addressed to an alias: the field
  /// groups it set (nil: an insert, which sets what it carries). Not part of the log record.
  var givenGroups: [String]?

  enum CodingKeys: String, CodingKey { case entity, id, kind, segment, from, groups, mergedInto, value }

  init(entity: String, id: UUID, kind: Kind, segment: String, from: String?, value: (any Entity)?) {
    self.entity = entity
    self.id = id
    self.kind = kind
    self.segment = segment
    self.from = from
    self.value = value
  }

  init(from decoder: Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    entity = try container.decode(String.self, forKey: .entity)
    id = try container.decode(UUID.self, forKey: .id)
    kind = try container.decode(Kind.self, forKey: .kind)
    segment = try container.decode(String.self, forKey: .segment)
    from = try container.decodeIfPresent(String.self, forKey: .from)
    groups = try container.decodeIfPresent([String].self, forKey: .groups)
    mergedInto = try container.decodeIfPresent(UUID.self, forKey: .mergedInto)
    for name in [segment] + (from.map { [$0] } ?? []) where !SegmentKey.isValid(name) {
      throw DecodingError.dataCorruptedError(
        forKey: .segment, in: container, debugDescription: "'\(name)' is not a segment name (all or YYYY-MM)")
    }
    if kind == .delete || !container.contains(.value) {
      value = nil  // a put without a value takes it from the entry's change file
    } else {
      guard let schema = (decoder.userInfo[.plainStoreSchema] as? SchemaBox)?.schema,
        let entitySchema = schema.entity(named: entity)
      else {
        throw StoreError(.damaged, path: "", "entity '\(entity)' is not in this program's schema — open the store with a newer version of the program.")
      }
      value = try Self.decodeValue(entitySchema.type, container)
    }
  }

  private static func decodeValue<E: Entity>(_ type: E.Type, _ container: KeyedDecodingContainer<CodingKeys>) throws -> any Entity {
    try container.decode(E.self, forKey: .value)
  }

  func encode(to encoder: Encoder) throws {
    try encodeRecord(to: encoder)
  }

  func encodeMembers(_ members: inout some JSONRecordMembers) throws {
    try members.encode(entity, forKey: "entity")
    if let from { try members.encode(from, forKey: "from") }
    if let groups { try members.encode(groups, forKey: "groups") }
    try members.encode(id, forKey: "id")
    try members.encode(kind.rawValue, forKey: "kind")
    if let mergedInto { try members.encode(mergedInto, forKey: "mergedInto") }
    try members.encode(segment, forKey: "segment")
    if let encoded, value != nil {
      try members.encode(encoded, forKey: "value")
    } else if let value {
      try members.encode(AnyEncodableEntity(value: value), forKey: "value")
    }
  }
}
