import Foundation
import PlainStore

/// The fetches the screens, the widget snapshots and the backfill share, in the sort orders
/// <doc:DataModel> names: babies by createdAt ascending, feeds by startTime and diapers by
/// timestamp descending.
extension StoreContext {
  /// All babies, oldest first (by `createdAt`, then `id` for a stable order), never by name.
  public func babies() throws -> [BabyProfile] {
    try fetch(FetchDescriptor<BabyProfile>(sortBy: [
      SortDescriptor(\.createdAt, order: .forward), SortDescriptor(\.id, order: .forward),
    ]))
  }

  /// The baby's most recent feed by start time, finished or not; with `now`, the most recent
  /// that starts by then (``TrackerRules/latestPresentTime(now:)``): a feed dated ahead of the
  /// clock (a device whose clock was wrong) is named elsewhere (``eventsAhead(of:babyID:)``),
  /// never taken for the last one.
  public func lastFeed(of babyID: UUID, asOf now: Date? = nil) throws -> FeedSession? {
    let id: UUID? = babyID
    var descriptor = FetchDescriptor<FeedSession>(
      predicate: #Predicate { $0.profileID == id }, sortBy: [SortDescriptor(\.startTime, order: .reverse)])
    if let now {
      let latest = TrackerRules.latestPresentTime(now: now)
      descriptor.predicate = #Predicate { $0.profileID == id && $0.startTime <= latest }
    }
    descriptor.fetchLimit = 1
    return try fetch(descriptor).first
  }

  /// The baby's feed in progress: its most recent feed (as of `now`, see
  /// ``lastFeed(of:asOf:)``), when that has no end.
  ///
  /// An unfinished feed followed by later feeds was forgotten, not ongoing (a legacy import can
  /// hold such feeds); the screens never start or log a feed after one in progress. Reading only
  /// the newest feed keeps the dashboard from reading years of history to find none.
  public func inProgressFeed(of babyID: UUID, asOf now: Date? = nil) throws -> FeedSession? {
    guard let feed = try lastFeed(of: babyID, asOf: now), feed.isInProgress else { return nil }
    return feed
  }

  /// The baby's most recent finished feed (as of `now`, see ``lastFeed(of:asOf:)``).
  public func lastFinishedFeed(of babyID: UUID, asOf now: Date? = nil) throws -> FeedSession? {
    let id: UUID? = babyID
    var descriptor = FetchDescriptor<FeedSession>(
      predicate: #Predicate { $0.profileID == id && $0.endTime != nil }, sortBy: [SortDescriptor(\.startTime, order: .reverse)])
    if let now {
      let latest = TrackerRules.latestPresentTime(now: now)
      descriptor.predicate = #Predicate { $0.profileID == id && $0.endTime != nil && $0.startTime <= latest }
    }
    descriptor.fetchLimit = 1
    return try fetch(descriptor).first
  }

  /// The baby's most recent feed that has an amount (a value and a unit) that can prefill the
  /// next: not zero (``TrackerRules/prefills(_:)``).
  public func lastFeedWithAmount(of babyID: UUID) throws -> FeedSession? {
    let id: UUID? = babyID
    let zero: Double? = 0
    var descriptor = FetchDescriptor<FeedSession>(
      predicate: #Predicate { $0.profileID == id && $0.amountValue != nil && $0.amountValue != zero && $0.amountUnitSymbol != nil },
      sortBy: [SortDescriptor(\.startTime, order: .reverse)])
    descriptor.fetchLimit = 1
    return try fetch(descriptor).first
  }

  /// The baby's most recent diaper change (as of `now`: one dated ahead of the clock is not it).
  public func lastDiaper(of babyID: UUID, asOf now: Date? = nil) throws -> DiaperChange? {
    let id: UUID? = babyID
    var descriptor = FetchDescriptor<DiaperChange>(
      predicate: #Predicate { $0.profileID == id }, sortBy: [SortDescriptor(\.timestamp, order: .reverse)])
    if let now {
      let latest = TrackerRules.latestPresentTime(now: now)
      descriptor.predicate = #Predicate { $0.profileID == id && $0.timestamp <= latest }
    }
    descriptor.fetchLimit = 1
    return try fetch(descriptor).first
  }

  /// The baby's feeds that started within `range`, oldest first.
  public func feeds(of babyID: UUID, startingIn range: Range<Date>) throws -> [FeedSession] {
    let id: UUID? = babyID
    let lower = range.lowerBound
    let upper = range.upperBound
    var descriptor = FetchDescriptor<FeedSession>(
      predicate: #Predicate { $0.profileID == id && $0.startTime >= lower && $0.startTime < upper },
      sortBy: [SortDescriptor(\.startTime, order: .forward)])
    descriptor.dateRange = range
    return try fetch(descriptor)
  }

  /// How many feeds of the baby started within `range`.
  public func feedCount(of babyID: UUID, startingIn range: Range<Date>) throws -> Int {
    let id: UUID? = babyID
    let lower = range.lowerBound
    let upper = range.upperBound
    var descriptor = FetchDescriptor<FeedSession>(
      predicate: #Predicate { $0.profileID == id && $0.startTime >= lower && $0.startTime < upper })
    descriptor.dateRange = range
    return try fetchCount(descriptor)
  }

  /// How many diaper changes of the baby happened within `range`.
  public func diaperCount(of babyID: UUID, in range: Range<Date>) throws -> Int {
    let id: UUID? = babyID
    let lower = range.lowerBound
    let upper = range.upperBound
    var descriptor = FetchDescriptor<DiaperChange>(
      predicate: #Predicate { $0.profileID == id && $0.timestamp >= lower && $0.timestamp < upper })
    descriptor.dateRange = range
    return try fetchCount(descriptor)
  }

  /// All feeds, newest first.
  public func allFeeds() throws -> [FeedSession] {
    try fetch(FetchDescriptor<FeedSession>(sortBy: [SortDescriptor(\.startTime, order: .reverse)]))
  }

  /// All diaper changes, newest first.
  public func allDiapers() throws -> [DiaperChange] {
    try fetch(FetchDescriptor<DiaperChange>(sortBy: [SortDescriptor(\.timestamp, order: .reverse)]))
  }
}
