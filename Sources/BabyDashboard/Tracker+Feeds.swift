import Foundation
import PlainStore

extension Tracker {
  /// Starts a feed at `start` (default: now).
  ///
  /// - Throws: ``ScreenModelError/alreadyFeeding(babyName:)`` if one is in progress;
  ///   ``ScreenModelError/invalid(_:)`` for a time in the future, or with
  ///   ``ValidationIssue/anotherFeedStartsThen`` when a feed of the baby starts then already;
  ///   ``ScreenModelError/unconfirmed(_:)`` for a start more than a day ago or inside another
  ///   feed of the baby, unless `confirmed`.
  @discardableResult
  public func startFeed(for babyID: UUID, at start: Date? = nil, confirmed: Bool = false) throws -> FeedSession {
    let start = start ?? now()
    try refuse(TrackerRules.issues(forTime: start, now: now()))
    let baby = try baby(babyID)
    // A feed dated ahead of the clock (a device whose clock was wrong) blocks nothing: it is named
    // by `eventsAhead(of:babyID:)` with the command that fixes it.
    guard try context.inProgressFeed(of: babyID, asOf: now()) == nil else {
      throw ScreenModelError.alreadyFeeding(babyName: baby.name)
    }
    let feed = FeedSession(uuid: newID(), profileID: babyID, startTime: start)
    if try context.clashingObject(with: feed, schema: schema) != nil {
      throw ScreenModelError.invalid([.anotherFeedStartsThen])
    }
    // A feed started before the newest one would not be the one in progress (the newest is).
    if let last = try context.lastFeed(of: babyID, asOf: now()), last.startTime > start {
      throw ScreenModelError.invalid([.laterFeedExists])
    }
    if !confirmed { try refuseDoubts(try doubts(about: feed)) }
    context.insert(feed)
    try save()
    return feed
  }

  /// Finishes the baby's feed in progress at `end` (default: now, never before its start), with
  /// `amount` (nil for none); `memo` replaces the memo, nil keeps it. Then the cache policy.
  ///
  /// - Throws: ``ScreenModelError/noFeedInProgress(babyName:)``; ``ScreenModelError/invalid(_:)``
  ///   for an end before the start or in the future, or an amount out of range;
  ///   ``ScreenModelError/unconfirmed(_:)`` for a feed longer than four hours or a zero amount,
  ///   unless `confirmed`.
  @discardableResult
  public func finishFeed(
    for babyID: UUID, at end: Date? = nil, amount: LastFeedAmount?, memo: String? = nil, confirmed: Bool = false
  ) throws -> FeedSession {
    let running = try feedInProgress(of: babyID)
    // Without a time, "now" on a device whose clock lags the one that started the feed.
    let end = end ?? max(now(), running.startTime)
    return try editFeed(
      running.uuid, FeedChanges(endTime: .some(end), amount: .some(amount), memoText: memo.map { .some($0) }), confirmed: confirmed)
  }

  /// The baby's feed in progress.
  ///
  /// - Throws: ``ScreenModelError/noFeedInProgress(babyName:)`` when there is none.
  public func feedInProgress(of babyID: UUID) throws -> FeedSession {
    let baby = try baby(babyID)
    guard let running = try context.inProgressFeed(of: babyID, asOf: now()) else {
      throw ScreenModelError.noFeedInProgress(babyName: baby.name)
    }
    return running
  }

  /// The amount to prefill when finishing the baby's feed, counted as a cache hit or miss: the
  /// cached amount when the cache is on and holds one, else the most recent feed's amount.
  public func prefill(for babyID: UUID) throws -> LastFeedAmount? {
    let (amount, source) = try lastAmount(of: try baby(babyID))
    countPrefill(from: source)
    return amount
  }

  /// Counts a prefill shown from `source` as a cache hit or a miss (for a caller that counts only
  /// once the finish is saved, so that a refused finish writes nothing).
  public func countPrefill(from source: DashboardTile.AmountSource?) {
    updateCache { try $0.countLookup(hit: source == .cache) }
  }

  /// The baby's last amount and where it came from, as the dashboard shows it.
  public func lastAmount(of baby: BabyProfile) throws -> (amount: LastFeedAmount?, source: DashboardTile.AmountSource?) {
    var cached: LastFeedAmount?
    let babies = try context.babies()
    readCache { cached = try $0.amount(for: baby, among: babies) }
    // A zero cached before zeros were refused as prefills is not one either.
    if let cached, TrackerRules.prefills(cached) { return (cached, .cache) }
    if let feed = try context.lastFeedWithAmount(of: baby.id), let amount = LastFeedAmount(feed: feed) {
      return (amount, .history)
    }
    return (nil, nil)
  }

  /// Logs a feed after the fact. A feed of the baby that starts at `start` already is updated
  /// with only what is given (`end`, `amount`, `memo`; nil keeps the stored value), not replaced.
  ///
  /// - Returns: the feed, and whether an existing one was updated.
  /// - Throws: ``ScreenModelError/alreadyFeeding(babyName:)`` if the new feed would hide the one
  ///   in progress; ``ScreenModelError/invalid(_:)`` for times and amounts out of range;
  ///   ``ScreenModelError/unconfirmed(_:)`` for the doubts of ``TrackerRules/doubts(aboutFeed:changes:neighbours:now:)``,
  ///   unless `confirmed`.
  @discardableResult
  public func logFeed(
    for babyID: UUID, start: Date, end: Date? = nil, amount: LastFeedAmount? = nil, memo: String? = nil,
    confirmed: Bool = false
  ) throws -> (feed: FeedSession, updated: Bool) {
    let baby = try baby(babyID)
    let candidate = FeedSession(
      uuid: newID(), profileID: babyID, startTime: start, endTime: end, amountValue: amount?.amountValue,
      amountUnitSymbol: amount?.amountUnitSymbol, memoText: memo)
    if let existing = try context.clashingObject(with: candidate, schema: schema) {
      let changes = FeedChanges(
        endTime: end.map { .some($0) }, amount: amount.map { .some($0) }, memoText: memo.map { .some($0) })
      return (try editFeed(existing.uuid, changes, confirmed: confirmed), true)
    }
    try refuse(feedIssues(candidate))
    if let running = try context.inProgressFeed(of: babyID, asOf: now()), end == nil || start > running.startTime {
      // A later feed would hide the one in progress (the dashboard shows the newest feed).
      throw ScreenModelError.alreadyFeeding(babyName: baby.name)
    }
    let feed = FeedChanges(memoText: .some(memo)).applied(to: candidate)
    if !confirmed { try refuseDoubts(try doubts(about: feed)) }
    context.insert(feed)
    try save()
    rememberAmount(of: feed)
    return (feed, false)
  }

  /// Changes a feed: its times, amount, memo or baby (an orphan can be given a baby).
  ///
  /// - Throws: ``ScreenModelError/notFound(entity:id:)``, ``ScreenModelError/unknownBaby(_:)``
  ///   for a baby that is not there, ``ScreenModelError/invalid(_:)`` with every issue;
  ///   ``ScreenModelError/unconfirmed(_:)`` with the doubts about what changes, unless `confirmed`.
  @discardableResult
  public func editFeed(_ id: UUID, _ changes: FeedChanges, confirmed: Bool = false) throws -> FeedSession {
    let stored = try context.existing(FeedSession.self, id: id)
    if case .some(.some(let babyID)) = changes.profileID { _ = try baby(babyID) }
    let feed = changes.applied(to: stored)
    var issues = feedIssues(feed, changes: changes)
    if try context.clashingObject(with: feed, schema: schema) != nil { issues.append(.anotherFeedStartsThen) }
    try refuse(issues)
    guard feed != stored else { return stored }
    if !confirmed { try refuseDoubts(try doubts(about: feed, changes: changes)) }
    // Only what changed (another process may have changed the rest meanwhile), under the id the
    // parent gave: a feed merged into another is edited as that one, by every device's fold.
    var (addressed, from) = (feed, stored)
    (addressed.uuid, from.uuid) = (id, id)
    context.update(addressed, from: from)
    try save()
    rememberAmount(of: feed)
    return feed
  }

  /// Deletes a feed; the baby's cached amount follows its newest feed with one that is left.
  public func deleteFeed(_ id: UUID) throws {
    let feed = try context.existing(FeedSession.self, id: id)
    context.delete(FeedSession.self, id: id)  // the id the parent gave (see `editFeed`)
    try save()
    rememberAmount(of: feed)
  }

  /// The cache policy, in one place: a baby's cached last amount is the amount of its newest
  /// feed with one (by start time), whichever device logged it; an old feed logged or edited
  /// late does not replace what the next feed will be prefilled with, and when a newer feed
  /// arrives from another device, or the newest is deleted, the cache follows. Two phones that
  /// hold the same feeds then prefill, and show, the same. A baby with no such feed keeps what
  /// the cache holds (an amount from before the store, say).
  func rememberAmount(of feed: FeedSession) {
    guard let babyID = feed.profileID else { return }
    followNewestAmount(of: babyID)
  }

  /// Brings one baby's cached last amount to its newest feed with one (see ``rememberAmount(of:)``).
  func followNewestAmount(of babyID: UUID) {
    updateCache { cache in
      guard let newest = try context.lastFeedWithAmount(of: babyID).flatMap(LastFeedAmount.init(feed:)), TrackerRules.prefills(newest)
      else { return }
      if try cache.amountsByBabyID()[babyID] != newest { try cache.set(newest, forBabyID: babyID) }
    }
  }

  /// Brings every baby's cached last amount to its newest feed with one: after a merge brought
  /// other devices' feeds (the app calls it on a remote change, `babydash` after merging).
  public func followNewestAmounts() throws {
    for baby in try context.babies() { followNewestAmount(of: baby.id) }
  }

  /// What is doubtful about `feed` written with `changes` (every part of a new feed): the rule is
  /// ``TrackerRules/doubts(aboutFeed:changes:neighbours:now:)``, against the baby's feeds around it.
  /// The app's edit form asks it before saving, to ask the person to confirm.
  public func doubts(about feed: FeedSession, changes: FeedChanges? = nil) throws -> [ValidationIssue] {
    var neighbours: [FeedSession] = []
    if let babyID = feed.profileID {
      let moment = now()
      // The ones that start in the day before are the ones that can usually still be running
      // at this start.
      let from = feed.startTime.addingTimeInterval(-TrackerRules.oldestStart)
      let to = max(feed.endTime ?? moment, feed.startTime).addingTimeInterval(1)
      neighbours = try context.feeds(of: babyID, startingIn: from..<to)
      // A feed confirmed longer than a day that began before `from` can still be running at this
      // start: the latest one before it is asked about too.
      if let earlier = try context.lastFeed(of: babyID, asOf: from.addingTimeInterval(-TrackerRules.futureTolerance - 1)),
        !neighbours.contains(where: { $0.uuid == earlier.uuid })
      {
        neighbours.insert(earlier, at: 0)
      }
    }
    return TrackerRules.doubts(aboutFeed: feed, changes: changes, neighbours: neighbours, now: now())
  }

  func refuseDoubts(_ doubts: [ValidationIssue]) throws {
    guard doubts.isEmpty else { throw ScreenModelError.unconfirmed(doubts) }
  }

  /// What is wrong with a feed about to be written; times are checked only where they change.
  private func feedIssues(_ feed: FeedSession, changes: FeedChanges? = nil) -> [ValidationIssue] {
    let moment = now()
    var issues = TrackerRules.issues(forStart: feed.startTime, end: feed.endTime)
    var times: [Date] = []
    if changes == nil || changes?.startTime != nil { times.append(feed.startTime) }
    if changes == nil || changes?.endTime != nil, let end = feed.endTime { times.append(end) }
    // Each issue once, though both times may have it.
    for issue in times.flatMap({ TrackerRules.issues(forTime: $0, now: moment) }) where !issues.contains(issue) {
      issues.append(issue)
    }
    if changes == nil || changes?.amount != nil, let amount = LastFeedAmount(feed: feed) {
      issues += TrackerRules.issues(forAmount: amount)
    }
    return issues
  }
}
