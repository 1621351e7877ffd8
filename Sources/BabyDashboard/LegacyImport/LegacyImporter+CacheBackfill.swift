import PlainStore

extension LegacyImporter {
  /// Fills ``LastFeedAmountCache`` for babies without a value: from their most recent feed with
  /// an amount, then from the legacy profile's `lastFeedAmount*`. A failure is recorded in
  /// `errors` (the import itself stands) and leaves `migrationCompleted` unrecorded, so that the
  /// next run tries again.
  func backfillCache(_ plan: LegacyImportPlan, from context: StoreContext, errors: inout [String]) -> LegacyCacheBackfillSummary? {
    let cache = LastFeedAmountCache(store: keyValueStore)
    do {
      let fromFeeds = try cache.backfill(from: context)
      var fromLegacy: [String] = []
      let babies = try context.babies()
      for baby in babies {
        guard let amount = plan.legacyAmounts[baby.id], TrackerRules.prefills(amount), try cache.amount(for: baby, among: babies) == nil else { continue }
        try cache.set(amount, forBabyID: baby.id)
        fromLegacy.append(baby.name)
      }
      return LegacyCacheBackfillSummary(
        babies: fromFeeds.babies, fromFeeds: fromFeeds.backfilledNames, fromLegacyFields: fromLegacy,
        alreadyCached: fromFeeds.alreadyCached, withoutAmount: fromFeeds.withoutAmount - fromLegacy.count)
    } catch {
      errors.append("cache backfill: \(error)")
      return nil
    }
  }
}
