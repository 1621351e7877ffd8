/// An app version as the App Store numbers it, `1.4` or `1.4.2`, compared number by number
/// (`1.10` is newer than `1.9`; `1.4` equals `1.4.0`).
public struct AppVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// The numbers, most significant first, without trailing zeros.
  public let numbers: [Int]
  /// The text it was read from.
  public let description: String

  /// The version `text` names, or `nil` unless it is one to four dot-separated numbers.
  public init?(_ text: String) {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    guard (1...4).contains(parts.count) else { return nil }
    var numbers: [Int] = []
    for part in parts {
      guard !part.isEmpty, part.count <= 9, part.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(part) else { return nil }
      numbers.append(number)
    }
    while numbers.count > 1, numbers.last == 0 { numbers.removeLast() }
    self.numbers = numbers
    description = text
  }

  public static func == (lhs: AppVersion, rhs: AppVersion) -> Bool { lhs.numbers == rhs.numbers }
  public func hash(into hasher: inout Hasher) { hasher.combine(numbers) }

  public static func < (lhs: AppVersion, rhs: AppVersion) -> Bool {
    for index in 0..<max(lhs.numbers.count, rhs.numbers.count) {
      let left = index < lhs.numbers.count ? lhs.numbers[index] : 0
      let right = index < rhs.numbers.count ? rhs.numbers[index] : 0
      if left != right { return left < right }
    }
    return false
  }
}
