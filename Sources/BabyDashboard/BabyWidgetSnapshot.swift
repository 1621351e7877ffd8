import Foundation

/// What the widget shows for one baby, computed by the app so the widget never opens the store.
public struct BabyWidgetSnapshot: Codable, Sendable, Hashable, Identifiable {
  /// A feed as the widget needs it.
  public struct Feed: Codable, Sendable, Hashable {
    public var start: Date
    /// `nil` while the feed is in progress.
    public var end: Date?
    public var amountValue: Double?
    public var amountUnitSymbol: String?

    public init(start: Date, end: Date? = nil, amountValue: Double? = nil, amountUnitSymbol: String? = nil) {
      self.start = start
      self.end = end
      self.amountValue = amountValue
      self.amountUnitSymbol = amountUnitSymbol
    }

    public init(_ feed: FeedSession) {
      self.init(start: feed.startTime, end: feed.endTime, amountValue: feed.amountValue, amountUnitSymbol: feed.amountUnitSymbol)
    }
  }

  /// A diaper change as the widget needs it.
  public struct Diaper: Codable, Sendable, Hashable {
    public var time: Date
    public var type: DiaperType

    public init(time: Date, type: DiaperType) {
      self.time = time
      self.type = type
    }
  }

  public var babyID: UUID
  public var name: String
  /// The most recent feed by start time, finished or in progress.
  public var lastFeed: Feed?
  /// The start of the feed in progress, if the baby is feeding now.
  public var feedingSince: Date?
  /// When the next feed is due: the last feed's start plus the baby's feed term.
  public var nextFeedDue: Date?
  public var lastDiaper: Diaper?
  /// Feeds started today, in the snapshot's time zone.
  public var todayFeedCount: Int
  /// Diaper changes today, in the snapshot's time zone.
  public var todayDiaperCount: Int

  public var id: UUID { babyID }

  /// Whether the baby is feeding now.
  public var isFeeding: Bool { feedingSince != nil }

  public init(
    babyID: UUID, name: String, lastFeed: Feed? = nil, feedingSince: Date? = nil, nextFeedDue: Date? = nil,
    lastDiaper: Diaper? = nil, todayFeedCount: Int = 0, todayDiaperCount: Int = 0
  ) {
    self.babyID = babyID
    self.name = name
    self.lastFeed = lastFeed
    self.feedingSince = feedingSince
    self.nextFeedDue = nextFeedDue
    self.lastDiaper = lastDiaper
    self.todayFeedCount = todayFeedCount
    self.todayDiaperCount = todayDiaperCount
  }
}
