@testable import BabyDashboard
import Foundation
import PlainStore
import SwiftDataStoreBuilder
import Testing

/// The SwiftData store through the whole import: the same pipeline, the same ids, the same store
/// as the JSON export of the same data.
@Suite struct SwiftDataStoreImportTests {
  @Test func theSameDataAsSQLiteAndAsAJSONExportImportToIdenticalStores() throws {
    let store = try SwiftDataStoreFolder()
    let fromJSON = try LegacyImportHarness()
    let fromSQLite = try LegacyImportHarness()
    defer {
      store.remove()
      fromJSON.remove()
      fromSQLite.remove()
    }
    try store.build(try SwiftDataStoreFolder.familyExport())
    let jsonReport = try fromJSON.importer().run(LegacyImportHarness.reader("legacy", "family.json"))
    let sqliteReport = try fromSQLite.importer().run(store.reader())
    #expect(try fromSQLite.contents() == fromJSON.contents())
    #expect(try fromSQLite.storeFiles() == fromJSON.storeFiles())
    #expect(try LastFeedAmountCache(store: fromSQLite.keyValueStore).allAmounts()
      == LastFeedAmountCache(store: fromJSON.keyValueStore).allAmounts())
    #expect(sqliteReport.babyProfiles == jsonReport.babyProfiles)
    #expect(sqliteReport.feedSessions == jsonReport.feedSessions)
    #expect(sqliteReport.diaperChanges == jsonReport.diaperChanges)
    #expect(sqliteReport.cacheBackfill == jsonReport.cacheBackfill)
    #expect(sqliteReport.feedSessions == LegacyImportCounts(read: 9, inserted: 8, duplicates: 1, orphans: 2))
  }

  @Test(arguments: SwiftDataStoreBuilder.DiaperTypeShape.allCases)
  func everyDiaperTypeShapeImportsToTheSameStore(shape: SwiftDataStoreBuilder.DiaperTypeShape) throws {
    let store = try SwiftDataStoreFolder()
    let fromJSON = try LegacyImportHarness()
    let fromSQLite = try LegacyImportHarness()
    defer {
      store.remove()
      fromJSON.remove()
      fromSQLite.remove()
    }
    var builder = SwiftDataStoreBuilder()
    builder.diaperTypeShape = shape
    try store.build(try SwiftDataStoreFolder.familyExport(), with: builder)
    try fromJSON.importer().run(LegacyImportHarness.reader("legacy", "family.json"))
    try fromSQLite.importer().run(store.reader())
    #expect(try fromSQLite.storeFiles() == fromJSON.storeFiles())
  }

  @Test func importingTheStoreAgainAddsNothingAndChangesNoFile() throws {
    let store = try SwiftDataStoreFolder()
    let harness = try LegacyImportHarness()
    defer {
      store.remove()
      harness.remove()
    }
    try store.build(try SwiftDataStoreFolder.familyExport())
    try harness.importer().run(store.reader())
    let after = try harness.storeFiles()
    let again = try harness.importer().run(store.reader(), force: true)
    #expect(again.insertedCount == 0)
    #expect(again.feedSessions == LegacyImportCounts(read: 9, alreadyPresent: 8, duplicates: 1, orphans: 2))
    #expect(try harness.storeFiles() == after)
  }

  @Test func aDryRunOfTheStoreWritesNothing() throws {
    let store = try SwiftDataStoreFolder()
    let harness = try LegacyImportHarness()
    defer {
      store.remove()
      harness.remove()
    }
    try store.build(try SwiftDataStoreFolder.familyExport())
    let before = try harness.storeFiles()
    let report = try harness.importer().run(store.reader(), dryRun: true)
    #expect(report.outcome == .dryRun)
    #expect(report.feedSessions == LegacyImportCounts(read: 9, inserted: 8, duplicates: 1, orphans: 2))
    #expect(try harness.storeFiles() == before)
    #expect(try harness.keyValueStore.allKeys().isEmpty)
    #expect(try store.leftovers().isEmpty)
  }
}
