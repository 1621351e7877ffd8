import Foundation

/// The amount and unit fields of a form, as typed, and how they become an amount.
///
/// An empty amount means "no amount" (the unit is then ignored). Otherwise the amount must be a
/// number (a decimal comma is accepted: "4,5"), not negative, with a known unit in any common
/// spelling; the unit is stored as its canonical symbol.
public struct FeedAmountInput: Sendable, Hashable {
  /// The unit a form starts with when nothing suggests another.
  public static let defaultUnitSymbol = VolumeUnit.milliliters.symbol

  /// The amount as typed, e.g. "120" or "4.5"; empty for none.
  public var amountText: String
  /// The unit as typed or chosen, e.g. "mL", "oz".
  public var unitSymbol: String

  public init(amountText: String = "", unitSymbol: String = FeedAmountInput.defaultUnitSymbol) {
    self.amountText = amountText
    self.unitSymbol = unitSymbol
  }

  /// The fields showing an amount (e.g. a prefill from ``LastFeedAmountCache``).
  public init(_ amount: LastFeedAmount?) {
    guard let amount else {
      self.init()
      return
    }
    self.init(amountText: Self.format(amount.amountValue), unitSymbol: amount.amountUnitSymbol)
  }

  /// The fields showing a feed's amount.
  public init(feed: FeedSession) {
    self.init(
      amountText: feed.amountValue.map(Self.format) ?? "",
      unitSymbol: feed.amountUnitSymbol ?? Self.defaultUnitSymbol)
  }

  /// What is wrong with the fields; empty when they can be saved.
  public var issues: [ValidationIssue] {
    parsed().issues
  }

  /// The amount the fields describe: `nil` for none.
  ///
  /// - Throws: ``ScreenModelError/invalid(_:)`` with the issues.
  public func amount() throws -> LastFeedAmount? {
    let (amount, issues) = parsed()
    guard issues.isEmpty else { throw ScreenModelError.invalid(issues) }
    return amount
  }

  private func parsed() -> (amount: LastFeedAmount?, issues: [ValidationIssue]) {
    let text = amountText.trimmingCharacters(in: .whitespaces)
    guard !text.isEmpty else { return (nil, []) }
    var issues: [ValidationIssue] = []
    let value = Double(text.replacingOccurrences(of: ",", with: "."))
    if value?.isFinite != true { issues.append(.amountNotANumber(text)) }
    let unit = unitSymbol.trimmingCharacters(in: .whitespaces)
    let canonical = VolumeUnit.canonicalSymbol(for: unit)
    if unit.isEmpty {
      issues.append(.missingUnit)
    } else if canonical == nil {
      issues.append(.unknownUnit(unit))
    }
    // The range is the tracker's rule, one place for the form and every other writer.
    if let value, value.isFinite {
      issues.insert(contentsOf: TrackerRules.issues(forAmount: LastFeedAmount(amountValue: value, amountUnitSymbol: canonical ?? "mL")), at: 0)
    }
    guard issues.isEmpty, let value, let canonical else { return (nil, issues) }
    return (LastFeedAmount(amountValue: value, amountUnitSymbol: canonical), [])
  }

  /// "120" for 120, "4.5" for 4.5: no trailing ".0", no locale.
  static func format(_ value: Double) -> String {
    if value.rounded() == value, abs(value) < 1e15 { return String(Int64(value)) }
    return String(value)
  }
}
