import Foundation

/// The `Decoder` that `StoreJSONDecoder` hands to `init(from:)`: one instance walks the whole
/// document, moving its current node and coding path as values nest (as Foundation's own
/// decoder does), so a nested value costs no allocation.
final class JSONDecoding: Decoder {
  let document: JSONDocument
  let userInfo: [CodingUserInfoKey: Any]
  /// The node being decoded.
  var node: Int
  /// The coding path of `node`.
  var path: [any CodingKey]

  var codingPath: [any CodingKey] { path }
  /// The members of large objects by key, built at their first lookup: a dictionary of many
  /// entries (the manifest's segments) read by scanning for each key would cost its size squared.
  private var memberTables: [Int: [String: Int]] = [:]
  /// Objects with more members than this are looked up through a member table.
  static let scanLimit = 16

  init(document: JSONDocument, userInfo: [CodingUserInfoKey: Any], node: Int = 0, path: [any CodingKey] = []) {
    self.document = document
    self.userInfo = userInfo
    self.node = node
    self.path = path
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    try KeyedDecodingContainer(JSONKeyedDecodingContainer<Key>(decoder: self, object: node, base: .at(path.count)))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    try JSONUnkeyedDecodingContainer(decoder: self, array: node, base: .at(path.count))
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    JSONSingleValueDecodingContainer(decoder: self, node: node, base: .at(path.count))
  }

  /// The value node of member `name` of the large object at `object`, or nil.
  func member(_ name: String, of object: Int) -> Int? {
    if let table = memberTables[object] { return table[name] }
    var table: [String: Int] = [:]
    table.reserveCapacity(Int(document.nodes[object].count))
    var child = object + 1
    for _ in 0..<document.nodes[object].count {
      table[document.string(document.nodes[child])] = child + 1
      child = document.next(child + 1)
    }
    memberTables[object] = table
    return table[name]
  }

  // MARK: Coding paths, built only for errors

  /// Where a container sits: a prefix of the decoder's path, or a path of its own for a nested
  /// container (which is not bracketed by a nested decode).
  enum Base {
    case at(Int)
    case own([any CodingKey])
  }

  func codingPath(_ base: Base) -> [any CodingKey] {
    switch base {
    case .at(let depth): return Array(path.prefix(depth))
    case .own(let path): return path
    }
  }

  func codingPath(_ base: Base, _ key: (any CodingKey)?) -> [any CodingKey] {
    var path = codingPath(base)
    if let key { path.append(key) }
    return path
  }

  // MARK: Values

  /// Decodes the node at `index`, which sits at `key` under `base` (nil: at `base` itself).
  func unbox<T: Decodable>(_ type: T.Type, at index: Int, base: Base, key: (any CodingKey)?) throws -> T {
    // The types read straight from the node: those with a fixed JSON form in store files, and
    // the common primitives that generic code (arrays, dictionaries) decodes through `unbox`.
    // Checked here and not in a function returning `T?`: this code runs unspecialized, and an
    // optional of a generic type costs a runtime metadata lookup on every value.
    if T.self == String.self { return unsafeBitCast(try string(index, base, key), to: T.self) }
    if T.self == Date.self { return unsafeBitCast(try date(index, base, key), to: T.self) }
    if T.self == UUID.self { return unsafeBitCast(try uuid(index, base, key), to: T.self) }
    if T.self == Double.self { return unsafeBitCast(try double(index, base, key), to: T.self) }
    if T.self == Int.self { return unsafeBitCast(try integer(index, Int.self, base, key), to: T.self) }
    if T.self == Bool.self { return unsafeBitCast(try bool(index, base, key), to: T.self) }
    if T.self == RawJSON.self { return unsafeBitCast(RawJSON(bytes: document.rawText(index)), to: T.self) }
    if T.self == [String: String].self, let strings = stringDictionary(index) { return unsafeBitCast(strings, to: T.self) }
    if T.self == [String: RawJSON].self, let members = rawDictionary(index) { return unsafeBitCast(members, to: T.self) }
    if T.self == URL.self {
      let text = try string(index, base, key)
      guard let url = URL(string: text) else {
        throw DecodingError.dataCorrupted(
          .init(codingPath: codingPath(base, key), debugDescription: "Invalid URL string."))
      }
      return url as! T
    }
    if T.self == Data.self {
      let text = try string(index, base, key)
      guard let data = Data(base64Encoded: text) else {
        throw DecodingError.dataCorrupted(
          .init(codingPath: codingPath(base, key), debugDescription: "Encountered Data is not valid Base64."))
      }
      return data as! T
    }
    let savedNode = node
    let savedPath: [any CodingKey]?
    switch base {
    case .at(let depth) where depth == path.count:
      savedPath = nil
      if let key { path.append(key) }
    default:
      savedPath = path
      path = codingPath(base, key)
    }
    node = index
    defer {
      node = savedNode
      if let savedPath { path = savedPath } else if key != nil { path.removeLast() }
    }
    return try T(from: self)
  }

  /// An object of strings (the segments' id filters, 170 KB at 100k objects) read from its
  /// nodes; nil when it is not one, for Codable's dictionary to refuse with its message.
  private func stringDictionary(_ index: Int) -> [String: String]? {
    var strings: [String: String] = [:]
    strings.reserveCapacity(Int(document.nodes[index].count))
    var valid = true
    let isObject = document.forEachMember(of: index) { key, value in
      let node = document.nodes[value]
      guard node.kind == .string else { return valid = false }
      strings[document.string(document.nodes[key])] = document.string(node)
    }
    return isObject && valid ? strings : nil
  }

  /// An object's members as their text: a change file's fields, read without a keyed
  /// container (its coding keys and a lookup per member were a sixth of a join's time).
  private func rawDictionary(_ index: Int) -> [String: RawJSON]? {
    var members: [String: RawJSON] = [:]
    members.reserveCapacity(Int(document.nodes[index].count))
    let isObject = document.forEachMember(of: index) { key, value in
      members[document.string(document.nodes[key])] = RawJSON(bytes: document.rawText(value))
    }
    return isObject ? members : nil
  }

  func isNull(_ index: Int) -> Bool { document.nodes[index].kind == .null }

  private func describe(_ kind: JSONNode.Kind) -> String {
    switch kind {
    case .null: return "null"
    case .true, .false: return "bool"
    case .number: return "number"
    case .string: return "a string"
    case .array: return "an array"
    case .object: return "a dictionary"
    }
  }

  /// The error for a node of the wrong kind: valueNotFound for null, typeMismatch otherwise.
  func mismatch(_ type: Any.Type, _ index: Int, _ base: Base, _ key: (any CodingKey)?) -> DecodingError {
    let kind = document.nodes[index].kind
    if kind == .null {
      return .valueNotFound(
        type,
        .init(codingPath: codingPath(base, key), debugDescription: "Cannot get value of type \(type) -- found null value instead"))
    }
    return .typeMismatch(
      type, .init(codingPath: codingPath(base, key), debugDescription: "Expected to decode \(type) but found \(describe(kind)) instead."))
  }

  func string(_ index: Int, _ base: Base, _ key: (any CodingKey)?) throws -> String {
    let node = document.nodes[index]
    guard node.kind == .string else { throw mismatch(String.self, index, base, key) }
    return document.string(node)
  }

  func bool(_ index: Int, _ base: Base, _ key: (any CodingKey)?) throws -> Bool {
    switch document.nodes[index].kind {
    case .true: return true
    case .false: return false
    default: throw mismatch(Bool.self, index, base, key)
    }
  }

  func double(_ index: Int, _ base: Base, _ key: (any CodingKey)?) throws -> Double {
    let node = document.nodes[index]
    guard node.kind == .number else { throw mismatch(Double.self, index, base, key) }
    guard let value = document.double(node), StorableValue.isStorable(value) else {
      throw outOfRange(Double.self, node, base, key)
    }
    return value
  }

  func float(_ index: Int, _ base: Base, _ key: (any CodingKey)?) throws -> Float {
    let node = document.nodes[index]
    let value = try double(index, base, key)
    guard abs(value) <= Double(Float.greatestFiniteMagnitude) else { throw outOfRange(Float.self, node, base, key) }
    return Float(value)
  }

  /// An integer of any width; an integral number with a fraction or exponent ("2.0", "1e3") is
  /// accepted as Foundation does.
  func integer<I: FixedWidthInteger>(_ index: Int, _ type: I.Type, _ base: Base, _ key: (any CodingKey)?) throws -> I {
    let node = document.nodes[index]
    guard node.kind == .number else { throw mismatch(type, index, base, key) }
    if !node.flag {
      let raw = document.slice(node)
      if I.isSigned {
        if let value = document.integer(raw), let exact = I(exactly: value) { return exact }
      } else if let value = document.unsigned(raw), let exact = I(exactly: value) {
        return exact
      }
    } else if let value = document.double(node), let exact = I(exactly: value) {
      return exact
    }
    throw outOfRange(type, node, base, key)
  }

  private func outOfRange(_ type: Any.Type, _ node: JSONNode, _ base: Base, _ key: (any CodingKey)?) -> DecodingError {
    let text = String(decoding: document.slice(node), as: UTF8.self)
    return .dataCorrupted(.init(codingPath: codingPath(base, key), debugDescription: "Number \(text) does not fit in \(type)."))
  }

  func date(_ index: Int, _ base: Base, _ key: (any CodingKey)?) throws -> Date {
    let node = document.nodes[index]
    if node.kind == .string, !node.flag, let date = JSONDateScanner.date(_ByteView(document.slice(node))),
      StorableValue.isStorable(date)
    {
      return date
    }
    let text = try string(index, base, key)
    guard let date = ISO8601.parse(text) else {
      throw DecodingError.dataCorrupted(
        .init(codingPath: codingPath(base, key), debugDescription: "'\(text)' is not an ISO 8601 date"))
    }
    // An offset can carry a four-digit year out of range (`0000-01-01T00:00:00+01:00`).
    guard StorableValue.isStorable(date) else {
      throw DecodingError.dataCorrupted(
        .init(codingPath: codingPath(base, key), debugDescription: "'\(text)': \(StorableValue.refusal(date))"))
    }
    return date
  }

  func uuid(_ index: Int, _ base: Base, _ key: (any CodingKey)?) throws -> UUID {
    let node = document.nodes[index]
    guard node.kind == .string else { throw mismatch(UUID.self, index, base, key) }
    guard !node.flag, let uuid = Self.parseUUID(document.slice(node)) else {
      throw DecodingError.dataCorrupted(
        .init(codingPath: codingPath(base, key), debugDescription: "Attempted to decode UUID from invalid UUID string."))
    }
    return uuid
  }

  /// `"E621E1F8-C36C-495A-93FC-0C247A3E6E5F"`, a JSON string without escapes. Foundation's
  /// `UUID(uuidString:)` would go through `sscanf` on Linux: 3 % of a join's time at 50k.
  static func parseUUID(quoted text: [UInt8]) -> UUID? {
    guard text.count == 38, text.first == UInt8(ascii: "\""), text.last == UInt8(ascii: "\"") else { return nil }
    return text.withUnsafeBufferPointer { parseUUID(UnsafeBufferPointer(rebasing: $0[1..<37])) }
  }

  /// `E621E1F8-C36C-495A-93FC-0C247A3E6E5F`, in either case.
  static func parseUUID(_ raw: UnsafeBufferPointer<UInt8>) -> UUID? {
    guard raw.count == 36, raw[8] == UInt8(ascii: "-"), raw[13] == UInt8(ascii: "-"), raw[18] == UInt8(ascii: "-"),
      raw[23] == UInt8(ascii: "-")
    else { return nil }
    // Each byte of the UUID from two hex digits at fixed places, through a table: no branch per
    // digit. A byte that is not a hex digit reads as 0xFF and sets the high bit of `invalid`.
    var bytes: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
      (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    var invalid: UInt8 = 0
    withUnsafeMutableBytes(of: &bytes) { out in
      for index in 0..<16 {
        let at = uuidDigitOffsets[index]
        let high = hexValues[Int(raw[at])]
        let low = hexValues[Int(raw[at + 1])]
        invalid |= high | low
        out[index] = high << 4 | (low & 0x0F)
      }
    }
    guard invalid & 0x80 == 0 else { return nil }
    return UUID(uuid: bytes)
  }

  /// Where the two hex digits of each byte of a UUID's text start.
  private static let uuidDigitOffsets: [Int] = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34]

  /// A hex digit's value by its byte (either case); 0xFF for any other byte.
  private static let hexValues: [UInt8] = (0...255).map { byte -> UInt8 in
    switch UInt8(byte) {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt8(byte) - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt8(byte) - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt8(byte) - UInt8(ascii: "A") + 10
    default: return 0xFF
    }
  }
}
