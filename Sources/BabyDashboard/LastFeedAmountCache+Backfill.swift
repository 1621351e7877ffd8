import PlainStore

extension LastFeedAmountCache {
  /// Fills in the last amount of every baby that has none, from its most recent feed with an
  /// amount (Phase A's one-time backfill, and the importer's safety net).
  ///
  /// Values already cached are never replaced, so running it again changes nothing. Entries are
  /// keyed by id, so two babies who share a name each get their own feed's amount; an entry
  /// still under a shared name goes to the oldest of them (``amount(for:among:)``).
  ///
  /// - Parameters:
  ///   - context: the context to read babies and feeds from.
  ///   - afterEach: told after each value written how many are written so far (the launch
  ///     step's progress).
  /// - Returns: what was done, with the coverage figure.
  /// - Throws: `StoreError` from the fetches, ``KeyValueStoreError`` from the cache.
  @discardableResult
  public func backfill(from context: StoreContext, afterEach: (_ written: Int) -> Void = { _ in }) throws -> LastFeedAmountBackfillReport {
    let babies = try context.babies()
    var report = LastFeedAmountBackfillReport(babies: babies.count, backfilledNames: [], alreadyCached: 0, withoutAmount: 0)
    for baby in babies {
      if try amount(for: baby, among: babies) != nil {
        report.alreadyCached += 1
        continue
      }
      guard let feed = try context.lastFeedWithAmount(of: baby.id), let amount = LastFeedAmount(feed: feed) else {
        report.withoutAmount += 1
        continue
      }
      try set(amount, forBabyID: baby.id)
      report.backfilledNames.append(baby.name)
      afterEach(report.backfilledNames.count)
    }
    return report
  }
}

extension LastFeedAmountCache {
  /// The backfill as Phase A runs it: only when the cache flag is on.
  ///
  /// With ``FeatureFlags/lastFeedAmountCache`` off (the rollout has not reached this user, or it
  /// was backed out) nothing is read from or written to the cache, and the result is `nil`.
  /// - Throws: as ``backfill(from:)``.
  @discardableResult
  public func backfill(
    from context: StoreContext, flags: FeatureFlags, afterEach: (_ written: Int) -> Void = { _ in }
  ) throws -> LastFeedAmountBackfillReport? {
    guard flags.lastFeedAmountCache else { return nil }
    return try backfill(from: context, afterEach: afterEach)
  }
}
