import ArgumentParsing
import BabyDashboard
import Foundation

/// Reads the AMOUNT values people type: `120ml`, `120 mL`, `4oz`, `4 fl oz`, `4.5oz`.
///
/// Only the spelling is read here; the range (not negative, not absurd) is the tracker's rule.
struct AmountArgument: ExpressibleByArgument {
  var amount: LastFeedAmount

  init(argument: String) throws(ArgumentValueError) {
    amount = try Self.parse(argument)
  }

  static func parse(_ text: String) throws(ArgumentValueError) -> LastFeedAmount {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    let number = trimmed.prefix { $0.isASCII && ($0.isNumber || $0 == "." || $0 == "," || $0 == "-") }
    let unit = trimmed.dropFirst(number.count).trimmingCharacters(in: .whitespaces)
    // "1,000ml" is a thousand in one locale and one in another: refuse rather than guess.
    if number.contains(",") {
      let digits = number.replacingOccurrences(of: ",", with: "")
      let decimal = number.replacingOccurrences(of: ",", with: ".")
      let unitText = unit.isEmpty ? "ml" : unit
      // Only three digits after the comma can be a thousands separator: 4,5oz is 4.5 or a typo, never 45.
      let afterComma = number.split(separator: ",", omittingEmptySubsequences: false).dropFirst()
      let thousands = afterComma.allSatisfy { $0.count == 3 }
      throw ArgumentValueError(
        reason: thousands
          ? "a comma is ambiguous in an amount: write \(digits)\(unitText) (no thousands separator), or use a point for decimals, e.g. 4.5oz"
          : "a comma is not read in an amount: for decimals use a point, \(decimal)\(unitText.contains(" ") ? " " : "")\(unitText)")
    }
    guard let value = Double(number), value.isFinite else {
      throw ArgumentValueError(reason: "expected an amount like 120ml, 120 mL, 4oz or 4 fl oz")
    }
    guard value >= 0 else { throw ArgumentValueError(reason: "an amount cannot be negative") }
    guard !unit.isEmpty else {
      throw ArgumentValueError(reason: "the amount needs a unit, e.g. \(number)ml or \(number)oz")
    }
    guard let symbol = VolumeUnit.canonicalSymbol(for: unit) else {
      throw ArgumentValueError(reason: "unknown unit '\(unit)' (use mL or fl oz)")
    }
    return LastFeedAmount(amountValue: value, amountUnitSymbol: symbol)
  }
}
