import Foundation
import PlainStore

/// What the stress writers commit: `parts` items per commit, all carrying the commit's batch, so
/// a reader can tell a whole commit from a partial one.
///
/// The test target declares the same entity (the processes share the file format, not code).
struct StressItem: Entity, Hashable {
  static let entityName = "StressItem"
  var id: UUID
  var writer: String
  var batch: Int
  var part: Int
  var at: Date
}

enum StressSchema {
  /// Segmented by month, so that a compaction rewrites only some of the files; the unique key
  /// includes the month key (as FeedSession's does), so a save checks one month, not the store.
  static let v1 = Schema(version: 1, [
    EntitySchema(StressItem.self, unique: [[\.writer, \.batch, \.part, \.at]], indexed: [\.batch], segmentedBy: \StressItem.at)
  ])

  static let epoch = Date(timeIntervalSince1970: 1_768_469_400)  // 2026-01-15T09:30:00Z

  /// Spreads batches over about two years of months.
  static func date(batch: Int) -> Date {
    epoch.addingTimeInterval(Double(batch % 60) * 12 * 86_400)
  }
}
