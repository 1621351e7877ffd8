@testable import BabyDashboard
import Foundation
import PlainStore
import Testing

/// The report's text, which `babydash import` prints: exact and stable.
@Suite struct LegacyImportReportTests {
  /// A clock that starts at the harness's `now` and moves on by `step` at every reading.
  static func steppingClock(step: TimeInterval) -> @Sendable () -> Date {
    let readings = StoreMutex(0)
    return {
      let count = readings.withLock { value in
        defer { value += 1 }
        return value
      }
      return LegacyImportHarness.now + Double(count) * step
    }
  }

  @Test func theImportReportReadsAsTheCLIPrintsIt() throws {
    let harness = try LegacyImportHarness()
    defer { harness.remove() }
    let importer = LegacyImporter(
      container: harness.container, keyValueStore: harness.keyValueStore, clock: Self.steppingClock(step: 1.25))  // read at the start and at the end
    let report = try importer.run(LegacyImportHarness.reader("legacy", "family.json"))
    #expect(report.duration == 1.25)
    #expect(report.description == """
      legacy import of 'legacy/family.json': imported
      started:  2026-01-15T09:30:00.000Z
      finished: 2026-01-15T09:30:01.250Z
      duration: 1.250 s
      entity        read  inserted  present  duplicates  orphans
      BabyProfile      4         4        0           0        0
      FeedSession      9         8        0           1        2
      DiaperChange     7         6        0           1        2
      cache backfill: 4 of 4 babies have an amount (coverage 100%): 2 from feeds, 2 from legacy fields, 0 already cached
      migrationCompleted: schema 1 at 2026-01-15T09:30:01.250Z
      errors: none
      """)
  }

  @Test func aDryRunSaysNothingWasWritten() throws {
    let harness = try LegacyImportHarness()
    defer { harness.remove() }
    let report = try harness.importer().run(LegacyImportHarness.reader("legacy", "family.json"), dryRun: true)
    #expect(report.description == """
      legacy import of 'legacy/family.json': dry run, nothing written
      started:  2026-01-15T09:30:00.000Z
      finished: 2026-01-15T09:30:00.000Z
      duration: 0.000 s
      entity        read  inserted  present  duplicates  orphans
      BabyProfile      4         4        0           0        0
      FeedSession      9         8        0           1        2
      DiaperChange     7         6        0           1        2
      cache backfill: not run (dry run)
      migrationCompleted: not recorded (dry run)
      errors: none
      """)
  }

  @Test func skippedRunsSayWhyAndWhatToDo() throws {
    let harness = try LegacyImportHarness()
    defer { harness.remove() }
    let off = try harness.importer(flags: FeatureFlags(legacyImporter: false)).run(LegacyImportHarness.reader("legacy", "family.json"))
    #expect(off.description == """
      legacy import of 'legacy/family.json': skipped: the legacy importer is off (feature flag 'featureFlag.legacyImporter'); nothing was read or written
      started:  2026-01-15T09:30:00.000Z
      finished: 2026-01-15T09:30:00.000Z
      duration: 0.000 s
      """)
    try harness.importer().run(LegacyImportHarness.reader("legacy", "empty.json"))
    let done = try harness.importer().run(LegacyImportHarness.reader("legacy", "family.json"))
    #expect(done.description.hasPrefix(
      "legacy import of 'legacy/family.json': skipped: already completed for schema 1 at 2026-01-15T09:30:00.000Z; use --force to import again\n"))
  }

  @Test func cacheErrorsAreListedAndLeaveTheMigrationUnrecorded() throws {
    let harness = try LegacyImportHarness()
    defer { harness.remove() }
    // A damaged cache value for Noah: the backfill cannot read it.
    try harness.keyValueStore.set(Data("not json".utf8), forKey: LastFeedAmountCache.key(forBabyName: "Noah"))
    let report = try harness.importer().run(LegacyImportHarness.reader("legacy", "family.json"))
    #expect(report.outcome == .imported)
    #expect(report.cacheBackfill == nil)
    #expect(report.migrationRecord == nil)
    #expect(report.errors.count == 1)
    #expect(report.errors[0].hasPrefix("cache backfill: damaged at 'lastFeedAmount.Noah': not a last-feed amount"))
    #expect(report.description.hasSuffix("errors: 1\n  - \(report.errors[0])"))
    #expect(try MigrationRecord.load(from: harness.keyValueStore) == nil)
  }

  @Test(arguments: [(0.0, "0.000 s"), (0.0004, "0.000 s"), (0.0125, "0.013 s"), (61.5, "61.500 s"), (-1, "0.000 s")])
  func durationsAreWrittenInMillisecondsWithoutALocale(interval: TimeInterval, text: String) {
    #expect(LegacyImportReport.seconds(interval) == text)
  }
}
