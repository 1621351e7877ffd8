import Foundation

/// Reads a whole JSON document (RFC 8259, UTF-8) into `JSONNode`s, rejecting bad syntax,
/// truncation and anything after the value.
struct JSONParser {
  /// Why a document is not JSON, and at which byte.
  struct SyntaxError: Error, CustomStringConvertible {
    var offset: Int
    var reason: String
    var description: String { "\(reason) at byte \(offset)" }
  }

  private let bytes: UnsafeBufferPointer<UInt8>
  private var index = 0
  private(set) var nodes: [JSONNode] = []
  private static let maximumDepth = 512

  private init(bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
    nodes.reserveCapacity(max(16, bytes.count / 8))
  }

  /// The nodes of `bytes`; the first is the top-level value.
  static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(SyntaxError) -> [JSONNode] {
    guard bytes.count < Int(Int32.max) else { throw SyntaxError(offset: 0, reason: "document too large") }
    var parser = JSONParser(bytes: bytes)
    parser.skipWhitespace()
    try parser.parseValue(depth: 0)
    parser.skipWhitespace()
    guard parser.index == bytes.count else { throw parser.error("unexpected bytes after the value") }
    return parser.nodes
  }

  private func error(_ reason: String) -> SyntaxError {
    SyntaxError(offset: index, reason: index >= bytes.count ? "unexpected end of data" : reason)
  }

  private mutating func skipWhitespace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x0A, 0x0D, 0x09: index += 1
      default: return
      }
    }
  }

  private mutating func parseValue(depth: Int) throws(SyntaxError) {
    guard index < bytes.count else { throw error("expected a value") }
    switch bytes[index] {
    case UInt8(ascii: "{"): try parseObject(depth: depth + 1)
    case UInt8(ascii: "["): try parseArray(depth: depth + 1)
    case UInt8(ascii: "\""): try parseString()
    case UInt8(ascii: "t"): try parseLiteral("true", .true)
    case UInt8(ascii: "f"): try parseLiteral("false", .false)
    case UInt8(ascii: "n"): try parseLiteral("null", .null)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try parseNumber()
    default: throw error("expected a value")
    }
  }

  private mutating func append(_ kind: JSONNode.Kind, flag: Bool = false, start: Int = 0, count: Int = 0) {
    nodes.append(JSONNode(kind: kind, flag: flag, start: Int32(start), count: Int32(count), end: Int32(nodes.count + 1)))
  }

  private mutating func parseLiteral(_ text: StaticString, _ kind: JSONNode.Kind) throws(SyntaxError) {
    let length = text.utf8CodeUnitCount
    guard index + length <= bytes.count else { index = bytes.count; throw error("") }
    for offset in 0..<length where bytes[index + offset] != text.utf8Start[offset] {
      throw error("invalid literal")
    }
    index += length
    append(kind)
  }

  private mutating func parseObject(depth: Int) throws(SyntaxError) {
    guard depth <= Self.maximumDepth else { throw error("nested too deeply") }
    let slot = nodes.count
    append(.object)
    index += 1
    skipWhitespace()
    var count = 0
    // The nodes of the keys, to refuse a repeated one when the object is done.
    var keys: [Int32] = []
    if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
      index += 1
    } else {
      while true {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a key") }
        keys.append(Int32(nodes.count))
        try parseString()
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':'") }
        index += 1
        skipWhitespace()
        try parseValue(depth: depth)
        count += 1
        skipWhitespace()
        guard index < bytes.count else { throw error("") }
        if bytes[index] == UInt8(ascii: ",") {
          index += 1
          skipWhitespace()
        } else if bytes[index] == UInt8(ascii: "}") {
          index += 1
          break
        } else {
          throw error("expected ',' or '}'")
        }
      }
    }
    try refuseRepeatedKeys(keys)
    nodes[slot].count = Int32(count)
    nodes[slot].end = Int32(nodes.count)
  }

  /// An object that names a key twice is refused: readers disagree on which value wins
  /// (Foundation and this decoder took the first, jq and Python the last), so a file holding one
  /// is damaged, never read one way here and another way elsewhere.
  private func refuseRepeatedKeys(_ keys: [Int32]) throws(SyntaxError) {
    guard keys.count > 1, !keysAscend(keys) else { return }
    // Escaped keys are compared by the text they stand for (`"a"` and `"\u0061"` are one key).
    func text(_ key: Int32) -> [UInt8] {
      let node = nodes[Int(key)]
      let raw = UnsafeBufferPointer(rebasing: bytes[Int(node.start)..<Int(node.start) + Int(node.count)])
      return node.flag ? JSONDocument.unescape(raw) : Array(raw)
    }
    var seen = Set<[UInt8]>(minimumCapacity: keys.count)
    for key in keys where !seen.insert(text(key)).inserted {
      let name = String(decoding: text(key), as: UTF8.self)
      throw SyntaxError(offset: Int(nodes[Int(key)].start) - 1, reason: "duplicate key \"\(name)\" in an object")
    }
  }

  /// Whether the keys, none escaped, come in strictly ascending byte order, as every store file
  /// writes them: then no two are the same, which is known without a set of their texts (one
  /// allocation per key, a tenth of decoding a log record).
  private func keysAscend(_ keys: [Int32]) -> Bool {
    var previous = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
    for (position, key) in keys.enumerated() {
      let node = nodes[Int(key)]
      guard !node.flag else { return false }
      let text = UnsafeBufferPointer(rebasing: bytes[Int(node.start)..<Int(node.start) + Int(node.count)])
      if position > 0 {
        let common = min(previous.count, text.count)
        let order = common == 0 ? 0 : memcmp(previous.baseAddress!, text.baseAddress!, common)
        guard order < 0 || (order == 0 && previous.count < text.count) else { return false }
      }
      previous = text
    }
    return true
  }

  private mutating func parseArray(depth: Int) throws(SyntaxError) {
    guard depth <= Self.maximumDepth else { throw error("nested too deeply") }
    let slot = nodes.count
    append(.array)
    index += 1
    skipWhitespace()
    var count = 0
    if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
      index += 1
    } else {
      while true {
        try parseValue(depth: depth)
        count += 1
        skipWhitespace()
        guard index < bytes.count else { throw error("") }
        if bytes[index] == UInt8(ascii: ",") {
          index += 1
          skipWhitespace()
        } else if bytes[index] == UInt8(ascii: "]") {
          index += 1
          break
        } else {
          throw error("expected ',' or ']'")
        }
      }
    }
    nodes[slot].count = Int32(count)
    nodes[slot].end = Int32(nodes.count)
  }

  /// Checks a string's syntax (escapes included, so a bad one fails here rather than when the
  /// value is read) and records its bytes between the quotes.
  private mutating func parseString() throws(SyntaxError) {
    index += 1
    let start = index
    var escaped = false
    while true {
      // Plain text passed over a word at a time, to the next quote, backslash or control byte.
      guard let special = JSONSpecialBytes.firstIndex(in: UnsafeRawBufferPointer(bytes), from: index) else {
        index = bytes.count
        throw error("")
      }
      index = special
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") { break }
      if byte < 0x20 { throw error("unescaped control character in a string") }
      if byte == UInt8(ascii: "\\") {
        escaped = true
        index += 1
        guard index < bytes.count else { throw error("") }
        switch bytes[index] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
          UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
          index += 1
        case UInt8(ascii: "u"):
          index += 1
          let unit = try hexUnit()
          if unit >= 0xD800 && unit < 0xDC00 {
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
              throw error("unpaired surrogate in a \\u escape")
            }
            index += 2
            let low = try hexUnit()
            guard low >= 0xDC00 && low < 0xE000 else { throw error("unpaired surrogate in a \\u escape") }
          } else if unit >= 0xDC00 && unit < 0xE000 {
            throw error("unpaired surrogate in a \\u escape")
          }
        default:
          throw error("invalid escape")
        }
      }
    }
    append(.string, flag: escaped, start: start, count: index - start)
    index += 1
  }

  private mutating func hexUnit() throws(SyntaxError) -> UInt16 {
    guard index + 4 <= bytes.count else { index = bytes.count; throw error("") }
    var unit: UInt16 = 0
    for _ in 0..<4 {
      guard let digit = Self.hexValue(bytes[index]) else { throw error("invalid \\u escape") }
      unit = unit << 4 | UInt16(digit)
      index += 1
    }
    return unit
  }

  static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
    default: return nil
    }
  }

  private mutating func parseNumber() throws(SyntaxError) {
    let start = index
    var fractional = false
    if bytes[index] == UInt8(ascii: "-") { index += 1 }
    guard index < bytes.count else { throw error("") }
    if bytes[index] == UInt8(ascii: "0") {
      index += 1
    } else {
      guard try digits() > 0 else { throw error("invalid number") }
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      fractional = true
      guard try digits() > 0 else { throw error("invalid number") }
    }
    if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
      index += 1
      fractional = true
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
      guard try digits() > 0 else { throw error("invalid number") }
    }
    append(.number, flag: fractional, start: start, count: index - start)
  }

  private mutating func digits() throws(SyntaxError) -> Int {
    let start = index
    while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 { index += 1 }
    if index == start && index >= bytes.count { throw error("") }
    return index - start
  }
}
