@testable import BabyDashboard
import Foundation
import PlainStore
import Testing

/// What one import of the family sample puts in the store and the cache.
@Suite struct LegacyImportRunTests {
  static let mia = UUID(uuidString: "11111111-1111-4111-8111-111111111111")!
  static let noah = UUID(uuidString: "22222222-2222-4222-8222-222222222222")!
  static let mia2 = UUID(uuidString: "33333333-3333-4333-8333-333333333333")!
  static let sora = UUID(uuidString: "44444444-4444-4444-8444-444444444444")!

  static func date(_ text: String) -> Date { ISO8601.parse(text)! }

  @Test func theFamilySampleIsCountedPerEntity() throws {
    let harness = try LegacyImportHarness()
    defer { harness.remove() }
    let report = try harness.importer().run(LegacyImportHarness.reader("legacy", "family.json"))
    #expect(report.outcome == .imported)
    #expect(report.babyProfiles == LegacyImportCounts(read: 4, inserted: 4))
    #expect(report.feedSessions == LegacyImportCounts(read: 9, inserted: 8, duplicates: 1, orphans: 2))
    #expect(report.diaperChanges == LegacyImportCounts(read: 7, inserted: 6, duplicates: 1, orphans: 2))
    let contents = try harness.contents()
    #expect(contents.babies.count == 4)
    #expect(contents.feeds.count == 8)
    #expect(contents.diapers.count == 6)
  }

  @Test func createdAtIsTheEarliestFeedOrDiaperElseTheMigrationStart() throws {
    let harness = try LegacyImportHarness()
    defer { harness.remove() }
    try harness.importer().run(LegacyImportHarness.reader("legacy", "family.json"))
    let babies = try harness.contents().babies
    // Mia's earliest record is a diaper at 23:55 +09:00, before her first feed at 15:00Z; Noah's
    // a diaper with a fraction; the second Mia has only a feed; Sora has nothing.
    #expect(babies.map(\.id) == [Self.mia, Self.noah, Self.mia2, Self.sora])
    #expect(babies.map(\.createdAt) == [
      Self.date("2025-11-01T14:55:00Z"), Self.date("2025-11-03T07:45:30.5Z"),
      Self.date("2025-11-04T10:00:00Z"), LegacyImportHarness.now,
    ])
    #expect(babies.map(\.name) == ["Mia", "Noah", "Mia", "Sora"])
    #expect(babies.map(\.feedTerm) == [10800, 9000, 10800, 14400])
  }

  @Test func feedsAndDiapersAreLinkedByProfileAndOrphansKeptWithNoBaby() throws {
    let harness = try LegacyImportHarness()
    defer { harness.remove() }
    try harness.importer().run(LegacyImportHarness.reader("legacy", "family.json"))
    let contents = try harness.contents()
    let feedsByStart = Dictionary(uniqueKeysWithValues: contents.feeds.map { (ISO8601.format($0.startTime), $0) })
    #expect(feedsByStart["2025-11-01T15:00:00Z"]?.profileID == Self.mia)
    #expect(feedsByStart["2025-11-02T00:30:00Z"]?.profileID == Self.mia)
    #expect(feedsByStart["2025-11-03T16:00:00Z"]?.profileID == Self.noah)
    #expect(feedsByStart["2025-11-04T10:00:00Z"]?.profileID == Self.mia2)
    // A null profile id and an id no profile has.
    #expect(feedsByStart["2025-10-30T12:00:00Z"].map { $0.profileID == nil } == true)
    #expect(feedsByStart["2025-10-31T12:00:00Z"].map { $0.profileID == nil } == true)
    #expect(feedsByStart["2025-11-01T15:00:00Z"]?.memoText == "first bottle #formula")
    #expect(feedsByStart["2025-11-03T16:00:00Z"]?.endTime == nil)
    let orphanDiapers = contents.diapers.filter { $0.profileID == nil }.map { ISO8601.format($0.timestamp) }.sorted()
    #expect(orphanDiapers == ["2025-10-29T08:00:00Z", "2025-10-29T09:00:00Z"])
    let miasDiapers = contents.diapers.filter { $0.profileID == Self.mia }.map { "\(ISO8601.format($0.timestamp)) \($0.type)" }.sorted()
    #expect(miasDiapers == ["2025-11-01T14:55:00Z pee", "2025-11-02T04:00:00Z pee", "2025-11-02T04:00:00Z poo"])
  }

  @Test func unitSymbolsAreStoredCanonically() throws {
    let harness = try LegacyImportHarness()
    defer { harness.remove() }
    try harness.importer().run(LegacyImportHarness.reader("legacy", "family.json"))
    let units = try harness.contents().feeds.sorted { $0.startTime < $1.startTime }.map { $0.amountUnitSymbol ?? "nil" }
    // By start: orphan "mL", orphan none, "ml", "fl. oz", "oz", none, "" (none), "ML".
    #expect(units == ["mL", "nil", "mL", "fl oz", "fl oz", "nil", "nil", "mL"])
  }

  @Test func uuidsAreTheSameOnEveryRunAndDerivedFromTheRecord() throws {
    let first = try LegacyImportHarness()
    let second = try LegacyImportHarness()
    defer {
      first.remove()
      second.remove()
    }
    try first.importer().run(LegacyImportHarness.reader("legacy", "family.json"))
    try second.importer().run(LegacyImportHarness.reader("legacy", "family.json"))
    let a = try first.contents()
    let b = try second.contents()
    #expect(a == b)
    let ids = a.feeds.map(\.uuid) + a.diapers.map(\.uuid)
    #expect(Set(ids).count == 14)
    #expect(ids.allSatisfy { $0.uuidString.dropFirst(14).first == "5" })  // version 5: name-based
    let feed = try #require(a.feeds.first { $0.startTime == Self.date("2025-11-01T15:00:00Z") })
    #expect(feed.uuid == LegacyImportPlan.uuid(of: .init(profileID: Self.mia, startTime: feed.startTime)))
  }

  @Test func theCacheIsBackfilledFromFeedsThenFromTheLegacyFields() throws {
    let harness = try LegacyImportHarness()
    defer { harness.remove() }
    let report = try harness.importer().run(LegacyImportHarness.reader("legacy", "family.json"))
    let cache = LastFeedAmountCache(store: harness.keyValueStore)
    // Mia: her latest feed with an amount (4 oz at 03:00:00.25Z), not the legacy 90 ml; the second
    // Mia her own 150 mL, never the first Mia's (the cache is keyed by id). Noah has no feed with
    // an amount: his legacy 4 "oz". Sora: legacy.
    #expect(try cache.amountsByBabyID() == [
      UUID(uuidString: "11111111-1111-4111-8111-111111111111")!: LastFeedAmount(amountValue: 4, amountUnitSymbol: "fl oz"),
      UUID(uuidString: "22222222-2222-4222-8222-222222222222")!: LastFeedAmount(amountValue: 4, amountUnitSymbol: "fl oz"),
      UUID(uuidString: "33333333-3333-4333-8333-333333333333")!: LastFeedAmount(amountValue: 150, amountUnitSymbol: "mL"),
      UUID(uuidString: "44444444-4444-4444-8444-444444444444")!: LastFeedAmount(amountValue: 100, amountUnitSymbol: "mL"),
    ])
    #expect(try cache.allAmounts().isEmpty, "nothing is written under a name")
    #expect(report.cacheBackfill == LegacyCacheBackfillSummary(
      babies: 4, fromFeeds: ["Mia", "Mia"], fromLegacyFields: ["Noah", "Sora"], alreadyCached: 0, withoutAmount: 0))
    #expect(report.cacheBackfill?.coverage == 1)
  }

  @Test func cachedAmountsAreNeverReplaced() throws {
    let harness = try LegacyImportHarness()
    defer { harness.remove() }
    let cache = LastFeedAmountCache(store: harness.keyValueStore)
    try cache.set(value: 80, unitSymbol: "mL", forBabyName: "Noah")
    let report = try harness.importer().run(LegacyImportHarness.reader("legacy", "family.json"))
    // The Phase A value under Noah's name has moved to his id, unchanged.
    #expect(try cache.amountsByBabyID()[UUID(uuidString: "22222222-2222-4222-8222-222222222222")!] == LastFeedAmount(amountValue: 80, amountUnitSymbol: "mL"))
    #expect(try cache.get(forBabyName: "Noah") == nil)
    #expect(report.cacheBackfill == LegacyCacheBackfillSummary(
      babies: 4, fromFeeds: ["Mia", "Mia"], fromLegacyFields: ["Sora"], alreadyCached: 1, withoutAmount: 0))
  }

  @Test func aBabyWithoutAnyAmountIsCountedWithoutOne() throws {
    let harness = try LegacyImportHarness()
    defer { harness.remove() }
    let export = LegacyExport(exportedAt: LegacyImportHarness.now, babyProfiles: [LegacyBabyProfile(id: Self.mia, name: "Mia")])
    let reader = LegacyJSONExportReader(data: try export.encoded(), source: "mia.json")
    let report = try harness.importer().run(reader)
    #expect(report.cacheBackfill == LegacyCacheBackfillSummary(
      babies: 1, fromFeeds: [], fromLegacyFields: [], alreadyCached: 0, withoutAmount: 1))
    #expect(report.cacheBackfill?.coverage == 0)
    #expect(try LastFeedAmountCache(store: harness.keyValueStore).allAmounts().isEmpty)
  }

  @Test func migrationCompletedIsRecordedWithTheSchemaVersion() throws {
    let harness = try LegacyImportHarness()
    defer { harness.remove() }
    let report = try harness.importer().run(LegacyImportHarness.reader("legacy", "family.json"))
    let expected = MigrationRecord(schemaVersion: BabyDashboardSchema.version, completedAt: LegacyImportHarness.now)
    #expect(report.migrationRecord == expected)
    #expect(try MigrationRecord.load(from: harness.keyValueStore) == expected)
  }

  @Test func aCompletedMigrationIsSkippedUnlessForced() throws {
    let harness = try LegacyImportHarness()
    defer { harness.remove() }
    let record = MigrationRecord(schemaVersion: BabyDashboardSchema.version, completedAt: Self.date("2026-01-01T00:00:00Z"))
    try record.save(to: harness.keyValueStore)
    let skipped = try harness.importer().run(LegacyImportHarness.reader("legacy", "family.json"))
    #expect(skipped.outcome == .skippedAlreadyCompleted(record))
    #expect(try harness.contents().babies.isEmpty)

    let forced = try harness.importer().run(LegacyImportHarness.reader("legacy", "family.json"), force: true)
    #expect(forced.outcome == .imported)
    #expect(forced.forced)
    #expect(forced.babyProfiles.inserted == 4)
    #expect(try MigrationRecord.load(from: harness.keyValueStore)?.completedAt == LegacyImportHarness.now)
  }

  @Test func aRecordForAnOlderSchemaDoesNotStopTheImport() throws {
    let harness = try LegacyImportHarness()
    defer { harness.remove() }
    try MigrationRecord(schemaVersion: BabyDashboardSchema.version - 1, completedAt: LegacyImportHarness.now)
      .save(to: harness.keyValueStore)
    let report = try harness.importer().run(LegacyImportHarness.reader("legacy", "family.json"))
    #expect(report.outcome == .imported)
  }

  @Test func theFeatureFlagOffMeansNothingIsReadOrWritten() throws {
    let harness = try LegacyImportHarness()
    defer { harness.remove() }
    let before = try harness.storeFiles()
    // The source does not even exist: with the flag off it is never opened.
    let missing = LegacyJSONExportReader(fileURL: harness.folder.url.appendingPathComponent("none.json"), source: "none.json")
    let passed = try harness.importer(flags: FeatureFlags(legacyImporter: false)).run(missing)
    #expect(passed.outcome == .skippedFeatureFlagOff)
    try FeatureFlags.set(.legacyImporter, to: false, in: harness.keyValueStore)
    let stored = try harness.importer().run(LegacyImportHarness.reader("legacy", "family.json"), force: true)
    #expect(stored.outcome == .skippedFeatureFlagOff)
    #expect(stored.description.contains("the legacy importer is off"))
    #expect(try harness.storeFiles() == before)
    #expect(try harness.keyValueStore.allKeys() == [FeatureFlags.Flag.legacyImporter.key])
  }

  @Test func aDryRunCountsAndWritesNothing() throws {
    let harness = try LegacyImportHarness()
    defer { harness.remove() }
    let before = try harness.storeFiles()
    let report = try harness.importer().run(LegacyImportHarness.reader("legacy", "family.json"), dryRun: true)
    #expect(report.outcome == .dryRun)
    #expect(report.feedSessions == LegacyImportCounts(read: 9, inserted: 8, duplicates: 1, orphans: 2))
    #expect(report.cacheBackfill == nil)
    #expect(report.migrationRecord == nil)
    #expect(try harness.storeFiles() == before)
    #expect(try harness.keyValueStore.allKeys().isEmpty)

    // Against a store that holds it all, a dry run counts everything as present.
    try harness.importer().run(LegacyImportHarness.reader("legacy", "family.json"))
    let again = try harness.importer().run(LegacyImportHarness.reader("legacy", "family.json"), dryRun: true, force: true)
    #expect(again.feedSessions == LegacyImportCounts(read: 9, alreadyPresent: 8, duplicates: 1, orphans: 2))
  }

  @Test func anEmptyExportCompletes() throws {
    let harness = try LegacyImportHarness()
    defer { harness.remove() }
    let report = try harness.importer().run(LegacyImportHarness.reader("legacy", "empty.json"))
    #expect(report.outcome == .imported)
    #expect(report.readCount == 0)
    #expect(report.migrationRecord != nil)
    #expect(report.cacheBackfill?.coverage == 1)
  }
}
