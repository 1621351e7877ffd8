import BabyDashboard
import PlainStore

/// A seeded in-memory store and the last-feed-amount cache that goes with it.
public struct PreviewStore: Sendable {
  public let container: StoreContainer
  public let cache: LastFeedAmountCache

  public init(container: StoreContainer, cache: LastFeedAmountCache) {
    self.container = container
    self.cache = cache
  }
}
