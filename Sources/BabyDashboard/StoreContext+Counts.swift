import PlainStore

/// How many babies, feeds and diaper changes a store holds.
public struct StoreContentCounts: Sendable, Hashable {
  public var babies: Int
  public var feeds: Int
  public var diapers: Int

  public init(babies: Int, feeds: Int, diapers: Int) {
    self.babies = babies
    self.feeds = feeds
    self.diapers = diapers
  }

  /// Whether the store holds nothing at all.
  public var isEmpty: Bool { babies == 0 && feeds == 0 && diapers == 0 }
}

extension StoreContext {
  /// How many objects of each entity the store holds.
  public func contentCounts() throws -> StoreContentCounts {
    StoreContentCounts(
      babies: try fetchCount(FetchDescriptor<BabyProfile>()),
      feeds: try fetchCount(FetchDescriptor<FeedSession>()),
      diapers: try fetchCount(FetchDescriptor<DiaperChange>()))
  }
}
