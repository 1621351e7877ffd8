import Foundation

/// A parsed JSON document: its bytes and its nodes, read in place. Valid only inside the
/// `reading` call that lends it.
struct JSONDocument {
  let bytes: UnsafeBufferPointer<UInt8>
  let nodes: UnsafeBufferPointer<JSONNode>

  /// Parses `data` and lends its document to `body`: the one scope a document lives in, for
  /// the decoder and the readers that walk a document of a known shape.
  ///
  /// - Throws: `failed(syntax)` when `data` is not JSON; whatever `body` throws.
  static func reading<R>(_ data: Data, failed: (JSONParser.SyntaxError) -> any Error, _ body: (JSONDocument) throws -> R) throws -> R {
    try data.withUnsafeBytes { raw in
      let bytes = raw.bindMemory(to: UInt8.self)
      let nodes: [JSONNode]
      do throws(JSONParser.SyntaxError) {
        nodes = try JSONParser.parse(bytes)
      } catch {
        throw failed(error)
      }
      return try nodes.withUnsafeBufferPointer { try body(JSONDocument(bytes: bytes, nodes: $0)) }
    }
  }

  /// The index of the node after the value at `index`, its contents included.
  @inline(__always) func next(_ index: Int) -> Int { Int(nodes[index].end) }

  func slice(_ node: JSONNode) -> UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(rebasing: bytes[Int(node.start)..<Int(node.start) + Int(node.count)])
  }

  /// The text of a string node.
  func string(_ node: JSONNode) -> String {
    let raw = slice(node)
    guard node.flag else { return String(decoding: raw, as: UTF8.self) }
    return String(decoding: Self.unescape(raw), as: UTF8.self)
  }

  /// Calls `body` with the key and value nodes of each member of the object at `index`, in
  /// document order; false when the node is not an object. For readers that walk a document
  /// of a known shape without Codable's containers (`LogRecordReader`).
  func forEachMember(of index: Int, _ body: (_ key: Int, _ value: Int) throws -> Void) rethrows -> Bool {
    guard nodes[index].kind == .object else { return false }
    var key = index + 1
    for _ in 0..<nodes[index].count {
      try body(key, key + 1)
      key = next(key + 1)
    }
    return true
  }

  /// Whether the string node at `index` is `key`, compared as UTF-8 without building a String.
  func keyEquals(_ index: Int, _ key: String) -> Bool {
    let node = nodes[index]
    if node.flag { return string(node) == key }
    // Most keys a scan passes differ in length: told apart without touching the bytes.
    guard key.utf8.count == Int(node.count) else { return false }
    let raw = slice(node)
    if let equal = key.utf8.withContiguousStorageIfAvailable({ utf8 in
      utf8.count == raw.count && (raw.count == 0 || memcmp(utf8.baseAddress!, raw.baseAddress!, raw.count) == 0)
    }) {
      return equal
    }
    return key.utf8.elementsEqual(raw)
  }

  /// The bytes a JSON string's contents stand for. The parser has checked the escapes.
  static func unescape(_ raw: UnsafeBufferPointer<UInt8>) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(raw.count)
    var index = 0
    while index < raw.count {
      let byte = raw[index]
      guard byte == UInt8(ascii: "\\") else {
        out.append(byte)
        index += 1
        continue
      }
      let code = raw[index + 1]
      index += 2
      switch code {
      case UInt8(ascii: "b"): out.append(0x08)
      case UInt8(ascii: "f"): out.append(0x0C)
      case UInt8(ascii: "n"): out.append(0x0A)
      case UInt8(ascii: "r"): out.append(0x0D)
      case UInt8(ascii: "t"): out.append(0x09)
      case UInt8(ascii: "u"):
        var scalar = UInt32(hexUnit(raw, index))
        index += 4
        if scalar >= 0xD800 && scalar < 0xDC00 {
          let low = UInt32(hexUnit(raw, index + 2))
          index += 6
          scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        }
        out.append(contentsOf: String(Unicode.Scalar(scalar)!).utf8)
      default: out.append(code)  // " \ /
      }
    }
    return out
  }

  private static func hexUnit(_ raw: UnsafeBufferPointer<UInt8>, _ index: Int) -> UInt16 {
    var unit: UInt16 = 0
    for offset in 0..<4 { unit = unit << 4 | UInt16(JSONParser.hexValue(raw[index + offset]) ?? 0) }
    return unit
  }

  // MARK: Numbers

  /// A number node as a Double; nil when it is too large for one.
  func double(_ node: JSONNode) -> Double? {
    let raw = slice(node)
    if !node.flag, raw.count <= 15 {
      // An integer of at most 15 digits is exact in a Double; "-0" is negative zero.
      return integer(raw).map { $0 == 0 && raw[0] == UInt8(ascii: "-") ? -0.0 : Double($0) }
    }
    if let fast = Self.fastDouble(raw) { return fast }
    let value = Double(String(decoding: raw, as: UTF8.self))
    guard let value, value.isFinite else { return nil }
    return value
  }

  /// A number node without fraction or exponent as an Int; nil when it does not fit.
  func integer(_ raw: UnsafeBufferPointer<UInt8>) -> Int? {
    var index = 0
    let negative = raw[0] == UInt8(ascii: "-")
    if negative { index = 1 }
    var magnitude: UInt64 = 0
    while index < raw.count {
      let (times, o1) = magnitude.multipliedReportingOverflow(by: 10)
      let (sum, o2) = times.addingReportingOverflow(UInt64(raw[index] &- UInt8(ascii: "0")))
      if o1 || o2 { return nil }
      magnitude = sum
      index += 1
    }
    if negative {
      guard magnitude <= UInt64(Int.max) + 1 else { return nil }
      return magnitude == UInt64(Int.max) + 1 ? Int.min : -Int(magnitude)
    }
    guard magnitude <= UInt64(Int.max) else { return nil }
    return Int(magnitude)
  }

  /// A number node without fraction or exponent as a UInt64; nil when negative or too large.
  func unsigned(_ raw: UnsafeBufferPointer<UInt8>) -> UInt64? {
    guard raw[0] != UInt8(ascii: "-") else { return raw.count == 2 && raw[1] == UInt8(ascii: "0") ? 0 : nil }
    var magnitude: UInt64 = 0
    for byte in raw {
      let (times, o1) = magnitude.multipliedReportingOverflow(by: 10)
      let (sum, o2) = times.addingReportingOverflow(UInt64(byte &- UInt8(ascii: "0")))
      if o1 || o2 { return nil }
      magnitude = sum
    }
    return magnitude
  }

  private static let powersOfTen: [Double] = (0...22).map { exponent in
    var value = 1.0
    for _ in 0..<exponent { value *= 10 }
    return value
  }

  /// Clinger's fast path: a decimal with at most 15 significant digits and a power of ten up
  /// to 22 is one exact multiplication or division, so it rounds like strtod. nil otherwise.
  private static func fastDouble(_ raw: UnsafeBufferPointer<UInt8>) -> Double? {
    var index = 0
    let negative = raw[0] == UInt8(ascii: "-")
    if negative { index = 1 }
    var mantissa: UInt64 = 0
    var digits = 0
    var exponent = 0
    while index < raw.count, raw[index] &- UInt8(ascii: "0") < 10 {
      if mantissa != 0 || raw[index] != UInt8(ascii: "0") { digits += 1 }
      mantissa = mantissa &* 10 &+ UInt64(raw[index] &- UInt8(ascii: "0"))
      index += 1
    }
    if index < raw.count, raw[index] == UInt8(ascii: ".") {
      index += 1
      while index < raw.count, raw[index] &- UInt8(ascii: "0") < 10 {
        if mantissa != 0 || raw[index] != UInt8(ascii: "0") { digits += 1 }
        mantissa = mantissa &* 10 &+ UInt64(raw[index] &- UInt8(ascii: "0"))
        exponent -= 1
        index += 1
      }
    }
    if index < raw.count {  // e or E
      index += 1
      var exponentNegative = false
      if raw[index] == UInt8(ascii: "-") || raw[index] == UInt8(ascii: "+") {
        exponentNegative = raw[index] == UInt8(ascii: "-")
        index += 1
      }
      var written = 0
      while index < raw.count {
        written = written * 10 + Int(raw[index] &- UInt8(ascii: "0"))
        if written > 1000 { return nil }
        index += 1
      }
      exponent += exponentNegative ? -written : written
    }
    guard digits <= 15 else { return nil }
    var value = Double(mantissa)
    if mantissa == 0 {
      value = 0
    } else if exponent < 0 {
      guard exponent >= -22 else { return nil }
      value /= powersOfTen[-exponent]
    } else if exponent > 0 {
      guard exponent <= 22 else { return nil }
      value *= powersOfTen[exponent]
    }
    return negative ? -value : value
  }
}
