import Foundation

/// Writes an array's elements in order.
struct JSONUnkeyedEncodingContainer: UnkeyedEncodingContainer {
  let encoder: JSONEncoding
  /// The array's level in the encoder.
  let level: Int
  /// The length of the encoder's coding path at the array.
  let depth: Int

  var codingPath: [any CodingKey] { Array(encoder.path.prefix(depth)) }
  var count: Int { encoder.levels[level].count }

  private var key: JSONCodingKey { JSONCodingKey(index: count) }

  mutating func encodeNil() throws {
    encoder.beginElement(level: level)
    encoder.writer.append("null")
  }

  mutating func encode(_ value: Bool) throws {
    encoder.beginElement(level: level)
    encoder.writer.append(value ? "true" : "false")
  }

  mutating func encode(_ value: String) throws {
    encoder.beginElement(level: level)
    encoder.writer.appendString(value)
  }

  mutating func encode(_ value: Double) throws {
    let key = self.key
    encoder.beginElement(level: level)
    try encoder.encodeDouble(value, key: key)
  }

  mutating func encode(_ value: Float) throws {
    let key = self.key
    encoder.beginElement(level: level)
    try encoder.encodeFloat(value, key: key)
  }

  mutating func encode(_ value: Int) throws {
    encoder.beginElement(level: level)
    encoder.writer.appendInt(value)
  }

  mutating func encode(_ value: Int8) throws { integer(value) }
  mutating func encode(_ value: Int16) throws { integer(value) }
  mutating func encode(_ value: Int32) throws { integer(value) }
  mutating func encode(_ value: Int64) throws { integer(value) }
  mutating func encode(_ value: UInt) throws { integer(value) }
  mutating func encode(_ value: UInt8) throws { integer(value) }
  mutating func encode(_ value: UInt16) throws { integer(value) }
  mutating func encode(_ value: UInt32) throws { integer(value) }
  mutating func encode(_ value: UInt64) throws { integer(value) }

  private func integer<I: BinaryInteger>(_ value: I) {
    encoder.beginElement(level: level)
    encoder.writer.appendInteger(value)
  }

  mutating func encode<T: Encodable>(_ value: T) throws {
    let key = self.key
    encoder.beginElement(level: level)
    try encoder.encodeValue(value, key: key)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
    let key = self.key
    encoder.beginElement(level: level)
    return encoder.child(level: level, key: key).container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let key = self.key
    encoder.beginElement(level: level)
    return encoder.child(level: level, key: key).unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder {
    let key = self.key
    encoder.beginElement(level: level)
    return encoder.child(level: level, key: key)
  }
}
