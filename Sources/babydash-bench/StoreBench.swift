import BabyDashboard
import BabyDashboardFixtures
import Foundation
import PlainStore

/// The store's figures at one size: bulk insert, open to dashboard, open and fetch all sorted,
/// one durable commit (and, in StoreBench+Filtered.swift, one baby's month).
@MainActor
struct StoreBench {
  let history: BenchHistory
  let runs: Int
  let commits: Int

  /// Writes the history into a fresh store at `directory` in one save; returns the milliseconds.
  func bulkInsert(into directory: URL) throws -> Double {
    try? FileManager.default.removeItem(at: directory)
    let container = try StoreContainer.babyDashboard(inAppGroup: directory)
    let context = container.newBackgroundContext()
    return try Timing.milliseconds {
      history.babies.forEach(context.insert)
      history.feeds.forEach(context.insert)
      history.diapers.forEach(context.insert)
      try context.save()
    }
  }

  /// Opens the store and builds the dashboard's tiles: babies, each one's last feed, feed in
  /// progress, last amount and last diaper.
  func openDashboard(_ directory: URL) throws -> Double {
    try Timing.median(runs: runs) {
      let container = try StoreContainer.babyDashboard(inAppGroup: directory)
      let model = DashboardModel(
        container: container, cache: LastFeedAmountCache(store: InMemoryKeyValueStore()), now: { BenchHistory.now })
      try model.reload()
      precondition(model.tiles.count == history.babies.count)
    }
  }

  /// Opens the store and fetches every feed, newest first.
  func openFetchAll(_ directory: URL) throws -> Double {
    try Timing.median(runs: runs) {
      let feeds = try Self.fetchAllFeeds(directory)
      precondition(feeds == history.feeds.count)
    }
  }

  static func fetchAllFeeds(_ directory: URL) throws -> Int {
    let container = try StoreContainer.babyDashboard(inAppGroup: directory)
    let descriptor = FetchDescriptor<FeedSession>(sortBy: [SortDescriptor(\.startTime, order: .reverse)])
    return try container.newBackgroundContext().fetch(descriptor).count
  }

  /// Inserts one feed and saves, `commits` times, on the store as it is; returns every timing.
  func commit(_ directory: URL) throws -> [Double] {
    let container = try StoreContainer.babyDashboard(inAppGroup: directory)
    let context = container.newBackgroundContext()
    var samples: [Double] = []
    for serial in 0..<commits {
      let feed = FeedSession(
        uuid: BenchHistory.id(9, serial), profileID: history.babies[serial % 2].id,
        startTime: BenchHistory.now.addingTimeInterval(Double(serial) * 60),
        endTime: BenchHistory.now.addingTimeInterval(Double(serial) * 60 + 30), amountValue: 100, amountUnitSymbol: "mL")
      samples.append(
        try Timing.milliseconds {
          context.insert(feed)
          try context.save()
        })
    }
    return samples
  }
}
