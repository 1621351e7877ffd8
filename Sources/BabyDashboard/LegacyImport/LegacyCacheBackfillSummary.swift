/// How the importer filled ``LastFeedAmountCache`` after the import: the safety net of <doc:Importer>.
///
/// First from each baby's most recent feed with an amount (``LastFeedAmountCache/backfill(from:)``),
/// then, for babies still without a value, from the legacy profile's `lastFeedAmount*` fields.
public struct LegacyCacheBackfillSummary: Sendable, Hashable {
  /// Babies in the store.
  public var babies: Int
  /// Names filled from a feed with an amount.
  public var fromFeeds: [String]
  /// Names filled from the legacy `lastFeedAmountValue` / `lastFeedAmountUnitSymbol`.
  public var fromLegacyFields: [String]
  /// Babies whose name already had a value.
  public var alreadyCached: Int
  /// Babies left without a value: no feed with an amount and no legacy amount.
  public var withoutAmount: Int

  public init(babies: Int, fromFeeds: [String], fromLegacyFields: [String], alreadyCached: Int, withoutAmount: Int) {
    self.babies = babies
    self.fromFeeds = fromFeeds
    self.fromLegacyFields = fromLegacyFields
    self.alreadyCached = alreadyCached
    self.withoutAmount = withoutAmount
  }

  /// Babies backfilled by this run, both ways.
  public var backfilled: Int { fromFeeds.count + fromLegacyFields.count }

  /// The share of babies that have a cached amount after the backfill, 0 to 1 (1 with no babies).
  public var coverage: Double {
    babies == 0 ? 1 : Double(babies - withoutAmount) / Double(babies)
  }
}
