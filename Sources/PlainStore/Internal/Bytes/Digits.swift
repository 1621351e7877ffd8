/// The package's one digit writer: decimal and lowercase hex, zero-padded to a width, for
/// ISO 8601 times, change-file and segment names, record headers, the JSON writer and device
/// ids. Everything goes through `write`, into bytes being built, never through a String's
/// interpolation: a commit names its change file, stamps its records and writes its dates with
/// these.
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

  /// Writes `magnitude`'s digits in `radix` (10 or 16, lowercase) at `start`, right-aligned in
  /// `width` with zeros, or in as many places as they need; returns how many it wrote. The
  /// caller has room for `max(width, count(magnitude, radix))` bytes.
  @inline(__always) @discardableResult
  static func write(_ magnitude: UInt64, radix: UInt64 = 10, width: Int, at start: UnsafeMutablePointer<UInt8>) -> Int {
    let total = max(width, count(magnitude, radix: radix))
    var rest = magnitude
    for index in (0..<total).reversed() {
      let digit = UInt8(truncatingIfNeeded: rest % radix)
      start[index] = digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10
      rest /= radix
    }
    return total
  }

  /// `7` → `07`, `-3` → `-03`, `2026` (width 4) → `2026`.
  package static func decimal(_ value: Int, width: Int = 1) -> String {
    let sign = value < 0 ? 1 : 0
    let magnitude = UInt64(value.magnitude)
    return String(unsafeUninitializedCapacity: sign + max(width, count(magnitude, radix: 10))) { text in
      if sign == 1 { text[0] = UInt8(ascii: "-") }
      return sign + write(magnitude, width: width, at: text.baseAddress! + sign)
    }
  }

  /// Sixteen lowercase hex digits, zero-padded: the fixed-width form of device ids, clock
  /// stamps and checksums in file names and files.
  package static func hex16(_ value: UInt64) -> String {
    String(unsafeUninitializedCapacity: 16) { write(value, radix: 16, width: 16, at: $0.baseAddress!) }
  }

  /// `hex16`'s digits appended to bytes being built (a record's header).
  static func appendHex16(_ value: UInt64, to bytes: inout [UInt8]) {
    let start = bytes.count
    bytes.append(contentsOf: repeatElement(0, count: 16))
    bytes.withUnsafeMutableBufferPointer { _ = write(value, radix: 16, width: 16, at: $0.baseAddress! + start) }
  }

  /// The value `hex16` wrote: exactly sixteen lowercase hex digits; nil for anything else.
  /// From the bytes, digit by digit: record headers are read by the hundred at every settle and
  /// catch-up.
  static func hex16Value(_ digits: some Collection<UInt8>) -> UInt64? {
    guard digits.count == 16 else { return nil }
    var value: UInt64 = 0
    for digit in digits {
      guard isLowerHex(digit) else { return nil }
      value = value << 4 | UInt64(digit <= UInt8(ascii: "9") ? digit - UInt8(ascii: "0") : digit - UInt8(ascii: "a") + 10)
    }
    return value
  }

  static func isLowerHex(_ byte: UInt8) -> Bool {
    (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f"))
  }
}
