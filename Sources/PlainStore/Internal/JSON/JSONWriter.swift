import Foundation

/// A growable byte buffer with the JSON forms of strings and numbers that Foundation's
/// JSONEncoder writes with `.withoutEscapingSlashes`.
final class JSONWriter {
  private(set) var base: UnsafeMutablePointer<UInt8>
  private(set) var capacity: Int
  /// Bytes written so far; lowering it drops the bytes after it.
  var count = 0

  init(capacity: Int = 256) {
    self.capacity = capacity
    base = .allocate(capacity: capacity)
  }

  deinit { base.deallocate() }

  var data: Data { Data(bytes: base, count: count) }

  /// The bytes written, handed over without a copy; the writer starts again empty.
  func takeData() -> Data {
    let data =
      count == 0
      ? Data()
      : Data(bytesNoCopy: base, count: count, deallocator: .custom { pointer, _ in pointer.deallocate() })
    if count == 0 { base.deallocate() }
    capacity = 256
    base = .allocate(capacity: capacity)
    count = 0
    return data
  }

  /// Fills the first `size` bytes, left for a header, with `header` of the bytes after them,
  /// which must be `size` bytes long.
  func fillHeader(_ size: Int, _ header: (_ByteView) -> [UInt8]) {
    let bytes = header(_ByteView(UnsafeBufferPointer(start: base + size, count: count - size)))
    precondition(bytes.count == size, "a frame's header is \(bytes.count) bytes, not \(size)")
    bytes.withUnsafeBufferPointer { base.update(from: $0.baseAddress!, count: size) }
  }

  @inline(__always) func reserve(_ extra: Int) {
    if count + extra > capacity { grow(count + extra) }
  }

  private func grow(_ needed: Int) {
    var newCapacity = capacity * 2
    while newCapacity < needed { newCapacity *= 2 }
    let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
    newBase.update(from: base, count: count)
    base.deallocate()
    base = newBase
    capacity = newCapacity
  }

  @inline(__always) func append(_ byte: UInt8) {
    reserve(1)
    base[count] = byte
    count += 1
  }

  func append(_ bytes: UnsafeRawBufferPointer) {
    guard !bytes.isEmpty else { return }
    reserve(bytes.count)
    UnsafeMutableRawPointer(base + count).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
    count += bytes.count
  }

  func append(_ text: StaticString) {
    append(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }

  /// The bytes from `start` to the end, copied: for reordering what was written.
  func copy(from start: Int) -> [UInt8] {
    Array(UnsafeBufferPointer(start: base + start, count: count - start))
  }

  // MARK: Strings

  /// `text` in quotes, escaping `"`, `\` and control characters as Foundation does. Returns
  /// whether anything was escaped.
  @discardableResult
  func appendString(_ text: String) -> Bool {
    var text = text
    return text.withUTF8 { appendString(UnsafeRawBufferPointer($0)) }
  }

  @discardableResult
  func appendString(_ utf8: UnsafeRawBufferPointer) -> Bool {
    reserve(utf8.count + 2)
    if !JSONSpecialBytes.occur(in: utf8) {
      // Nothing to escape, as almost always: copied whole, `count` touched once.
      let out = base + count
      out.pointee = UInt8(ascii: "\"")
      if let source = utf8.baseAddress { UnsafeMutableRawPointer(out + 1).copyMemory(from: source, byteCount: utf8.count) }
      out[utf8.count + 1] = UInt8(ascii: "\"")
      count += utf8.count + 2
      return false
    }
    base[count] = UInt8(ascii: "\"")
    count += 1
    var escaped = false
    var runStart = 0
    for index in 0..<utf8.count {
      let byte = utf8[index]
      guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
      escaped = true
      append(UnsafeRawBufferPointer(rebasing: utf8[runStart..<index]))
      runStart = index + 1
      switch byte {
      case UInt8(ascii: "\""): append("\\\"")
      case UInt8(ascii: "\\"): append("\\\\")
      case 0x0A: append("\\n")
      case 0x0D: append("\\r")
      case 0x09: append("\\t")
      case 0x08: append("\\b")
      case 0x0C: append("\\f")
      default:
        append("\\u")
        reserve(4)
        count += Digits.write(UInt64(byte), radix: 16, width: 4, to: _OutputBytes(base + count))
      }
    }
    append(UnsafeRawBufferPointer(rebasing: utf8[runStart..<utf8.count]))
    append(UInt8(ascii: "\""))
    return escaped
  }

  // MARK: Numbers

  func appendInteger<I: BinaryInteger>(_ value: I) {
    if let small = Int(exactly: value) {
      appendInt(small)
    } else {
      appendASCII(String(value))
    }
  }

  func appendInt(_ value: Int) {
    reserve(20)
    if value < 0 {
      base[count] = UInt8(ascii: "-")
      count += 1
    }
    count += Digits.write(UInt64(value.magnitude), width: 1, to: _OutputBytes(base + count))
  }

  /// Foundation's form of a finite Double: Swift's shortest round-trip text without a
  /// trailing ".0" (120 → `120`, 4.5 → `4.5`, 1e21 → `1e+21`).
  func appendDouble(_ value: Double) {
    // Swift writes integral values below 1e16 in plain digits: print those without a String.
    if value == value.rounded(.towardZero), abs(value) < 1e16 {
      if value == 0 && value.sign == .minus {
        append("-0")
      } else {
        appendInt(Int(value))
      }
      return
    }
    appendASCII(value.description)
  }

  func appendFloat(_ value: Float) { appendASCII(value.description) }

  /// A number's text, without a trailing ".0".
  private func appendASCII(_ text: String) {
    var text = text
    if text.hasSuffix(".0") { text.removeLast(2) }
    text.withUTF8 { append(UnsafeRawBufferPointer($0)) }
  }

  // MARK: Store values

  /// `"E621E1F8-C36C-495A-93FC-0C247A3E6E5F"`: `uuidString`, without building it. Written
  /// through a local pointer and counted once, rather than through this object's `base` and
  /// `count` at every byte (forty reads and writes of the object for one UUID).
  func appendUUID(_ uuid: UUID) {
    reserve(38)
    base[count] = UInt8(ascii: "\"")
    Self.writeUUID(uuid, to: _OutputBytes(base + count + 1))
    base[count + 37] = UInt8(ascii: "\"")
    count += 38
  }

  /// `uuidString`, from the digits `appendUUID` writes with: Foundation's formats each byte
  /// through `snprintf`, and a manifest's recent writes name hundreds of ids by their text.
  static func uuidString(_ uuid: UUID) -> String {
    _OutputBytes.string(capacity: 36) { out in
      writeUUID(uuid, to: out)
      return 36
    }
  }

  /// The 36 bytes of `uuidString`; each byte's two digits come from one table lookup.
  private static func writeUUID(_ uuid: UUID, to out: _OutputBytes) {
    let dash = UInt8(ascii: "-")
    (out[8], out[13], out[18], out[23]) = (dash, dash, dash, dash)
    byteDigits.withUnsafeBufferPointer { digits in
      withUnsafeBytes(of: uuid.uuid) { bytes in
        for index in 0..<16 {
          let pair = digits[Int(bytes[index])]
          let at = uuidDigitOffsets[index]
          out[at] = UInt8(truncatingIfNeeded: pair >> 8)
          out[at + 1] = UInt8(truncatingIfNeeded: pair)
        }
      }
    }
  }

  /// Where each byte's two digits go in `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`.
  private static let uuidDigitOffsets = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34]

  /// Each byte's two uppercase hex digits, the first in the high byte.
  private static let byteDigits: [UInt16] = (0..<256).map { byte in
    let digits = Array("0123456789ABCDEF".utf8)
    return UInt16(digits[byte >> 4]) << 8 | UInt16(digits[byte & 0xF])
  }

  /// `"2026-01-15T09:30:00Z"`: exactly `ISO8601.format(date)`, without building Strings for
  /// dates on whole seconds.
  func appendDate(_ date: Date) {
    guard ISO8601.isStorable(date) else {
      appendString(ISO8601.format(date))
      return
    }
    let interval = date.timeIntervalSinceReferenceDate
    let whole = interval.rounded(.down)
    reserve(22)
    base[count] = UInt8(ascii: "\"")
    ISO8601.writeCivil(unixSeconds: Int64(whole) + ISO8601.referenceOffset, to: _OutputBytes(base + count + 1))
    count += 20
    // As `ISO8601.format` writes a fraction (a commit's own time has one).
    let fraction = interval - whole
    if fraction > 0 {
      append(UInt8(ascii: "."))
      var digits = ISO8601.fractionDigits(fraction)
      digits.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }
    append("Z\"")
  }
}
