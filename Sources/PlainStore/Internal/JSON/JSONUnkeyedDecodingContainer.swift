import Foundation

/// An array's values, read in order.
struct JSONUnkeyedDecodingContainer: UnkeyedDecodingContainer {
  let decoder: JSONDecoding
  let base: JSONDecoding.Base
  let count: Int?
  private(set) var currentIndex = 0
  /// The node of the value at `currentIndex`.
  private var position: Int

  init(decoder: JSONDecoding, array: Int, base: JSONDecoding.Base) throws {
    let node = decoder.document.nodes[array]
    guard node.kind == .array else {
      if node.kind == .null {
        throw DecodingError.valueNotFound(
          [Any].self,
          .init(codingPath: decoder.codingPath(base), debugDescription: "Cannot get unkeyed decoding container -- found null value instead"))
      }
      throw DecodingError.typeMismatch(
        [Any].self,
        .init(codingPath: decoder.codingPath(base), debugDescription: "Expected to decode an array but found another value instead."))
    }
    self.decoder = decoder
    self.base = base
    self.count = Int(node.count)
    self.position = array + 1
  }

  var codingPath: [any CodingKey] { decoder.codingPath(base) }
  var isAtEnd: Bool { currentIndex >= count! }

  private var key: JSONCodingKey { JSONCodingKey(index: currentIndex) }

  /// The next value's node; the container moves past it only once it decoded.
  private func next(_ type: Any.Type) throws -> Int {
    guard !isAtEnd else {
      throw DecodingError.valueNotFound(
        type,
        .init(codingPath: decoder.codingPath(base, key), debugDescription: "Unkeyed container is at end."))
    }
    return position
  }

  private mutating func advance() {
    position = decoder.document.next(position)
    currentIndex += 1
  }

  mutating func decodeNil() throws -> Bool {
    guard decoder.isNull(try next(Never.self)) else { return false }
    advance()
    return true
  }

  /// Reads the next value with `body(decoder, node, base, key)` and moves past it.
  private mutating func read<T>(
    _ type: T.Type, _ body: (JSONDecoding, Int, JSONDecoding.Base, JSONCodingKey) throws -> T
  ) throws -> T {
    let value = try body(decoder, next(type), base, key)
    advance()
    return value
  }

  mutating func decode(_ type: Bool.Type) throws -> Bool { try read(type) { try $0.bool($1, $2, $3) } }
  mutating func decode(_ type: String.Type) throws -> String { try read(type) { try $0.string($1, $2, $3) } }
  mutating func decode(_ type: Double.Type) throws -> Double { try read(type) { try $0.double($1, $2, $3) } }
  mutating func decode(_ type: Float.Type) throws -> Float { try read(type) { try $0.float($1, $2, $3) } }
  mutating func decode(_ type: Int.Type) throws -> Int { try read(type) { try $0.integer($1, type, $2, $3) } }
  mutating func decode(_ type: Int8.Type) throws -> Int8 { try read(type) { try $0.integer($1, type, $2, $3) } }
  mutating func decode(_ type: Int16.Type) throws -> Int16 { try read(type) { try $0.integer($1, type, $2, $3) } }
  mutating func decode(_ type: Int32.Type) throws -> Int32 { try read(type) { try $0.integer($1, type, $2, $3) } }
  mutating func decode(_ type: Int64.Type) throws -> Int64 { try read(type) { try $0.integer($1, type, $2, $3) } }
  mutating func decode(_ type: UInt.Type) throws -> UInt { try read(type) { try $0.integer($1, type, $2, $3) } }
  mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try read(type) { try $0.integer($1, type, $2, $3) } }
  mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try read(type) { try $0.integer($1, type, $2, $3) } }
  mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try read(type) { try $0.integer($1, type, $2, $3) } }
  mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try read(type) { try $0.integer($1, type, $2, $3) } }
  mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
    try read(type) { try $0.unbox(type, at: $1, base: $2, key: $3) }
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
    try read(KeyedDecodingContainer<NestedKey>.self) { decoder, node, base, key in
      try KeyedDecodingContainer(
        JSONKeyedDecodingContainer<NestedKey>(decoder: decoder, object: node, base: .own(decoder.codingPath(base, key))))
    }
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    try read((any UnkeyedDecodingContainer).self) { decoder, node, base, key in
      try JSONUnkeyedDecodingContainer(decoder: decoder, array: node, base: .own(decoder.codingPath(base, key)))
    }
  }

  mutating func superDecoder() throws -> any Decoder {
    try read((any Decoder).self) { decoder, node, base, key in
      JSONDecoding(document: decoder.document, userInfo: decoder.userInfo, node: node, path: decoder.codingPath(base, key))
    }
  }
}
