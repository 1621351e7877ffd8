import ArgumentParsing
import Foundation

/// Reads the DURATION values people type: `3h`, `2h30m`, `90m`, `45s`; also what the tool prints
/// (`2h 30m`, `1d 2h`), so a term shown can be typed back.
///
/// A bare number is refused with the readings it could have ("90 what? give 90m or 1h30m"):
/// read as seconds, `--feed-term 90` made a baby fed every minute and a half.
struct DurationArgument: ExpressibleByArgument {
  var seconds: TimeInterval

  init(argument: String) throws(ArgumentValueError) {
    seconds = try Self.parse(argument)
  }

  static func parse(_ text: String) throws(ArgumentValueError) -> TimeInterval {
    let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
    let problem = ArgumentValueError(reason: "expected a duration like 3h, 2h30m, 90m or 45s")
    let tooLong = ArgumentValueError(reason: "the duration '\(text)' is too long to count in seconds")
    guard !trimmed.isEmpty else { throw problem }
    if let number = Int(trimmed) {
      guard number > 0 else { throw ArgumentValueError(reason: "a duration must be more than zero") }
      let other = number >= 60 && number < 6000 ? "\(number / 60)h\(number % 60 == 0 ? "" : "\(number % 60)m")" : "\(number)h"
      throw ArgumentValueError(reason: "\(number) what? give \(number)m or \(other)")
    }
    var total = 0
    var digits = ""
    var usedUnits: [Character] = []
    for character in trimmed where character != " " {
      if character.isASCII, character.isNumber {
        digits.append(character)
        continue
      }
      guard let value = Int(digits), let scale = ["d": 86_400, "h": 3600, "m": 60, "s": 1][character],
        usedUnits.allSatisfy({ unitOrder($0) < unitOrder(character) })
      else { throw problem }
      // Checked: `2562047788015216h` is more seconds than an Int holds.
      let (seconds, overflow) = value.multipliedReportingOverflow(by: scale)
      let (sum, overflowAgain) = total.addingReportingOverflow(seconds)
      guard !overflow, !overflowAgain else { throw tooLong }
      total = sum
      usedUnits.append(character)
      digits = ""
    }
    guard digits.isEmpty else { throw problem }
    guard total > 0 else { throw ArgumentValueError(reason: "a duration must be more than zero") }
    return TimeInterval(total)
  }

  private static func unitOrder(_ unit: Character) -> Int {
    ["d": 0, "h": 1, "m": 2, "s": 3][unit] ?? 4
  }
}
