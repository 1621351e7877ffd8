/// The name of one device's folder in `changes/`: 32 lowercase hex digits, random, minted once
/// per copy of a store and never reused, so no two devices ever write the same file name.
struct DeviceID: Hashable, Comparable, Sendable, CustomStringConvertible {
  let text: String

  /// nil unless `text` is exactly 32 lowercase hex digits.
  init?(_ text: String) {
    guard text.utf8.count == 32, text.utf8.allSatisfy(Self.isLowerHex) else { return nil }
    self.text = text
  }

  /// A new random id.
  static func mint() -> DeviceID {
    var generator = SystemRandomNumberGenerator()
    let words = [generator.next() as UInt64, generator.next() as UInt64]
    return DeviceID(words.map(hex16).joined())!
  }

  var description: String { text }

  /// The short form people see: the first eight digits.
  var short: String { String(text.prefix(8)) }

  static func < (lhs: DeviceID, rhs: DeviceID) -> Bool { lhs.text < rhs.text }

  static func isLowerHex(_ byte: UInt8) -> Bool {
    (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f"))
  }
}

/// Sixteen lowercase hex digits, zero-padded: the fixed-width form of device ids and clock
/// stamps in file names and files.
package func hex16(_ value: UInt64) -> String {
  // Into one buffer: every commit writes several (its clock, its checksums, its stamps).
  String(unsafeUninitializedCapacity: 16) { text in
    for index in 0..<16 { text[index] = hex16Digit(value, index) }
    return 16
  }
}

/// `hex16`'s digits appended to bytes being built (a record's header).
func appendHex16(_ value: UInt64, to bytes: inout [UInt8]) {
  for index in 0..<16 { bytes.append(hex16Digit(value, index)) }
}

/// Digit `index` (0: the most significant) of `hex16(value)`.
@inline(__always) private func hex16Digit(_ value: UInt64, _ index: Int) -> UInt8 {
  let nibble = UInt8(truncatingIfNeeded: value >> (60 - 4 * index)) & 0xf
  return nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
}

/// The value `hex16` wrote: exactly sixteen lowercase hex digits; nil for anything else.
/// From the bytes, digit by digit: record headers are read by the hundred at every settle and
/// catch-up.
func hex16Value(_ digits: some Collection<UInt8>) -> UInt64? {
  guard digits.count == 16 else { return nil }
  var value: UInt64 = 0
  for digit in digits {
    guard DeviceID.isLowerHex(digit) else { return nil }
    value = value << 4 | UInt64(digit <= UInt8(ascii: "9") ? digit - UInt8(ascii: "0") : digit - UInt8(ascii: "a") + 10)
  }
  return value
}
