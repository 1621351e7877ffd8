import BabyDashboard
import BabyDashboardText

/// `babydash stats`: the spec's telemetry — cache hits and misses, backfill coverage, the last
/// migration's log.
enum StatsCommand {
  static let command = Command(
    words: ["stats"], synopsis: "",
    summary: "Show the last-feed-amount cache's hits, misses and coverage, and the last migration's log.",
    details: "Example:\n  babydash stats"
  ) { invocation in
    let session = invocation.session
    let store = session.keyValueStore
    let lookups = try session.cache.lookups()
    let babies = try session.storeForReading().viewContext.babies()
    let cached = try session.cache.amountsByBabyID()
    let covered = babies.filter { cached[$0.id] != nil }.count
    let total = lookups.hits + lookups.misses
    var lines = ["Last-feed-amount cache"]
    lines.append(
      "  prefills  \(Plural.count(lookups.hits, "hit")), \(Plural.count(lookups.misses, "miss", "misses"))"
        + (total == 0 ? "" : " (\(percent(lookups.hits, total)) hits)"))
    lines.append(
      "  coverage  \(covered) of \(Plural.count(babies.count, "baby", "babies")) \(covered == 1 ? "has" : "have") a cached amount"
        + (babies.isEmpty ? "" : " (\(percent(covered, babies.count)))"))
    let legacy = try session.cache.allAmounts().count
    if legacy > 0 { lines.append("  by name   \(Plural.count(legacy, "entry", "entries")) not yet moved to a baby's id") }
    lines.append("")
    lines.append("Last migration")
    if let log = try MigrationLog.load(from: store) {
      lines += log.lines.map { "  " + $0 }
    } else if let record = try MigrationRecord.load(from: store) {
      lines.append("  completed for schema \(record.schemaVersion) at \(TimeText.typable(record.completedAt, now: session.now, in: session.timeZone)); no log kept")
    } else {
      lines.append("  none: no legacy import has run on this app group")
    }
    try invocation.output.print(lines.joined(separator: "\n"))
  }

  private static func percent(_ part: Int, _ whole: Int) -> String {
    "\(Int((Double(part) * 100 / Double(whole)).rounded(.down)))%"
  }
}
