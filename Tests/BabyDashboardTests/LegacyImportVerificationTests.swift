@testable import BabyDashboard
import Foundation
import PlainStore
import Testing

/// The check after the import: a store that does not hold what the source does is an error that
/// names the record, and `migrationCompleted` is not recorded.
@Suite struct LegacyImportVerificationTests {
  @Test func aMissingRecordIsAnErrorThatNamesIt() throws {
    let harness = try LegacyImportHarness()
    defer { harness.remove() }
    var importer = harness.importer()
    let start = ISO8601.parse("2025-11-04T10:00:00Z")!
    importer.hooks.beforeVerification = { context in
      let feed = try #require(try context.allFeeds().first { $0.startTime == start })
      context.delete(feed)
      try context.save()
    }
    let error = try #require(throws: LegacyImportError.self) {
      try importer.run(LegacyImportHarness.reader("legacy", "family.json"))
    }
    #expect(error.code == .verificationFailed)
    #expect(error.report?.errors == [
      "FeedSession feedSessions[7] (startTime 2025-11-04T10:00:00Z) is missing from the store",
      "FeedSession count: expected 8 from the source in the store, found 7",
    ])
    #expect(error.description.hasPrefix(
      "verification failed for 'legacy/family.json': 2 mismatches between the source and the store, first: "
        + "FeedSession feedSessions[7] (startTime 2025-11-04T10:00:00Z) is missing from the store"))
    #expect(try MigrationRecord.load(from: harness.keyValueStore) == nil)
  }

  @Test func aRecordLinkedToAnotherBabyIsAnErrorThatNamesBoth() throws {
    let harness = try LegacyImportHarness()
    defer { harness.remove() }
    var importer = harness.importer()
    let noah = LegacyImportRunTests.noah
    importer.hooks.beforeVerification = { context in
      var diaper = try #require(try context.allDiapers().first { $0.profileID == nil && $0.type == .poo })
      diaper.profileID = noah
      context.update(diaper)
      try context.save()
    }
    let error = try #require(throws: LegacyImportError.self) {
      try importer.run(LegacyImportHarness.reader("legacy", "family.json"))
    }
    #expect(error.report?.errors.first
      == "DiaperChange diaperChanges[5] (poo at 2025-10-29T08:00:00Z) is linked to BabyProfile \(noah.uuidString) in the store; expected no baby")
  }
}
