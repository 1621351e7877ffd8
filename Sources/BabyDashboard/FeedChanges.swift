import Foundation

/// What an edit of a feed changes; a nil property is left as stored.
///
/// A double optional tells "leave it" (`nil`) from "clear it" (`.some(nil)`): `endTime: .some(nil)`
/// puts a feed back in progress, `amount: .some(nil)` removes its amount.
public struct FeedChanges: Sendable, Hashable {
  public var startTime: Date?
  public var endTime: Date??
  public var amount: LastFeedAmount??
  public var memoText: String??
  /// The baby it belongs to: `.some(nil)` makes it an orphan, `.some(id)` reassigns it.
  public var profileID: UUID??

  public init(
    startTime: Date? = nil, endTime: Date?? = nil, amount: LastFeedAmount?? = nil, memoText: String?? = nil,
    profileID: UUID?? = nil
  ) {
    self.startTime = startTime
    self.endTime = endTime
    self.amount = amount
    self.memoText = memoText
    self.profileID = profileID
  }

  /// Whether it changes nothing.
  public var isEmpty: Bool {
    startTime == nil && endTime == nil && amount == nil && memoText == nil && profileID == nil
  }

  /// `feed` with these changes; an empty memo is stored as none.
  public func applied(to feed: FeedSession) -> FeedSession {
    var feed = feed
    if let startTime { feed.startTime = startTime }
    if let endTime { feed.endTime = endTime }
    if let amount {
      feed.amountValue = amount?.amountValue
      feed.amountUnitSymbol = amount?.amountUnitSymbol
    }
    if let memoText {
      feed.memoText = memoText.flatMap { $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : $0 }
    }
    if let profileID { feed.profileID = profileID }
    return feed
  }
}
