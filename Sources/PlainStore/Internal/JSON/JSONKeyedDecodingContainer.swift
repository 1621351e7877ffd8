import Foundation

/// An object's members, found by comparing key bytes in place: store objects have a handful of
/// keys, so a scan beats building a dictionary per object. A large object (a dictionary of many
/// entries) is looked up through a member table the decoder builds once.
struct JSONKeyedDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let decoder: JSONDecoding
  let object: Int
  let base: JSONDecoding.Base

  init(decoder: JSONDecoding, object: Int, base: JSONDecoding.Base) throws {
    let node = decoder.document.nodes[object]
    guard node.kind == .object else {
      if node.kind == .null {
        throw DecodingError.valueNotFound(
          [String: Any].self,
          .init(codingPath: decoder.codingPath(base), debugDescription: "Cannot get keyed decoding container -- found null value instead"))
      }
      throw DecodingError.typeMismatch(
        [String: Any].self,
        .init(codingPath: decoder.codingPath(base), debugDescription: "Expected to decode a dictionary but found another value instead."))
    }
    self.decoder = decoder
    self.object = object
    self.base = base
  }

  var codingPath: [any CodingKey] { decoder.codingPath(base) }

  var allKeys: [Key] {
    let document = decoder.document
    var keys: [Key] = []
    var child = object + 1
    for _ in 0..<document.nodes[object].count {
      if let key = Key(stringValue: document.string(document.nodes[child])) { keys.append(key) }
      child = document.next(child + 1)
    }
    return keys
  }

  /// The node of the value at `key`, or nil when the object does not have it.
  private func find(_ key: Key) -> Int? {
    let document = decoder.document
    let name = key.stringValue
    let count = document.nodes[object].count
    if Int(count) > JSONDecoding.scanLimit { return decoder.member(name, of: object) }
    var child = object + 1
    for _ in 0..<count {
      if document.keyEquals(child, name) { return child + 1 }
      child = document.next(child + 1)
    }
    return nil
  }

  private func value(_ key: Key) throws -> Int {
    guard let index = find(key) else {
      throw DecodingError.keyNotFound(
        key, .init(codingPath: codingPath, debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."))
    }
    return index
  }

  /// The node at `key` when it is there and not null.
  private func present(_ key: Key) -> Int? {
    guard let index = find(key), !decoder.isNull(index) else { return nil }
    return index
  }

  func contains(_ key: Key) -> Bool { find(key) != nil }

  func decodeNil(forKey key: Key) throws -> Bool { decoder.isNull(try value(key)) }

  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decoder.bool(value(key), base, key) }
  func decode(_ type: String.Type, forKey key: Key) throws -> String { try decoder.string(value(key), base, key) }
  func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decoder.double(value(key), base, key) }
  func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decoder.float(value(key), base, key) }
  func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decoder.integer(value(key), type, base, key) }
  func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decoder.integer(value(key), type, base, key) }
  func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decoder.integer(value(key), type, base, key) }
  func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decoder.integer(value(key), type, base, key) }
  func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decoder.integer(value(key), type, base, key) }
  func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decoder.integer(value(key), type, base, key) }
  func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decoder.integer(value(key), type, base, key) }
  func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decoder.integer(value(key), type, base, key) }
  func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decoder.integer(value(key), type, base, key) }
  func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decoder.integer(value(key), type, base, key) }
  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    try decoder.unbox(type, at: value(key), base: base, key: key)
  }

  // One lookup instead of the default's contains + decodeNil + decode.
  func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
    try present(key).map { try decoder.bool($0, base, key) }
  }
  func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
    try present(key).map { try decoder.string($0, base, key) }
  }
  func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
    try present(key).map { try decoder.double($0, base, key) }
  }
  func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
    try present(key).map { try decoder.float($0, base, key) }
  }
  func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
    try present(key).map { try decoder.integer($0, type, base, key) }
  }
  func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
    try present(key).map { try decoder.integer($0, type, base, key) }
  }
  func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
    try present(key).map { try decoder.integer($0, type, base, key) }
  }
  func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
    try present(key).map { try decoder.integer($0, type, base, key) }
  }
  func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
    try present(key).map { try decoder.integer($0, type, base, key) }
  }
  func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
    try present(key).map { try decoder.integer($0, type, base, key) }
  }
  func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
    try present(key).map { try decoder.integer($0, type, base, key) }
  }
  func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
    try present(key).map { try decoder.integer($0, type, base, key) }
  }
  func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
    try present(key).map { try decoder.integer($0, type, base, key) }
  }
  func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
    try present(key).map { try decoder.integer($0, type, base, key) }
  }
  func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
    guard let index = present(key) else { return nil }
    return try decoder.unbox(type, at: index, base: base, key: key)
  }

  func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type, forKey key: Key
  ) throws -> KeyedDecodingContainer<NestedKey> {
    let index = try value(key)
    return try KeyedDecodingContainer(
      JSONKeyedDecodingContainer<NestedKey>(decoder: decoder, object: index, base: .own(decoder.codingPath(base, key))))
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    let index = try value(key)
    return try JSONUnkeyedDecodingContainer(decoder: decoder, array: index, base: .own(decoder.codingPath(base, key)))
  }

  func superDecoder() throws -> any Decoder { try superDecoder(key: JSONCodingKey.superKey) }

  func superDecoder(forKey key: Key) throws -> any Decoder { try superDecoder(key: key) }

  /// A decoder of its own for the value at `key`.
  private func superDecoder(key: any CodingKey) throws -> any Decoder {
    let document = decoder.document
    var found: Int?
    var child = object + 1
    for _ in 0..<document.nodes[object].count {
      if document.keyEquals(child, key.stringValue) { found = child + 1 }
      child = document.next(child + 1)
    }
    guard let found else {
      throw DecodingError.keyNotFound(
        key, .init(codingPath: codingPath, debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."))
    }
    return JSONDecoding(document: document, userInfo: decoder.userInfo, node: found, path: decoder.codingPath(base, key))
  }
}
