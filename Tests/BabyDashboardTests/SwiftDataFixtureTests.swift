@testable import BabyDashboard
import BabyDashboardTesting
import Foundation
import SwiftDataStoreBuilder
import Testing

/// Fixtures/swiftdata/BabyDashboard.sqlite (with its -wal and -shm): the family sample as a
/// SwiftData store, checked in so that `babydash import` can be tried on a fresh clone.
///
/// Made by ``SwiftDataStoreBuilder`` (our construction, to the research's conventions): run
/// `SWIFTDATA_FIXTURE_RECORD=1 swift test --filter SwiftDataFixtureTests` to write it again.
@Suite struct SwiftDataFixtureTests {
  static let store = LegacyImportHarness.fixture("swiftdata", "BabyDashboard.sqlite")

  /// The family sample, its rows only in the -wal, two feeds waiting for a CloudKit upload.
  static func record() throws {
    var builder = SwiftDataStoreBuilder()
    builder.cloudKit = (pendingUploads: ["FeedSession": 2], pendingCloudDeletes: [:])
    try builder.write(try SwiftDataStoreFolder.familyExport(), to: store)
  }

  @Test func theCheckedInStoreImportsToTheSameStoreAsTheFamilyExport() throws {
    if ProcessInfo.processInfo.environment["SWIFTDATA_FIXTURE_RECORD"] == "1" { try Self.record() }
    let fromJSON = try LegacyImportHarness()
    let fromSQLite = try LegacyImportHarness()
    defer {
      fromJSON.remove()
      fromSQLite.remove()
    }
    let temporary = try TemporaryDirectory("SwiftDataFixture")
    defer { temporary.remove() }
    try fromJSON.importer().run(LegacyImportHarness.reader("legacy", "family.json"))
    let reader = SwiftDataStoreReader(fileURL: Self.store, source: "swiftdata/BabyDashboard.sqlite", temporaryDirectory: temporary.url)
    let report = try fromSQLite.importer().run(reader)
    #expect(report.feedSessions == LegacyImportCounts(read: 9, inserted: 8, duplicates: 1, orphans: 2))
    #expect(try fromSQLite.storeFiles() == fromJSON.storeFiles())
    let summary = try reader.load().summary
    #expect(summary.hadWAL && summary.hadSHM)
    #expect(summary.warnings.count == 1)
  }
}
