import Foundation

/// One row of the history (HistoryView): a feed or a diaper change, with its baby's name.
public struct HistoryEvent: Sendable, Hashable, Identifiable {
  /// What happened.
  public enum Kind: Sendable, Hashable {
    case feed(FeedSession)
    case diaper(DiaperChange)
  }

  public var kind: Kind
  /// The baby's name; `nil` for an orphan (no baby, or one deleted).
  public var babyName: String?

  public init(_ kind: Kind, babyName: String?) {
    self.kind = kind
    self.babyName = babyName
  }

  /// The feed's or diaper change's uuid.
  public var id: UUID {
    switch kind {
    case .feed(let feed): return feed.uuid
    case .diaper(let diaper): return diaper.uuid
    }
  }

  /// When it happened: a feed's start, a diaper change's timestamp.
  public var date: Date {
    switch kind {
    case .feed(let feed): return feed.startTime
    case .diaper(let diaper): return diaper.timestamp
    }
  }

  /// The baby it belongs to.
  public var profileID: UUID? {
    switch kind {
    case .feed(let feed): return feed.profileID
    case .diaper(let diaper): return diaper.profileID
    }
  }

  /// The feed, if it is one.
  public var feed: FeedSession? {
    if case .feed(let feed) = kind { return feed }
    return nil
  }

  /// The diaper change, if it is one.
  public var diaper: DiaperChange? {
    if case .diaper(let diaper) = kind { return diaper }
    return nil
  }

  /// A feed's hashtags; none for a diaper change.
  public var hashtags: [String] { feed?.hashtags ?? [] }

  /// The history's order: newest first; at one moment feeds before diaper changes, then by id,
  /// so that the order never depends on how the store returned them.
  public static func newestFirst(_ lhs: HistoryEvent, _ rhs: HistoryEvent) -> Bool {
    if lhs.date != rhs.date { return lhs.date > rhs.date }
    if (lhs.feed != nil) != (rhs.feed != nil) { return lhs.feed != nil }
    return lhs.id.uuidString < rhs.id.uuidString
  }
}
