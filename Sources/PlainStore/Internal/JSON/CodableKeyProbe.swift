import Foundation

/// A decoder that makes up a value of any Codable type whose every leaf holds a value no other
/// leaf holds: leaves are numbered in the order the type decodes them, and leaf n holds n in
/// its type (a string, a number, a date n days on, a UUID ending in n). A leaf of two values
/// holds bit `bit` of n: a Bool, or the first or second case of a `CaseIterable` enum. Every
/// key is present and holds a value (an optional is never nil); an array holds one element.
/// See ``CodableKeyNames``.
final class CodableKeyProbe: Decoder {
  let bit: Int
  /// How many leaves were decoded so far: the number the next one holds.
  private(set) var leaves = 0
  let codingPath: [CodingKey] = []
  let userInfo: [CodingUserInfoKey: Any] = [:]

  init(bit: Int) { self.bit = bit }

  func decode<T: Decodable>(_ type: T.Type) throws -> T {
    if let leaf = try leaf(type) { return leaf }
    return try T(from: self)
  }

  /// The next leaf, when `T` is one; nil for a type that decodes its own parts.
  private func leaf<T>(_ type: T.Type) throws -> T? {
    let any: Any
    switch type {
    case is Bool.Type: any = nextBit()
    case is String.Type: any = "probe \(next())"
    case is Double.Type: any = Double(next()) + 0.5
    case is Float.Type: any = Float(next()) + 0.5
    case is Date.Type: any = Date(timeIntervalSince1970: 1_000_000_000 + Double(next()) * 86_400)
    case is UUID.Type: any = UUID(uuidString: "00000000-0000-4000-8000-" + Digits.decimal(next(), width: 12))!
    case is Data.Type: any = Data("probe \(next())".utf8)
    case is URL.Type: any = URL(string: "probe:\(next())")!
    case is Decimal.Type: any = Decimal(next()) + Decimal(string: "0.5")!
    case let integer as any FixedWidthInteger.Type: any = integer.init(truncatingIfNeeded: next())
    case let cases as any CaseIterable.Type: any = try Self.pick(cases, bit: nextBit())
    default: return nil
    }
    return any as? T
  }

  private func next() -> Int {
    defer { leaves += 1 }
    return leaves
  }

  private func nextBit() -> Bool { (next() >> bit) & 1 == 1 }

  private static func pick<C: CaseIterable>(_ type: C.Type, bit: Bool) throws -> C {
    let cases = Array(type.allCases)
    guard !cases.isEmpty else {
      throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: [], debugDescription: "\(C.self) has no case"))
    }
    return cases[bit && cases.count > 1 ? 1 : 0]
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    KeyedDecodingContainer(Keyed(probe: self))
  }

  func unkeyedContainer() throws -> UnkeyedDecodingContainer { Unkeyed(probe: self) }

  func singleValueContainer() throws -> SingleValueDecodingContainer { Single(probe: self) }

  private struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let probe: CodableKeyProbe
    var codingPath: [CodingKey] { [] }
    var allKeys: [Key] { [] }
    func contains(_ key: Key) -> Bool { true }
    func decodeNil(forKey key: Key) throws -> Bool { false }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try probe.decode(type) }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try probe.decode(type) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try probe.decode(type) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try probe.decode(type) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try probe.decode(type) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try probe.decode(type) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try probe.decode(type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try probe.decode(type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try probe.decode(type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try probe.decode(type) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try probe.decode(type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try probe.decode(type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try probe.decode(type) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try probe.decode(type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try probe.decode(type) }
    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
      try probe.container(keyedBy: type)
    }
    func nestedUnkeyedContainer(forKey key: Key) throws -> UnkeyedDecodingContainer { try probe.unkeyedContainer() }
    func superDecoder() throws -> Decoder { probe }
    func superDecoder(forKey key: Key) throws -> Decoder { probe }
  }

  private struct Unkeyed: UnkeyedDecodingContainer {
    let probe: CodableKeyProbe
    var codingPath: [CodingKey] { [] }
    var count: Int? { 1 }
    var currentIndex = 0
    var isAtEnd: Bool { currentIndex >= 1 }

    init(probe: CodableKeyProbe) { self.probe = probe }

    mutating func decodeNil() throws -> Bool { false }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try decode(type, generic: ()) }
    mutating func decode(_ type: Bool.Type) throws -> Bool { try decode(type as Bool.Type, generic: ()) }
    mutating func decode(_ type: String.Type) throws -> String { try decode(type as String.Type, generic: ()) }
    mutating func decode(_ type: Double.Type) throws -> Double { try decode(type as Double.Type, generic: ()) }
    mutating func decode(_ type: Float.Type) throws -> Float { try decode(type as Float.Type, generic: ()) }
    mutating func decode(_ type: Int.Type) throws -> Int { try decode(type as Int.Type, generic: ()) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try decode(type as Int8.Type, generic: ()) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try decode(type as Int16.Type, generic: ()) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try decode(type as Int32.Type, generic: ()) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try decode(type as Int64.Type, generic: ()) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try decode(type as UInt.Type, generic: ()) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try decode(type as UInt8.Type, generic: ()) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try decode(type as UInt16.Type, generic: ()) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try decode(type as UInt32.Type, generic: ()) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try decode(type as UInt64.Type, generic: ()) }
    private mutating func decode<T: Decodable>(_ type: T.Type, generic: Void) throws -> T {
      currentIndex += 1
      return try probe.decode(type)
    }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
      currentIndex += 1
      return try probe.container(keyedBy: type)
    }
    mutating func nestedUnkeyedContainer() throws -> UnkeyedDecodingContainer {
      currentIndex += 1
      return try probe.unkeyedContainer()
    }
    mutating func superDecoder() throws -> Decoder { probe }
  }

  private struct Single: SingleValueDecodingContainer {
    let probe: CodableKeyProbe
    var codingPath: [CodingKey] { [] }
    func decodeNil() -> Bool { false }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try probe.decode(type) }
    func decode(_ type: Bool.Type) throws -> Bool { try probe.decode(type) }
    func decode(_ type: String.Type) throws -> String { try probe.decode(type) }
    func decode(_ type: Double.Type) throws -> Double { try probe.decode(type) }
    func decode(_ type: Float.Type) throws -> Float { try probe.decode(type) }
    func decode(_ type: Int.Type) throws -> Int { try probe.decode(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try probe.decode(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try probe.decode(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try probe.decode(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try probe.decode(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try probe.decode(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try probe.decode(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try probe.decode(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try probe.decode(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try probe.decode(type) }
  }
}
