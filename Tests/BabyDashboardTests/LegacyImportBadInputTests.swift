import BabyDashboard
import Foundation
import Testing

/// Every bad input: a clear error naming the record, told apart from a missing file, and nothing
/// written to the store or the key-value store.
@Suite struct LegacyImportBadInputTests {
  struct Case: Sendable, CustomStringConvertible {
    var file: String
    var code: LegacyImportError.Code
    var message: String
    var description: String { file }
  }

  static let fix = " — nothing was imported; fix the record or export again."

  static let cases: [Case] = [
    Case(file: "not-json.json", code: .badData, message: "bad data in 'legacy-bad/not-json.json': not a legacy export: not JSON" + fix),
    Case(file: "truncated.json", code: .badData, message: "bad data in 'legacy-bad/truncated.json': not a legacy export: not JSON" + fix),
    Case(
      file: "not-an-object.json", code: .badData,
      message: "bad data in 'legacy-bad/not-an-object.json': not a legacy export: the document is not a JSON object" + fix),
    Case(
      file: "wrong-format.json", code: .badData,
      message: "bad data in 'legacy-bad/wrong-format.json' at format: \"BabyDashboard.CoreDataExport\" is not a legacy export; "
        + "expected \"BabyDashboard.SwiftDataExport\" — export the SwiftData store again with the app's export"),
    Case(
      file: "newer-version.json", code: .newerVersion(2),
      message: "newer format version 2 in 'legacy-bad/newer-version.json' at version: this babydash reads format version 1 "
        + "and older — update babydash to import it; nothing was imported."),
    Case(
      file: "bad-profile-uuid.json", code: .badData,
      message: "bad data in 'legacy-bad/bad-profile-uuid.json' at babyProfiles[0].id: \"not-a-uuid\" is not a UUID" + fix),
    Case(
      file: "bad-feed-profile-id.json", code: .badData,
      message: "bad data in 'legacy-bad/bad-feed-profile-id.json' at feedSessions[1].profileID: \"1111-2222\" is not a UUID" + fix),
    Case(
      file: "bad-start-time.json", code: .badData,
      message: "bad data in 'legacy-bad/bad-start-time.json' at feedSessions[3].startTime: \"2025-11-02 09:30\" is not an "
        + "ISO 8601 date with a zone (e.g. \"2026-01-15T09:30:00Z\")" + fix),
    Case(
      file: "date-without-zone.json", code: .badData,
      message: "bad data in 'legacy-bad/date-without-zone.json' at diaperChanges[0].timestamp: \"2025-11-02T09:30:00\" is not an "
        + "ISO 8601 date with a zone (e.g. \"2026-01-15T09:30:00Z\")" + fix),
    Case(
      file: "bad-diaper-type.json", code: .badData,
      message: "bad data in 'legacy-bad/bad-diaper-type.json' at diaperChanges[1].type: \"wet\" is not a diaper type; "
        + "expected \"pee\" or \"poo\"" + fix),
    Case(
      file: "negative-amount.json", code: .badData,
      message: "bad data in 'legacy-bad/negative-amount.json' at feedSessions[0].amountValue: -30.0 is not an amount; "
        + "expected zero or more" + fix),
    Case(
      file: "negative-feed-term.json", code: .badData,
      message: "bad data in 'legacy-bad/negative-feed-term.json' at babyProfiles[0].feedTerm: -10800.0 is not a feed term; "
        + "expected a positive number of seconds" + fix),
    Case(
      file: "missing-start-time.json", code: .badData,
      message: "bad data in 'legacy-bad/missing-start-time.json' at feedSessions[0].startTime: the key is missing" + fix),
    Case(
      file: "amount-as-text.json", code: .badData,
      message: "bad data in 'legacy-bad/amount-as-text.json' at feedSessions[0].amountValue: expected a number" + fix),
  ]

  @Test(arguments: cases)
  func badDataIsAnErrorThatNamesTheRecordAndWritesNothing(_ bad: Case) throws {
    let harness = try LegacyImportHarness()
    defer { harness.remove() }
    let before = try harness.storeFiles()
    let error = try #require(throws: LegacyImportError.self) {
      try harness.importer().run(LegacyImportHarness.reader("legacy-bad", bad.file))
    }
    #expect(error.description == bad.message)
    #expect(error.code == bad.code)
    #expect(error.isBadData)
    #expect(try harness.storeFiles() == before)
    #expect(try harness.keyValueStore.allKeys().isEmpty)
  }

  @Test func aDryRunReportsBadDataTheSameWay() throws {
    let harness = try LegacyImportHarness()
    defer { harness.remove() }
    let error = try #require(throws: LegacyImportError.self) {
      try harness.importer().run(LegacyImportHarness.reader("legacy-bad", "bad-start-time.json"), dryRun: true)
    }
    #expect(error.path == "feedSessions[3].startTime")
  }

  @Test func aMissingFileIsUnreadableNotBadData() throws {
    let harness = try LegacyImportHarness()
    defer { harness.remove() }
    let error = try #require(throws: LegacyImportError.self) {
      try harness.importer().run(LegacyImportHarness.reader("legacy-bad", "no-such-file.json"))
    }
    #expect(error.code == .unreadable)
    #expect(!error.isBadData)
    #expect(error.description == "cannot read 'legacy-bad/no-such-file.json': no such file — check the path.")
  }

  @Test func aFolderIsUnreadableNotBadData() throws {
    let harness = try LegacyImportHarness()
    defer { harness.remove() }
    let reader = LegacyJSONExportReader(fileURL: harness.folder.url, source: "legacy")
    let error = try #require(throws: LegacyImportError.self) { try harness.importer().run(reader) }
    #expect(error.code == .unreadable)
    #expect(error.description == "cannot read 'legacy': is a folder; expected a legacy export file.")
  }

  @Test func aDuplicateBabyIDKeepsTheFirstProfile() throws {
    let harness = try LegacyImportHarness()
    defer { harness.remove() }
    let id = UUID(uuidString: "11111111-1111-4111-8111-111111111111")!
    let export = LegacyExport(
      exportedAt: LegacyImportHarness.now,
      babyProfiles: [LegacyBabyProfile(id: id, name: "Mia"), LegacyBabyProfile(id: id, name: "Mia again")])
    let report = try harness.importer().run(LegacyJSONExportReader(data: try export.encoded(), source: "twice.json"))
    #expect(report.babyProfiles == LegacyImportCounts(read: 2, inserted: 1, duplicates: 1))
    #expect(try harness.contents().babies.map(\.name) == ["Mia"])
  }
}
