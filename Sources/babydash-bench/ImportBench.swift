import BabyDashboard
import BabyDashboardFixtures
import Foundation
import PlainStore

/// The legacy importer's figure: a SwiftData-era export of the benchmark's history, imported
/// into a fresh store (read, validate, write in batches, verify, backfill the cache).
struct ImportBench {
  let history: BenchHistory

  /// The history as the legacy app would have exported it.
  func legacyFile(at url: URL) throws {
    let export = LegacyExport(
      exportedAt: BenchHistory.now,
      babyProfiles: history.babies.map { LegacyBabyProfile(id: $0.id, name: $0.name, feedTerm: $0.feedTerm) },
      feedSessions: history.feeds.map {
        LegacyFeedSession(
          profileID: $0.profileID, startTime: $0.startTime, endTime: $0.endTime, amountValue: $0.amountValue,
          amountUnitSymbol: "ml", memoText: $0.memoText)
      },
      diaperChanges: history.diapers.map { LegacyDiaperChange(profileID: $0.profileID, timestamp: $0.timestamp, type: $0.type) })
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try export.encoded().write(to: url)
  }

  /// Imports `file` into a fresh store in `directory`; returns the milliseconds.
  func run(_ file: URL, into directory: URL) throws -> Double {
    try? FileManager.default.removeItem(at: directory)
    let container = try StoreContainer.babyDashboard(inAppGroup: directory)
    let importer = LegacyImporter(
      container: container, keyValueStore: InMemoryKeyValueStore(), flags: .defaults, clock: { BenchHistory.now })
    return try Timing.milliseconds {
      let report = try importer.run(LegacyJSONExportReader(fileURL: file))
      precondition(report.insertedCount == history.objectCount, "import inserted \(report.insertedCount)")
    }
  }
}
