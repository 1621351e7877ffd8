/// The name of one device's folder in `changes/`: 32 lowercase hex digits, random, minted once
/// per copy of a store and never reused, so no two devices ever write the same file name.
struct DeviceID: Hashable, Comparable, Sendable, CustomStringConvertible {
  let text: String

  /// nil unless `text` is exactly 32 lowercase hex digits.
  init?(_ text: String) {
    guard text.utf8.count == 32, text.utf8.allSatisfy(Digits.isLowerHex) else { return nil }
    self.text = text
  }

  /// A new random id.
  static func mint() -> DeviceID {
    var generator = SystemRandomNumberGenerator()
    let words = [generator.next() as UInt64, generator.next() as UInt64]
    return DeviceID(words.map(Digits.hex16).joined())!
  }

  var description: String { text }

  /// The short form people see: the first eight digits.
  var short: String { String(text.prefix(8)) }

  static func < (lhs: DeviceID, rhs: DeviceID) -> Bool { lhs.text < rhs.text }
}
