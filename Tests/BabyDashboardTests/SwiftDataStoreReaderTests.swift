@testable import BabyDashboard
import Foundation
@testable import SwiftDataStoreBuilder
import Testing

/// Reading a SwiftData store: every value, from the main file and the `-wal`, in every shape the
/// research could not rule out.
@Suite struct SwiftDataStoreReaderTests {
  @Test func theFamilySampleReadsBackRecordForRecord() throws {
    let store = try SwiftDataStoreFolder()
    defer { store.remove() }
    let family = try SwiftDataStoreFolder.familyExport()
    try store.build(family)
    let contents = try store.reader().load()
    #expect(contents.export == family.withUnknownProfilesAsNone())
    #expect(contents.export.feedSessions.map(\.amountUnitSymbol) == family.feedSessions.map(\.amountUnitSymbol))
    #expect(contents.export.babyProfiles.map(\.name) == ["Mia", "Noah", "Mia", "Sora"])
  }

  @Test func rowsThatAreOnlyInTheWALAreRead() throws {
    let store = try SwiftDataStoreFolder()
    defer { store.remove() }
    try store.build(try SwiftDataStoreFolder.familyExport())
    #expect(try store.reader().load().summary.entities.map(\.rows) == [4, 7, 9])
    // The main file alone has the tables but not one row: they are all in the -wal.
    try FileManager.default.removeItem(at: store.companion("-wal"))
    try FileManager.default.removeItem(at: store.companion("-shm"))
    #expect(try store.reader().load().summary.entities.map(\.rows) == [0, 0, 0])
  }

  @Test func aMissingSHMIsNotNeeded() throws {
    let store = try SwiftDataStoreFolder()
    defer { store.remove() }
    try store.build(try SwiftDataStoreFolder.familyExport())
    try FileManager.default.removeItem(at: store.companion("-shm"))
    let contents = try store.reader().load()
    #expect(contents.summary.entities.map(\.rows) == [4, 7, 9])
    #expect(contents.summary.hadWAL && !contents.summary.hadSHM)
  }

  @Test func aStoreWithEverythingCheckpointedReadsTheSame() throws {
    let store = try SwiftDataStoreFolder()
    defer { store.remove() }
    let family = try SwiftDataStoreFolder.familyExport()
    var builder = SwiftDataStoreBuilder()
    builder.rowsOnlyInWAL = false
    try store.build(family, with: builder)
    #expect(!FileManager.default.fileExists(atPath: store.companion("-wal").path))
    #expect(try store.reader().read() == family.withUnknownProfilesAsNone())
  }

  @Test(arguments: SwiftDataStoreBuilder.DiaperTypeShape.allCases)
  func everyShapeOfTheDiaperTypeReadsAsPeeOrPoo(shape: SwiftDataStoreBuilder.DiaperTypeShape) throws {
    let store = try SwiftDataStoreFolder()
    defer { store.remove() }
    let family = try SwiftDataStoreFolder.familyExport()
    var builder = SwiftDataStoreBuilder()
    builder.diaperTypeShape = shape
    try store.build(family, with: builder)
    #expect(try store.reader().read().diaperChanges.map(\.type) == family.diaperChanges.map(\.type))
  }

  @Test func columnsWithCoreDatasNumericSuffixAreFound() throws {
    let store = try SwiftDataStoreFolder()
    defer { store.remove() }
    let family = try SwiftDataStoreFolder.familyExport()
    var builder = SwiftDataStoreBuilder()
    builder.columnNames = ["DiaperChange.type": "ZTYPE1", "FeedSession.startTime": "ZSTARTTIME2", "BabyProfile.name": "ZNAME1"]
    try store.build(family, with: builder)
    #expect(try store.reader().read() == family.withUnknownProfilesAsNone())
  }

  @Test func aToManyWithoutInverseLinksByItsEntityNumberedColumn() throws {
    let store = try SwiftDataStoreFolder()
    defer { store.remove() }
    let family = try SwiftDataStoreFolder.familyExport()
    var builder = SwiftDataStoreBuilder()
    // BabyProfile (Z_ENT 1) declares `feedSessions` / `diaperChanges` and the children no `profile`.
    builder.columnNames = ["FeedSession.profile": "Z1FEEDSESSIONS", "DiaperChange.profile": "Z1DIAPERCHANGES"]
    builder.includesModelCache = false
    try store.build(family, with: builder)
    #expect(try store.reader().read() == family.withUnknownProfilesAsNone())
  }

  @Test func aBabyWithoutAFeedTermGetsTheDefaultAndAWarning() throws {
    let store = try SwiftDataStoreFolder()
    defer { store.remove() }
    var builder = SwiftDataStoreBuilder()
    builder.extraSQL = ["UPDATE ZBABYPROFILE SET ZFEEDTERM = NULL WHERE Z_PK = 4"]
    try store.build(try SwiftDataStoreFolder.familyExport(), with: builder)
    let contents = try store.reader().load()
    #expect(contents.export.babyProfiles.map(\.feedTerm) == [10800, 9000, 10800, BabyProfile.defaultFeedTerm])
    #expect(contents.summary.warnings == ["1 BabyProfile row has no feedTerm; imported with the default of 10800 seconds"])
  }

  @Test func theModelCacheIsDecodedAndTheNamingRuleIsTheFallback() throws {
    let store = try SwiftDataStoreFolder()
    defer { store.remove() }
    let family = try SwiftDataStoreFolder.familyExport()
    try store.build(family)
    #expect(try store.reader().load().summary.modelSource == .modelCache)
    var builder = SwiftDataStoreBuilder()
    builder.includesModelCache = false
    try store.build(family, with: builder)
    let contents = try store.reader().load()
    #expect(contents.summary.modelSource == .namingRule("Z_MODELCACHE holds no model"))
    #expect(contents.export == family.withUnknownProfilesAsNone())
  }

  /// Found by `Scripts/fuzz.sh` (plist): a keyed archive whose string claims a length near
  /// Int.max made the reader's bounds check overflow and trap, so the import crashed.
  @Test func aModelCacheWithAnImpossibleLengthFallsBackToTheNamingRuleInsteadOfCrashing() throws {
    let store = try SwiftDataStoreFolder()
    defer { store.remove() }
    let family = try SwiftDataStoreFolder.familyExport()
    let encoded = [
      "YnBsaXN0MDDUAQIDBAUsLzBYJG9iamVjdHNUJHRvcFgkdmVyc2lvblkkYXJjaGl2ZXKoBgcOFRYdJCVVJG51bGzSCAkKC1YkY2xh",
      "c3NaTlMub2JqZWN0c4AHogwNgAKABdMPEBESExRUbmFtZVYkY2xhc3NWYW1vdW50gAOABBB4VmJvdHRsZdIXGBkaWiRjbGFzc25h",
      "bWVYJGNsYXNzZXNfEBBwbGlzdHNlZWRzLkVudHJ5ohsQXxwQcGxpc3RzZWVkcy5FbnRyeVhOU09iamVjdNMeHyAhIhNUbmFtZVZh",
      "bW91bnRWJFN0cmluZwYQAIAEVmJyZWFzdNImJygpWiRjbGFzc25hbWVYJGNsYXNzZXNXTlNBcnJheaIqK1dOU0FycmF5WE5TT2Jq",
      "ZWN00S0uVHJvb3SAARIAAYagXxAPTlNLZXllZEFyY2hpdmVyAAgAEQAaAB8AKAAyADsAQQBGAE0AWABaAF0AXwBhAGgAbQB0AHsA",
      "fQB/AIEAiACNAJgAoQC0ALcAygDTANoA3wDmAO0A7wDxAAv/Bf//AQoBEwEbAR4BJgEvATIBNwE5AT4AAAAAAAACAQAAAAAAAAAx",
      "AAAAAAAAAAAAAAAAAAABUA==",
    ].joined()
    let archive = try #require(Data(base64Encoded: encoded))
    var builder = SwiftDataStoreBuilder()
    let hex = try ArchivedModel.rawDeflate(archive).map { String(format: "%02X", $0) }.joined()
    builder.extraSQL = ["UPDATE Z_MODELCACHE SET Z_CONTENT = X'\(hex)'"]
    try store.build(family, with: builder)
    let contents = try store.reader().load()
    guard case .namingRule(let reason) = contents.summary.modelSource else {
      Issue.record("the damaged model cache was used: \(contents.summary.modelSource)")
      return
    }
    #expect(reason.hasPrefix("Z_MODELCACHE is not an archived model: "), "\(reason)")
    #expect(contents.export == family.withUnknownProfilesAsNone())
  }

  @Test func theModelCacheArchiveDecodesToTheEntitiesAndTheirAttributeTypes() throws {
    let compressed = try ArchivedModel.compressedArchive(of: [
      ("DiaperChange", [.init(name: "timestamp", attributeType: 900), .init(name: "profile", attributeType: nil, inverse: "diapers")])
    ])
    let archive = try BinaryPropertyList.parse(try RawInflate.inflate(compressed))
    let model = try #require(CoreDataModelCache(archive: archive))
    #expect(model.entity("DiaperChange")?.properties["timestamp"]?.attributeType == 900)
    #expect(model.entity("DiaperChange")?.properties["profile"]?.kind == "NSRelationshipDescription")
    #expect(model.entity("DiaperChange")?.properties["profile"]?.maxCount == 1)
    #expect(model.entity("DiaperChange")?.properties["profile"]?.inverseName == "diapers")
  }

  @Test func pendingCloudKitChangesAreCountedAsWarningsAndHistoryIsIgnored() throws {
    let store = try SwiftDataStoreFolder()
    defer { store.remove() }
    let family = try SwiftDataStoreFolder.familyExport()
    var builder = SwiftDataStoreBuilder()
    builder.cloudKit = (pendingUploads: ["FeedSession": 3, "DiaperChange": 1], pendingCloudDeletes: ["BabyProfile": 2])
    try store.build(family, with: builder)
    let contents = try store.reader().load()
    #expect(contents.export == family.withUnknownProfilesAsNone())
    #expect(contents.summary.warnings == [
      "1 DiaperChange row never reached iCloud (ANSCKRECORDMETADATA.ZNEEDSUPLOAD): imported from this file, "
        + "but another device of the family does not have it",
      "3 FeedSession rows never reached iCloud (ANSCKRECORDMETADATA.ZNEEDSUPLOAD): imported from this file, "
        + "but another device of the family does not have them",
      "2 BabyProfile deletions never reached iCloud (ANSCKRECORDMETADATA.ZNEEDSCLOUDDELETE): iCloud may still hold "
        + "those records; this file does not, so they are not imported",
    ])
    #expect(contents.summary.otherEntities == [
      "CHANGE", "NSCKMetadataEntry", "NSCKRecordMetadata", "NSCKRecordZoneMetadata", "TRANSACTION", "TRANSACTIONSTRING",
    ])
  }

  @Test func theSummaryNamesTheFrameworkTheEntitiesAndTheirRows() throws {
    let store = try SwiftDataStoreFolder()
    defer { store.remove() }
    try store.build(try SwiftDataStoreFolder.familyExport())
    #expect(try store.reader().load().summary.description == """
      SwiftData store 'BabyDashboard.sqlite' (with its -wal and -shm)
      written by: Core Data framework 1345, model version 1.0.0, store 6C1F4E8A-3B2D-4C5E-9F70-8A1B2C3D4E5F
      model: from Z_MODELCACHE
      entity        table          rows
      BabyProfile   ZBABYPROFILE      4
      DiaperChange  ZDIAPERCHANGE     7
      FeedSession   ZFEEDSESSION      9
      also in the file (not imported): CHANGE, TRANSACTION, TRANSACTIONSTRING
      warnings: none
      """)
  }

  @Test func theOriginalIsNeverChangedAndTheCopyIsAlwaysRemoved() throws {
    let store = try SwiftDataStoreFolder()
    defer { store.remove() }
    try store.build(try SwiftDataStoreFolder.familyExport())
    let before = try store.files()
    #expect(before.keys.sorted() == ["BabyDashboard.sqlite", "BabyDashboard.sqlite-shm", "BabyDashboard.sqlite-wal"])
    _ = try store.reader().load()
    #expect(try store.files() == before)
    #expect(try store.leftovers().isEmpty)
  }

  @Test func theFormatIsRecognisedByContentNotByName() throws {
    let store = try SwiftDataStoreFolder()
    defer { store.remove() }
    try store.build(try SwiftDataStoreFolder.familyExport())
    #expect(try LegacySourceFormat.detect(fileAt: store.store) == .swiftDataStore)
    #expect(try LegacySourceFormat.detect(fileAt: LegacyImportHarness.fixture("legacy", "family.json")) == .jsonExport)
    let renamed = store.store.deletingLastPathComponent().appendingPathComponent("export.json")
    try FileManager.default.copyItem(at: store.store, to: renamed)
    #expect(try LegacySourceFormat.reader(forFileAt: renamed) is SwiftDataStoreReader)
  }
}
