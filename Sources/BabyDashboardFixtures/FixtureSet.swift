import BabyDashboard
import PlainStore

/// The objects of a scenario, built but not yet stored: babies, feeds, diaper changes and the
/// last-feed amounts to cache.
public struct FixtureSet: Sendable, Hashable {
  public var babies: [BabyProfile]
  public var feeds: [FeedSession]
  public var diapers: [DiaperChange]
  /// (baby name, amount) pairs for ``LastFeedAmountCache``, written in this order.
  public var lastFeedAmounts: [CachedAmount]

  /// One entry of the last-feed-amount cache.
  public struct CachedAmount: Sendable, Hashable {
    public var babyName: String
    public var amount: LastFeedAmount

    public init(babyName: String, amountValue: Double, amountUnitSymbol: String) {
      self.babyName = babyName
      self.amount = LastFeedAmount(amountValue: amountValue, amountUnitSymbol: amountUnitSymbol)
    }
  }

  public init(
    babies: [BabyProfile] = [], feeds: [FeedSession] = [], diapers: [DiaperChange] = [],
    lastFeedAmounts: [CachedAmount] = []
  ) {
    self.babies = babies
    self.feeds = feeds
    self.diapers = diapers
    self.lastFeedAmounts = lastFeedAmounts
  }

  /// Inserts everything into `context` (babies first, so references resolve) and writes the
  /// cached amounts into `cache`; does not save.
  ///
  /// - Throws: ``KeyValueStoreError`` from the cache.
  public func insert(into context: StoreContext, cache: LastFeedAmountCache?) throws {
    for baby in babies { context.insert(baby) }
    for feed in feeds { context.insert(feed) }
    for diaper in diapers { context.insert(diaper) }
    guard let cache else { return }
    for entry in lastFeedAmounts {
      try seedLastFeedAmount(
        forBabyName: entry.babyName, amountValue: entry.amount.amountValue,
        amountUnitSymbol: entry.amount.amountUnitSymbol, in: cache)
    }
  }
}
