@testable import BabyDashboard
import Foundation
import SwiftDataStoreBuilder
import Testing

/// What the SwiftData reader refuses, and how: a clear message naming what it found, the store
/// untouched, the original untouched, no temporary copy left behind.
@Suite struct SwiftDataStoreRefusalTests {
  /// Runs the importer on the store and expects a refusal; checks nothing changed anywhere.
  private func refusal(_ store: SwiftDataStoreFolder) throws -> LegacyImportError {
    let harness = try LegacyImportHarness()
    defer { harness.remove() }
    try harness.importer().run(LegacyJSONExportReader(data: try LegacyExport(exportedAt: LegacyImportHarness.now,
      babyProfiles: [LegacyBabyProfile(id: UUID(), name: "Already here")]).encoded(), source: "seed.json"))
    let storeBefore = try harness.storeFiles()
    let keysBefore = try harness.keyValueStore.allKeys()
    let originalBefore = try store.files()
    let error = try #require(throws: LegacyImportError.self) {
      try harness.importer().run(store.reader(), force: true)
    }
    #expect(try harness.storeFiles() == storeBefore)
    #expect(try harness.keyValueStore.allKeys() == keysBefore)
    #expect(try store.files() == originalBefore)
    #expect(try store.leftovers().isEmpty)
    return error
  }

  @Test func aStoreOfAnotherModelIsRefusedNamingTheEntitiesItHolds() throws {
    let store = try SwiftDataStoreFolder()
    defer { store.remove() }
    try SwiftDataStoreBuilder.writeForeignModel(to: store.store)
    let error = try refusal(store)
    #expect(error.code == .badData)
    #expect(error.description == "bad data in 'BabyDashboard.sqlite': is a SwiftData store of another model: it holds the entities "
      + "Component, CraftingRecipe, Item, not BabyProfile, FeedSession, DiaperChange; expected the BabyDashboard app's store "
      + "(BabyProfile, FeedSession, DiaperChange) — nothing was imported.")
  }

  @Test func aFileThatIsNotSQLiteIsRefused() throws {
    let store = try SwiftDataStoreFolder()
    defer { store.remove() }
    try FileManager.default.createDirectory(at: store.store.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(contentsOf: LegacyImportHarness.fixture("legacy", "family.json")).write(to: store.store)
    let error = try refusal(store)
    #expect(error.code == .badData)
    #expect(error.description.contains("is not an SQLite database (it does not start with \"SQLite format 3\")"))
  }

  @Test func aDamagedFileIsRefused() throws {
    let store = try SwiftDataStoreFolder()
    defer { store.remove() }
    var builder = SwiftDataStoreBuilder()
    builder.rowsOnlyInWAL = false
    try store.build(try SwiftDataStoreFolder.familyExport(), with: builder)
    var bytes = try Data(contentsOf: store.store)
    // Keep the 100-byte header and the schema page; scribble over every page after it.
    let pageSize = Int(bytes[16]) << 8 | Int(bytes[17])
    for index in pageSize..<bytes.count { bytes[index] = UInt8(truncatingIfNeeded: index &* 31 &+ 7) }
    try bytes.write(to: store.store)
    let error = try refusal(store)
    #expect(error.code == .badData)
    #expect(error.description.hasPrefix("bad data in 'BabyDashboard.sqlite': is damaged"))
  }

  @Test func aWALOfAnotherStoreIsRefused() throws {
    let store = try SwiftDataStoreFolder()
    let other = try SwiftDataStoreFolder()
    defer {
      store.remove()
      other.remove()
    }
    try store.build(try SwiftDataStoreFolder.familyExport())
    var builder = SwiftDataStoreBuilder()
    builder.checkpointsSchema = false
    builder.storeUUID = UUID(uuidString: "0B0E0000-0000-4000-8000-000000000002")!
    try other.build(try SwiftDataStoreFolder.familyExport(), with: builder)
    for suffix in ["-wal", "-shm"] {
      try FileManager.default.removeItem(at: store.companion(suffix))
      try FileManager.default.copyItem(at: other.companion(suffix), to: store.companion(suffix))
    }
    let error = try refusal(store)
    #expect(error.code == .badData)
    #expect(error.description == "bad data in 'BabyDashboard.sqlite': its -wal file belongs to another store: the main file is "
      + "store 6C1F4E8A-3B2D-4C5E-9F70-8A1B2C3D4E5F, with the -wal applied it reads as store 0B0E0000-0000-4000-8000-000000000002 — "
      + "copy BabyDashboard.sqlite, -wal and -shm again together from the same app group — nothing was imported.")
  }

  @Test func aWALWithPagesOfAnotherSizeIsRefused() throws {
    let store = try SwiftDataStoreFolder()
    let other = try SwiftDataStoreFolder()
    defer {
      store.remove()
      other.remove()
    }
    try store.build(try SwiftDataStoreFolder.familyExport())
    var builder = SwiftDataStoreBuilder()
    builder.pageSize = 8192
    try other.build(try SwiftDataStoreFolder.familyExport(), with: builder)
    try FileManager.default.removeItem(at: store.companion("-wal"))
    try FileManager.default.copyItem(at: other.companion("-wal"), to: store.companion("-wal"))
    let error = try refusal(store)
    #expect(error.description.contains("its -wal file holds pages of 8192 bytes but the store's pages are 4096 bytes"))
  }

  @Test func aWALThatIsNotAWriteAheadLogIsRefused() throws {
    let store = try SwiftDataStoreFolder()
    defer { store.remove() }
    try store.build(try SwiftDataStoreFolder.familyExport())
    try Data(repeating: 0x5A, count: 4096).write(to: store.companion("-wal"))
    let error = try refusal(store)
    #expect(error.description.contains("its -wal file is not an SQLite write-ahead log (4096 bytes, no WAL header)"))
  }

  struct BadRow: Sendable, CustomTestStringConvertible {
    var sql: String
    var message: String
    var testDescription: String { sql }
  }

  static let badRows: [BadRow] = [
    BadRow(
      sql: "UPDATE ZFEEDSESSION SET ZSTARTTIME = NULL WHERE Z_PK = 2",
      message: "at table ZFEEDSESSION, row Z_PK 2, column ZSTARTTIME: NULL where a date is required"),
    BadRow(
      sql: "UPDATE ZFEEDSESSION SET ZSTARTTIME = 'yesterday' WHERE Z_PK = 3",
      message: "at table ZFEEDSESSION, row Z_PK 3, column ZSTARTTIME: TEXT \"yesterday\" is not a Core Data date; "
        + "expected seconds since 2001-01-01 (REAL)"),
    BadRow(
      sql: "UPDATE ZFEEDSESSION SET ZAMOUNTVALUE = -30 WHERE Z_PK = 1",
      message: "at table ZFEEDSESSION, row Z_PK 1, column ZAMOUNTVALUE: -30.0 is not an amount; expected zero or more"),
    BadRow(
      sql: "UPDATE ZDIAPERCHANGE SET ZTYPE = 'wet' WHERE Z_PK = 4",
      message: "at table ZDIAPERCHANGE, row Z_PK 4, column ZTYPE: TEXT \"wet\" is not a diaper type; expected \"pee\" or \"poo\""),
    BadRow(
      sql: "UPDATE ZDIAPERCHANGE SET ZTYPE = x'00FF' WHERE Z_PK = 1",
      message: "at table ZDIAPERCHANGE, row Z_PK 1, column ZTYPE: BLOB of 2 bytes is not a diaper type; expected \"pee\" or \"poo\""),
    BadRow(
      sql: "UPDATE ZDIAPERCHANGE SET ZTYPE = NULL WHERE Z_PK = 2",
      message: "at table ZDIAPERCHANGE, row Z_PK 2, column ZTYPE: NULL where a diaper type (\"pee\" or \"poo\") is required"),
    BadRow(
      sql: "UPDATE ZBABYPROFILE SET ZID = x'0102' WHERE Z_PK = 2",
      message: "at table ZBABYPROFILE, row Z_PK 2, column ZID: BLOB of 2 bytes is not a UUID; expected a BLOB of 16 bytes"),
    BadRow(
      sql: "UPDATE ZBABYPROFILE SET ZFEEDTERM = 0 WHERE Z_PK = 1",
      message: "at table ZBABYPROFILE, row Z_PK 1, column ZFEEDTERM: 0.0 is not a feed term; expected a positive number of seconds"),
    BadRow(
      sql: "UPDATE ZFEEDSESSION SET ZPROFILE = 'Mia' WHERE Z_PK = 1",
      message: "at table ZFEEDSESSION, row Z_PK 1, column ZPROFILE: TEXT \"Mia\" is not a row reference; expected the INTEGER Z_PK of a row"),
  ]

  @Test(arguments: badRows)
  func aRowThatCannotBeReadIsRefusedNamingTableRowAndColumn(_ bad: BadRow) throws {
    let store = try SwiftDataStoreFolder()
    defer { store.remove() }
    var builder = SwiftDataStoreBuilder()
    builder.extraSQL = [bad.sql]
    try store.build(try SwiftDataStoreFolder.familyExport(), with: builder)
    let error = try refusal(store)
    #expect(error.code == .badData)
    #expect(error.description == "bad data in 'BabyDashboard.sqlite' \(bad.message) — nothing was imported.")
  }

  @Test func aTableWithoutAColumnTheModelNeedsIsRefused() throws {
    let store = try SwiftDataStoreFolder()
    defer { store.remove() }
    var builder = SwiftDataStoreBuilder()
    builder.columnNames = ["FeedSession.startTime": "ZBEGAN"]
    try store.build(try SwiftDataStoreFolder.familyExport(), with: builder)
    let error = try refusal(store)
    #expect(error.description.hasPrefix(
      "bad data in 'BabyDashboard.sqlite' at table ZFEEDSESSION: ZFEEDSESSION has no column for FeedSession.startTime "
        + "(expected ZSTARTTIME or ZSTARTTIME<n>; it has Z_PK, Z_ENT, Z_OPT, ZPROFILE, ZAMOUNTVALUE, ZENDTIME, ZBEGAN,"))
  }

  @Test func twoColumnsThatCouldHoldOnePropertyAreRefusedNamingBoth() throws {
    let store = try SwiftDataStoreFolder()
    defer { store.remove() }
    var builder = SwiftDataStoreBuilder()
    builder.columnNames = ["FeedSession.memoText": "ZMEMOTEXT1"]
    builder.extraSQL = ["ALTER TABLE ZFEEDSESSION ADD COLUMN ZMEMOTEXT2 VARCHAR"]
    try store.build(try SwiftDataStoreFolder.familyExport(), with: builder)
    let error = try refusal(store)
    #expect(error.description == "bad data in 'BabyDashboard.sqlite' at table ZFEEDSESSION: ZFEEDSESSION has several columns "
      + "that could hold FeedSession.memoText (ZMEMOTEXT1, ZMEMOTEXT2) and none named ZMEMOTEXT — nothing was imported.")
  }

  @Test func aMissingFileIsUnreadableNotBadData() throws {
    let store = try SwiftDataStoreFolder()
    defer { store.remove() }
    let error = try #require(throws: LegacyImportError.self) { try store.reader().load() }
    #expect(error.code == .unreadable)
    #expect(error.description == "cannot read 'BabyDashboard.sqlite': no such file — check the path.")
  }
}
