/// The package's one digit writer and reader: decimal and lowercase hex, zero-padded to a
/// width, for ISO 8601 times, change-file and segment names, record headers, change stamps, the
/// JSON writer and device ids. Everything is written through `write`, into bytes being built
/// (``_OutputBytes``), never through a String's interpolation, and read back through `value`:
/// a commit names its change file, stamps its records and writes its dates with these.
package enum Digits {
  /// How many digits `magnitude` takes in `radix` (at least one).
  @inline(__always) static func count(_ magnitude: UInt64, radix: UInt64) -> Int {
    var count = 1
    var rest = magnitude / radix
    while rest > 0 {
      count += 1
      rest /= radix
    }
    return count
  }

  /// Writes `magnitude`'s digits in `radix` (10 or 16, lowercase) at `offset`, right-aligned
  /// in `width` with zeros, or in as many places as they need; returns how many it wrote. The
  /// caller has room for `max(width, count(magnitude, radix))` bytes.
  @inline(__always) @discardableResult
  static func write(_ magnitude: UInt64, radix: UInt64 = 10, width: Int, to out: _OutputBytes, at offset: Int = 0) -> Int {
    let total = max(width, count(magnitude, radix: radix))
    var rest = magnitude
    for index in (0..<total).reversed() {
      let digit = UInt8(truncatingIfNeeded: rest % radix)
      out[offset + index] = digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10
      rest /= radix
    }
    return total
  }

  /// The value of exactly `width` digits in `radix` (10, or 16 in lowercase: what `write`
  /// writes); nil for any other byte or length. Read from the bytes, digit by digit: record
  /// headers and change stamps are read by the hundred at every settle and catch-up. At most 16
  /// hex or 19 decimal digits, so that the value never overflows.
  @inline(__always) static func value(_ digits: some Collection<UInt8>, radix: UInt64 = 10, width: Int) -> UInt64? {
    guard digits.count == width, width <= (radix == 16 ? 16 : 19) else { return nil }
    var value: UInt64 = 0
    for byte in digits {
      let digit: UInt8
      if byte &- UInt8(ascii: "0") < 10 {
        digit = byte &- UInt8(ascii: "0")
      } else if radix == 16, byte &- UInt8(ascii: "a") < 6 {
        digit = byte &- UInt8(ascii: "a") + 10
      } else {
        return nil
      }
      value = value &* radix &+ UInt64(digit)
    }
    return value
  }

  /// `7` → `07`, `-3` → `-03`, `2026` (width 4) → `2026`.
  package static func decimal(_ value: Int, width: Int = 1) -> String {
    let sign = value < 0 ? 1 : 0
    let magnitude = UInt64(value.magnitude)
    return _OutputBytes.string(capacity: sign + max(width, count(magnitude, radix: 10))) { out in
      if sign == 1 { out[0] = UInt8(ascii: "-") }
      return sign + write(magnitude, width: width, to: out, at: sign)
    }
  }

  /// Sixteen lowercase hex digits, zero-padded: the fixed-width form of device ids, clock
  /// stamps and checksums in file names and files.
  package static func hex16(_ value: UInt64) -> String {
    _OutputBytes.string(capacity: 16) { write(value, radix: 16, width: 16, to: $0) }
  }

  /// `hex16`'s digits appended to bytes being built (a record's header).
  static func appendHex16(_ value: UInt64, to bytes: inout [UInt8]) {
    _OutputBytes.append(16, to: &bytes) { write(value, radix: 16, width: 16, to: $0) }
  }

  /// The value `hex16` wrote: exactly sixteen lowercase hex digits; nil for anything else.
  static func hex16Value(_ digits: some Collection<UInt8>) -> UInt64? {
    value(digits, radix: 16, width: 16)
  }

  static func isLowerHex(_ byte: UInt8) -> Bool {
    byte &- UInt8(ascii: "0") < 10 || byte &- UInt8(ascii: "a") < 6
  }
}
