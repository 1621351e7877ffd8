import Foundation

/// One baby's tile on the dashboard (ContentView), as plain values a renderer can draw.
public struct DashboardTile: Sendable, Hashable, Identifiable {
  /// Where the tile's last amount came from.
  public enum AmountSource: String, Sendable, Hashable {
    /// ``LastFeedAmountCache`` (Phase A on).
    case cache
    /// The most recent feed with an amount in the store (cache off, or nothing cached).
    case history
  }

  public var baby: BabyProfile
  /// The feed in progress, if the baby is feeding now.
  public var inProgressFeed: FeedSession?
  /// The most recent finished feed.
  public var lastFinishedFeed: FeedSession?
  /// The last amount to show and to prefill the finish-feed form with.
  public var lastAmount: LastFeedAmount?
  /// Where ``lastAmount`` came from; `nil` when there is none.
  public var lastAmountSource: AmountSource?
  /// When the next feed is due: the latest feed's start plus the baby's feed term; `nil` before
  /// the first feed.
  public var nextFeedDue: Date?
  /// Whether the next feed is due (now is at or past ``nextFeedDue``) and no feed is in progress.
  public var isOverdue: Bool
  /// The most recent diaper change.
  public var lastDiaper: DiaperChange?

  public var id: UUID { baby.id }

  /// Whether the baby is feeding now.
  public var isFeeding: Bool { inProgressFeed != nil }

  public init(
    baby: BabyProfile, inProgressFeed: FeedSession? = nil, lastFinishedFeed: FeedSession? = nil,
    lastAmount: LastFeedAmount? = nil, lastAmountSource: AmountSource? = nil, nextFeedDue: Date? = nil,
    isOverdue: Bool = false, lastDiaper: DiaperChange? = nil
  ) {
    self.baby = baby
    self.inProgressFeed = inProgressFeed
    self.lastFinishedFeed = lastFinishedFeed
    self.lastAmount = lastAmount
    self.lastAmountSource = lastAmountSource
    self.nextFeedDue = nextFeedDue
    self.isOverdue = isOverdue
    self.lastDiaper = lastDiaper
  }
}
