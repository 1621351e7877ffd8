import Foundation

/// Writes an object's members as they come; `JSONEncoding` sorts them when the object ends.
struct JSONKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let encoder: JSONEncoding
  /// The object's level in the encoder.
  let level: Int
  /// The length of the encoder's coding path at the object.
  let depth: Int

  var codingPath: [any CodingKey] { Array(encoder.path.prefix(depth)) }

  private func write(_ key: Key, _ body: () throws -> Void) rethrows {
    encoder.beginMember(key.stringValue, level: level)
    // Even when the value throws: a member without an end would break the object's rebuild.
    defer { encoder.endMember() }
    try body()
  }

  func encodeNil(forKey key: Key) throws { write(key) { encoder.writer.append("null") } }
  func encode(_ value: Bool, forKey key: Key) throws { write(key) { encoder.writer.append(value ? "true" : "false") } }
  func encode(_ value: String, forKey key: Key) throws { write(key) { encoder.writer.appendString(value) } }
  func encode(_ value: Double, forKey key: Key) throws { try write(key) { try encoder.encodeDouble(value, key: key) } }
  func encode(_ value: Float, forKey key: Key) throws { try write(key) { try encoder.encodeFloat(value, key: key) } }
  func encode(_ value: Int, forKey key: Key) throws { write(key) { encoder.writer.appendInt(value) } }
  func encode(_ value: Int8, forKey key: Key) throws { write(key) { encoder.writer.appendInteger(value) } }
  func encode(_ value: Int16, forKey key: Key) throws { write(key) { encoder.writer.appendInteger(value) } }
  func encode(_ value: Int32, forKey key: Key) throws { write(key) { encoder.writer.appendInteger(value) } }
  func encode(_ value: Int64, forKey key: Key) throws { write(key) { encoder.writer.appendInteger(value) } }
  func encode(_ value: UInt, forKey key: Key) throws { write(key) { encoder.writer.appendInteger(value) } }
  func encode(_ value: UInt8, forKey key: Key) throws { write(key) { encoder.writer.appendInteger(value) } }
  func encode(_ value: UInt16, forKey key: Key) throws { write(key) { encoder.writer.appendInteger(value) } }
  func encode(_ value: UInt32, forKey key: Key) throws { write(key) { encoder.writer.appendInteger(value) } }
  func encode(_ value: UInt64, forKey key: Key) throws { write(key) { encoder.writer.appendInteger(value) } }
  func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    try write(key) { try encoder.encodeValue(value, key: key) }
  }

  func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    encoder.beginMember(key.stringValue, level: level)
    return encoder.child(level: level, key: key).container(keyedBy: keyType)
  }

  func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    encoder.beginMember(key.stringValue, level: level)
    return encoder.child(level: level, key: key).unkeyedContainer()
  }

  func superEncoder() -> any Encoder {
    encoder.beginMember(JSONCodingKey.superKey.stringValue, level: level)
    return encoder.child(level: level, key: JSONCodingKey.superKey)
  }

  func superEncoder(forKey key: Key) -> any Encoder {
    encoder.beginMember(key.stringValue, level: level)
    return encoder.child(level: level, key: key)
  }
}
