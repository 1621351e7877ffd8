import Foundation

/// A record the store writes by the hundred thousand (an object of a change file, a change of a
/// log record), whose members are listed once, in `encodeMembers`, and written either straight
/// into `StoreJSONEncoder`'s buffer or through any other encoder's keyed container.
///
/// Codable's containers cost more than the bytes they write: every member goes through a boxed
/// container, a generic call and a type check, and every container looks up its box's type at
/// run time. A bulk save of 100k objects writes 100k of each record.
protocol JSONRecord: Encodable {
  /// Writes the members, in key order (the order the file has them: the encoder then has
  /// nothing to sort), the absent ones left out.
  func encodeMembers(_ members: inout some JSONRecordMembers) throws
}

extension JSONRecord {
  /// The record through any encoder: its `encode(to:)`.
  func encodeRecord(to encoder: Encoder) throws {
    var members = KeyedRecordMembers(container: encoder.container(keyedBy: JSONCodingKey.self))
    try encodeMembers(&members)
  }
}

/// Where a record writes its members.
protocol JSONRecordMembers {
  mutating func encode(_ value: String, forKey key: String) throws
  mutating func encode(_ value: UUID, forKey key: String) throws
  mutating func encode(_ value: RawJSON, forKey key: String) throws
  mutating func encode<T: Encodable>(_ value: T, forKey key: String) throws
}

/// Through an encoder's keyed container: what any `Encoder` sees.
struct KeyedRecordMembers: JSONRecordMembers {
  var container: KeyedEncodingContainer<JSONCodingKey>

  mutating func encode(_ value: String, forKey key: String) throws {
    try container.encode(value, forKey: JSONCodingKey(stringValue: key))
  }

  mutating func encode(_ value: UUID, forKey key: String) throws {
    try container.encode(value, forKey: JSONCodingKey(stringValue: key))
  }

  mutating func encode(_ value: RawJSON, forKey key: String) throws {
    try container.encode(value, forKey: JSONCodingKey(stringValue: key))
  }

  mutating func encode<T: Encodable>(_ value: T, forKey key: String) throws {
    try container.encode(value, forKey: JSONCodingKey(stringValue: key))
  }
}

/// Straight into the store encoder's buffer, as `JSONKeyedEncodingContainer` would write them:
/// in the order given, which a record promises is key order, so nothing is kept to sort them.
struct DirectRecordMembers: JSONRecordMembers {
  let encoding: JSONEncoding
  /// The record's level in the encoder.
  let level: Int

  mutating func encode(_ value: String, forKey key: String) throws {
    encoding.beginRecordMember(key, level: level)
    encoding.writer.appendString(value)
  }

  mutating func encode(_ value: UUID, forKey key: String) throws {
    encoding.beginRecordMember(key, level: level)
    encoding.writer.appendUUID(value)
  }

  mutating func encode(_ value: RawJSON, forKey key: String) throws {
    encoding.beginRecordMember(key, level: level)
    value.bytes.withUnsafeBytes { encoding.writer.append($0) }
  }

  mutating func encode<T: Encodable>(_ value: T, forKey key: String) throws {
    encoding.beginRecordMember(key, level: level)
    try encoding.encodeValue(value, key: JSONCodingKey(stringValue: key))
  }
}
