import Foundation

/// The edit form of a feed (HistoryEditView): start, end, amount, unit and memo, as typed.
public struct FeedDraft: Sendable, Hashable {
  public var startTime: Date
  /// `nil` keeps the feed in progress.
  public var endTime: Date?
  /// The amount as typed; empty for none.
  public var amountText: String
  /// The unit as typed or chosen.
  public var unitSymbol: String
  /// The memo; empty for none.
  public var memoText: String

  public init(startTime: Date, endTime: Date?, amountText: String, unitSymbol: String, memoText: String) {
    self.startTime = startTime
    self.endTime = endTime
    self.amountText = amountText
    self.unitSymbol = unitSymbol
    self.memoText = memoText
  }

  /// The form showing a stored feed.
  public init(_ feed: FeedSession) {
    let amount = FeedAmountInput(feed: feed)
    self.init(
      startTime: feed.startTime, endTime: feed.endTime, amountText: amount.amountText,
      unitSymbol: amount.unitSymbol, memoText: feed.memoText ?? "")
  }

  /// The amount and unit fields.
  public var amountInput: FeedAmountInput {
    FeedAmountInput(amountText: amountText, unitSymbol: unitSymbol)
  }

  /// What is wrong with the form, without looking at the store.
  public var issues: [ValidationIssue] {
    TrackerRules.issues(forStart: startTime, end: endTime) + amountInput.issues
  }

  /// `feed` with the form's values: the unit canonical, an empty memo as none.
  ///
  /// - Throws: ``ScreenModelError/invalid(_:)`` if the form has issues.
  public func applied(to feed: FeedSession) throws -> FeedSession {
    let issues = issues
    guard issues.isEmpty else { throw ScreenModelError.invalid(issues) }
    let amount = try amountInput.amount()
    var feed = feed
    feed.startTime = startTime
    feed.endTime = endTime
    feed.amountValue = amount?.amountValue
    feed.amountUnitSymbol = amount?.amountUnitSymbol
    feed.memoText = memoText.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : memoText
    return feed
  }
}
