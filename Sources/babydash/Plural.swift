import BabyDashboard

/// "1 feed", "2 feeds", "1 baby", "2 babies": counts as people read them.
enum Plural {
  static func count(_ number: Int, _ one: String, _ many: String? = nil) -> String {
    "\(number) \(number == 1 ? one : many ?? one + "s")"
  }

  /// "2 babies, 5 feeds and 1 diaper change".
  static func counts(_ counts: StoreContentCounts) -> String {
    "\(count(counts.babies, "baby", "babies")), \(count(counts.feeds, "feed")) and \(count(counts.diapers, "diaper change"))"
  }
}
