import BabyDashboard
import Foundation
import SwiftDataStoreBuilder
import Testing

/// `babydash import BabyDashboard.sqlite`: the SwiftData store, recognised by content, through the
/// same import as the JSON export.
@Suite struct SwiftDataImportCommandTests {
  let tool: BabydashProcess
  /// Where the test's SwiftData store lives: outside the app group, as an old app's folder would.
  let legacyFolder: URL

  init() throws {
    tool = try BabydashProcess()
    legacyFolder = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdata-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: legacyFolder, withIntermediateDirectories: true)
  }

  private func removeAll() {
    tool.removeAll()
    try? FileManager.default.removeItem(at: legacyFolder)  // a leftover temp folder fails no behaviour
  }

  private var familyJSON: String { ImportCommandTests.fixtures.appendingPathComponent("legacy/family.json").path }

  /// Builds the family sample as `BabyDashboard.sqlite` with its `-wal` and `-shm`.
  private func familyStore(_ configure: (inout SwiftDataStoreBuilder) -> Void = { _ in }) throws -> String {
    let export = try LegacyExport.decode(from: try Data(contentsOf: URL(fileURLWithPath: familyJSON)), source: "family.json")
    var builder = SwiftDataStoreBuilder()
    builder.cloudKit = (pendingUploads: ["FeedSession": 2], pendingCloudDeletes: [:])
    configure(&builder)
    let url = legacyFolder.appendingPathComponent("BabyDashboard.sqlite")
    try builder.write(export, to: url)
    return url.path
  }

  @Test func importingTheSQLiteStoreGivesTheSameExportAsImportingTheJSONExport() throws {
    let viaJSON = try BabydashProcess()
    defer {
      removeAll()
      viaJSON.removeAll()
    }
    let store = try familyStore()
    let result = try tool.run(at: "2026-03-01T00:00:00Z", ["import", store])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.hasPrefix("SwiftData store '\(store)' (with its -wal and -shm)\n"))
    #expect(result.stdout.contains("FeedSession      9         8        0           1        2"))
    #expect(try viaJSON.run(at: "2026-03-01T00:00:00Z", ["import", familyJSON]).status == 0)
    let exported = try tool.run(["export"])
    #expect(exported.status == 0)
    #expect(exported.stdout == (try viaJSON.run(["export"]).stdout))
    // Each folder is its own device (a random id), so the change files differ by name; the
    // state they build, the cache's segments, is the same to the byte.
    let segments = { (name: String) in name.hasPrefix("BabyDashboard.store/local/segments/") || name == "BabyDashboard.store/store.json" }
    let mine = try tool.snapshot().filter { segments($0.key) }
    #expect(!mine.isEmpty)
    #expect(mine == (try viaJSON.snapshot().filter { segments($0.key) }))
  }

  @Test func aDryRunPrintsTheFrameworkTheEntitiesTheirRowsAndWarningsAndWritesNothing() throws {
    defer { removeAll() }
    let store = try familyStore()
    let original = try Self.files(in: legacyFolder)
    // The private copy goes to TMPDIR: a folder of this test's own, which must end up empty.
    let temporary = legacyFolder.appendingPathComponent("tmp", isDirectory: true)
    try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
    let result = try tool.run(
      ["--now", "2026-03-01T00:00:00Z", "import", store, "--dry-run"], environment: ["TMPDIR": temporary.path])
    #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).isEmpty)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.hasPrefix("""
      SwiftData store '\(store)' (with its -wal and -shm)
      written by: Core Data framework 1345, model version 1.0.0, store 6C1F4E8A-3B2D-4C5E-9F70-8A1B2C3D4E5F
      model: from Z_MODELCACHE
      entity        table          rows
      BabyProfile   ZBABYPROFILE      4
      DiaperChange  ZDIAPERCHANGE     7
      FeedSession   ZFEEDSESSION      9
      also in the file (not imported): CHANGE, NSCKMetadataEntry, NSCKRecordMetadata, NSCKRecordZoneMetadata, TRANSACTION, TRANSACTIONSTRING
      warnings: 1
        - 2 FeedSession rows never reached iCloud (ANSCKRECORDMETADATA.ZNEEDSUPLOAD): imported from this file, but another device of the family does not have them
      legacy import of '\(store)': dry run, nothing written

      """))
    #expect(try tool.snapshot().isEmpty)
    #expect(try Self.files(in: legacyFolder) == original)
  }

  @Test func aStoreOfAnotherModelExits65NamingItsEntitiesAndWritesNothing() throws {
    defer { removeAll() }
    let store = legacyFolder.appendingPathComponent("BabyDashboard.sqlite")
    try SwiftDataStoreBuilder.writeForeignModel(to: store)
    try tool.run(at: "2026-03-01T00:00:00Z", ["baby", "add", "Mia"])
    let before = try tool.snapshot()
    let result = try tool.run(at: "2026-03-01T00:00:00Z", ["import", store.path])
    #expect(result.status == 65)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.contains("is a SwiftData store of another model: it holds the entities Component, CraftingRecipe, Item"))
    #expect(try tool.snapshot() == before)
  }

  @Test func aWALOfAnotherStoreExits65AndWritesNothing() throws {
    defer { removeAll() }
    let store = try familyStore()
    let otherFolder = legacyFolder.appendingPathComponent("other", isDirectory: true)
    var builder = SwiftDataStoreBuilder()
    builder.checkpointsSchema = false
    builder.storeUUID = UUID()
    let export = try LegacyExport.decode(from: try Data(contentsOf: URL(fileURLWithPath: familyJSON)), source: "family.json")
    let other = otherFolder.appendingPathComponent("BabyDashboard.sqlite").path
    try builder.write(export, to: URL(fileURLWithPath: other))
    for suffix in ["-wal", "-shm"] {
      try FileManager.default.removeItem(atPath: store + suffix)
      try FileManager.default.copyItem(atPath: other + suffix, toPath: store + suffix)
    }
    let result = try tool.run(at: "2026-03-01T00:00:00Z", ["import", store])
    #expect(result.status == 65)
    #expect(result.stderr.contains("its -wal file belongs to another store"))
    #expect(try tool.snapshot().isEmpty)
  }

  @Test func aDamagedStoreExits65AndWritesNothing() throws {
    defer { removeAll() }
    let store = try familyStore { $0.rowsOnlyInWAL = false }
    var bytes = try Data(contentsOf: URL(fileURLWithPath: store))
    for index in 4096..<bytes.count { bytes[index] = 0xA5 }
    try bytes.write(to: URL(fileURLWithPath: store))
    let result = try tool.run(at: "2026-03-01T00:00:00Z", ["import", store])
    #expect(result.status == 65)
    #expect(result.stderr.hasPrefix("babydash: bad data in '\(store)': is damaged"))
    #expect(try tool.snapshot().isEmpty)
  }

  @Test func aFileThatIsNeitherSQLiteNorJSONExits65AndWritesNothing() throws {
    defer { removeAll() }
    let store = legacyFolder.appendingPathComponent("BabyDashboard.sqlite")
    try Data("SQLite format 2 — not really\n".utf8).write(to: store)
    let result = try tool.run(at: "2026-03-01T00:00:00Z", ["import", store.path])
    #expect(result.status == 65)
    #expect(result.stderr.contains(store.path))
    #expect(try tool.snapshot().isEmpty)
  }

  static func files(in folder: URL) throws -> [String: Data] {
    var files: [String: Data] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path, isDirectory: &isDirectory),
        !isDirectory.boolValue
      else { continue }
      files[name] = try Data(contentsOf: folder.appendingPathComponent(name))
    }
    return files
  }
}
