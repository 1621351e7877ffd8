/// What a referrer becomes in the fold.
enum FoldedReferrer { case deleted, referenceCleared }

extension DeleteRule {
  /// What every device's fold makes of a referrer once its referent is deleted: the delete
  /// rules' one implementation after a delete stands, for a materialized object and for the key
  /// it held at a moment (`MergedState+Aliases`). Deny is the rule of a local save — refused
  /// while something refers (`CommitPlanner.checkDenyRules`); a referrer another device saved
  /// unaware of the delete arrives after it, and deletes win: its reference is cleared, as
  /// nullify's (DeleteRules.md).
  var referrerInFold: FoldedReferrer {
    switch self {
    case .cascade: .deleted
    case .nullify, .deny: .referenceCleared
    }
  }
}
