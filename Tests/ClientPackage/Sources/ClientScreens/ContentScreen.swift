import BabyDashboard
import Foundation
import Observation
import PlainStore

/// The seed's ContentView, ported: a tile per baby (createdAt ascending), start a feed, finish
/// it with the amount prefilled from the cache, log a diaper. The lists are live queries, as
/// `@Query` was: nothing here reloads by hand.
@MainActor @Observable
public final class ContentScreen {
  /// `@Query(sort: \BabyProfile.createdAt)`.
  public let babies: LiveQuery<[BabyProfile]>
  /// `@Query(filter: #Predicate { $0.endTime == nil })`.
  public let feedsInProgress: LiveQuery<[FeedSession]>

  @ObservationIgnored let container: StoreContainer
  @ObservationIgnored let cache: LastFeedAmountCache

  public init(container: StoreContainer, cache: LastFeedAmountCache) throws {
    self.container = container
    self.cache = cache
    babies = try container.liveQuery(FetchDescriptor<BabyProfile>(sortBy: [SortDescriptor(\.createdAt)]))
    feedsInProgress = try container.liveQuery(FetchDescriptor<FeedSession>(predicate: #Predicate { $0.endTime == nil }))
  }

  /// The baby's feed in progress, if any.
  public func feedInProgress(of baby: BabyProfile) -> FeedSession? {
    feedsInProgress.results.first { $0.profileID == baby.id }
  }

  /// `modelContext.insert(FeedSession(...))`; returns the feed as stored (a feed of the same
  /// start was logged already: its id, from the save).
  @discardableResult
  public func startFeeding(_ baby: BabyProfile, at start: Date) throws -> ObjectID {
    let context = container.viewContext
    let feed = FeedSession(profileID: baby.id, startTime: start)
    context.insert(feed)
    return try context.save().id(of: feed.objectID)
  }

  /// The finish sheet's onAppear: the amount to prefill.
  public func prefilledAmount(for baby: BabyProfile) throws -> LastFeedAmount? {
    try cache.amount(for: baby, among: babies.results)
  }

  /// The finish sheet's save: ends the feed with the amount and remembers the amount.
  public func finishFeeding(_ baby: BabyProfile, at end: Date, amount: LastFeedAmount) throws {
    guard let feed = feedInProgress(of: baby) else { return }
    let context = container.viewContext
    try context.edit(FeedSession.self, id: feed.uuid) { feed in
      feed.endTime = end
      feed.amountValue = amount.amountValue
      feed.amountUnitSymbol = amount.amountUnitSymbol
    }
    try context.save()
    try cache.set(amount, forBabyID: baby.id)
  }

  public func logDiaper(_ baby: BabyProfile, _ type: DiaperType, at time: Date) throws {
    let context = container.viewContext
    context.insert(DiaperChange(profileID: baby.id, timestamp: time, type: type))
    try context.save()
  }
}
