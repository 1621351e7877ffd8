/// What a backfill of ``LastFeedAmountCache`` did: the telemetry of <doc:RolloutPhases>.
public struct LastFeedAmountBackfillReport: Sendable, Hashable {
  /// How many babies the store holds.
  public var babies: Int
  /// The names that received a value from their most recent feed with an amount, in the order
  /// of the babies (createdAt ascending).
  public var backfilledNames: [String]
  /// Babies whose name already had a value (left as it was).
  public var alreadyCached: Int
  /// Babies without a value and without any feed with an amount (nothing to backfill).
  public var withoutAmount: Int

  public init(babies: Int, backfilledNames: [String], alreadyCached: Int, withoutAmount: Int) {
    self.babies = babies
    self.backfilledNames = backfilledNames
    self.alreadyCached = alreadyCached
    self.withoutAmount = withoutAmount
  }

  /// How many babies were backfilled.
  public var backfilled: Int { backfilledNames.count }

  /// The coverage: babies backfilled / babies, from 0 to 1 (0 when there are no babies).
  public var coverage: Double {
    babies == 0 ? 0 : Double(backfilled) / Double(babies)
  }
}
