import Foundation

/// Which values store files can hold, and how a refusal reads: the encoder refuses to write
/// what this refuses, and the decoder refuses the same values when a file holds one, so what is
/// written can always be read back and nothing else is ever read.
enum StorableValue {
  /// JSON has no NaN or infinity.
  static func isStorable(_ value: Double) -> Bool { value.isFinite }

  /// Four-digit years in UTC (see `ISO8601.isStorable`).
  static func isStorable(_ value: Date) -> Bool { ISO8601.isStorable(value) }

  static func refusal(_ value: Double) -> String {
    "\(value) is not a finite number; store files hold finite numbers only"
  }

  static func refusal(_ value: Date) -> String {
    "\(ISO8601.describe(value)) is outside the dates store files hold: \(ISO8601.storableRangeText)"
  }
}
