import BabyDashboard
import Foundation
import PlainStore

/// The history screen's kind of read: one baby's feeds of one month, newest first, after an open
/// (`open_filtered_ms`, as ../shared/peer-bench times it) and again on the open store
/// (`filtered_warm_ms`).
extension StoreBench {
  /// The month read: two calendar months before `now` (2026-07), whole at every size ≥ 20k.
  static let filteredMonth: Range<Date> = {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let lower = calendar.date(from: DateComponents(year: 2026, month: 7, day: 1))!
    let upper = calendar.date(from: DateComponents(year: 2026, month: 8, day: 1))!
    return lower..<upper
  }()

  /// With `dateRange: true` the descriptor names the month, so the store reads only its
  /// segment; with false it is the plain `#Predicate` on startTime an app developer writes
  /// first, which SQLite answers from its index and the store must not answer by reading years.
  func openFiltered(_ directory: URL, dateRange: Bool) throws -> (cold: Double, warm: Double, rows: Int) {
    let descriptor = Self.monthOfFeeds(of: history.babies[0].id, dateRange: dateRange)
    var rows = -1
    let cold = try Timing.median(runs: runs) {
      let container = try StoreContainer.babyDashboard(inAppGroup: directory)
      rows = try container.newBackgroundContext().fetch(descriptor).count
    }
    let context = try StoreContainer.babyDashboard(inAppGroup: directory).newBackgroundContext()
    _ = try context.fetch(descriptor)
    let warm = try Timing.median(runs: runs) {
      let count = try context.fetch(descriptor).count
      precondition(count == rows, "the warm fetch found \(count) rows, the cold one \(rows)")
    }
    return (cold, warm, rows)
  }

  static func monthOfFeeds(of babyID: UUID, dateRange: Bool) -> FetchDescriptor<FeedSession> {
    let id: UUID? = babyID
    let lower = filteredMonth.lowerBound
    let upper = filteredMonth.upperBound
    var descriptor = FetchDescriptor<FeedSession>(
      predicate: #Predicate { $0.profileID == id && $0.startTime >= lower && $0.startTime < upper },
      sortBy: [SortDescriptor(\.startTime, order: .reverse)])
    if dateRange { descriptor.dateRange = filteredMonth }
    return descriptor
  }
}
