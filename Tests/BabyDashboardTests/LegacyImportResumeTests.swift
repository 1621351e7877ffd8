@testable import BabyDashboard
import Foundation
import PlainStore
import Testing

/// Idempotency: re-running, resuming after a crash, and records the app already has.
@Suite struct LegacyImportResumeTests {
  struct SimulatedCrash: Error {}

  @Test func reimportingChangesNotASingleByte() throws {
    let harness = try LegacyImportHarness()
    defer { harness.remove() }
    try harness.importer().run(LegacyImportHarness.reader("legacy", "family.json"))
    let after = try harness.storeFiles()
    #expect(after.keys.contains { $0.hasPrefix("/local/log/") })
    let again = try harness.importer().run(LegacyImportHarness.reader("legacy", "family.json"), force: true)
    #expect(try harness.storeFiles() == after)
    #expect(again.insertedCount == 0)
    #expect(again.babyProfiles == LegacyImportCounts(read: 4, alreadyPresent: 4))
    #expect(again.feedSessions == LegacyImportCounts(read: 9, alreadyPresent: 8, duplicates: 1, orphans: 2))
    #expect(again.diaperChanges == LegacyImportCounts(read: 7, alreadyPresent: 6, duplicates: 1, orphans: 2))
    #expect(again.cacheBackfill == LegacyCacheBackfillSummary(
      babies: 4, fromFeeds: [], fromLegacyFields: [], alreadyCached: 4, withoutAmount: 0))
  }

  @Test func aRunKilledAfterTheFirstBatchResumesToTheCleanResult() throws {
    let clean = try LegacyImportHarness()
    let broken = try LegacyImportHarness()
    defer {
      clean.remove()
      broken.remove()
    }
    try clean.importer(batchSize: 3).run(LegacyImportHarness.reader("legacy", "family.json"))

    var crashing = broken.importer(batchSize: 3)
    crashing.hooks.afterBatch = { batch in if batch == 1 { throw SimulatedCrash() } }
    #expect(throws: SimulatedCrash.self) { try crashing.run(LegacyImportHarness.reader("legacy", "family.json")) }
    #expect(try broken.contents().babies.count == 3)
    #expect(try MigrationRecord.load(from: broken.keyValueStore) == nil)
    #expect(try broken.keyValueStore.allKeys().isEmpty)

    // Reopen the store as a relaunched app would, then run again.
    let reopened = try LegacyImportHarness.openStore(in: broken.folder.url)
    let now = LegacyImportHarness.now
    let resumed = try LegacyImporter(container: reopened, keyValueStore: broken.keyValueStore, batchSize: 3, clock: { now })
      .run(LegacyImportHarness.reader("legacy", "family.json"))
    #expect(resumed.babyProfiles == LegacyImportCounts(read: 4, inserted: 1, alreadyPresent: 3))
    #expect(resumed.feedSessions.inserted == 8)
    #expect(try broken.contents() == clean.contents())
    #expect(try broken.keyValueStore.allKeys() == clean.keyValueStore.allKeys())
    #expect(try LastFeedAmountCache(store: broken.keyValueStore).allAmounts()
      == LastFeedAmountCache(store: clean.keyValueStore).allAmounts())
  }

  @Test func largeInputsAreSavedInBatches() throws {
    let harness = try LegacyImportHarness()
    defer { harness.remove() }
    try harness.importer(batchSize: 5).run(LegacyImportHarness.reader("legacy", "family.json"))
    let transactions = try harness.container.history(after: nil).filter { $0.author == LegacyImporter.author }
    // 4 babies + 8 feeds + 6 diapers = 18 objects: saves of 5, 5, 5 and 3.
    #expect(transactions.count == 4)
  }

  @Test func aRecordTheAppAlreadyHasIsNeitherDuplicatedNorOverwritten() throws {
    let harness = try LegacyImportHarness()
    defer { harness.remove() }
    let mia = LegacyImportRunTests.mia
    let start = ISO8601.parse("2025-11-01T15:00:00Z")!
    let context = harness.container.newBackgroundContext()
    context.insert(BabyProfile(id: mia, name: "Mia (renamed)", createdAt: start))
    let appFeed = FeedSession(profileID: mia, startTime: start, amountValue: 125, amountUnitSymbol: "mL", memoText: "edited")
    context.insert(appFeed)
    try context.save()

    let report = try harness.importer().run(LegacyImportHarness.reader("legacy", "family.json"))
    #expect(report.babyProfiles == LegacyImportCounts(read: 4, inserted: 3, alreadyPresent: 1))
    #expect(report.feedSessions.alreadyPresent == 1)
    let contents = try harness.contents()
    #expect(contents.feeds.filter { $0.startTime == start } == [appFeed])
    #expect(contents.babies.first { $0.id == mia }?.name == "Mia (renamed)")
  }
}
