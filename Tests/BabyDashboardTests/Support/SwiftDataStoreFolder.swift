import BabyDashboard
import BabyDashboardTesting
import Foundation
import SwiftDataStoreBuilder

/// A folder holding one test's `BabyDashboard.sqlite` (built by ``SwiftDataStoreBuilder``) and a
/// private temporary folder for the reader's copies, so a test can see the copy is gone.
struct SwiftDataStoreFolder {
  let folder: TemporaryDirectory
  /// The store's main file.
  var store: URL { folder.url.appendingPathComponent("app-group/BabyDashboard.sqlite") }
  /// Where the reader makes its private copy.
  var readerTemporary: URL { folder.url.appendingPathComponent("reader-tmp", isDirectory: true) }

  init() throws {
    folder = try TemporaryDirectory("SwiftDataStore")
    try FileManager.default.createDirectory(at: readerTemporary, withIntermediateDirectories: true)
  }

  /// The family sample of Fixtures/legacy/family.json: two babies named Mia, orphans, duplicates,
  /// odd unit spellings ("ml", "fl. oz", "ML", "").
  static func familyExport() throws -> LegacyExport {
    let url = LegacyImportHarness.fixture("legacy", "family.json")
    return try LegacyExport.decode(from: try Data(contentsOf: url), source: "legacy/family.json")
  }

  /// Writes `export` as the store with `builder`.
  @discardableResult
  func build(_ export: LegacyExport, with builder: SwiftDataStoreBuilder = SwiftDataStoreBuilder()) throws -> URL {
    try builder.write(export, to: store)
    return store
  }

  /// A reader of the store, named `BabyDashboard.sqlite` in messages.
  func reader() -> SwiftDataStoreReader {
    SwiftDataStoreReader(fileURL: store, source: "BabyDashboard.sqlite", temporaryDirectory: readerTemporary)
  }

  /// The store's `-wal` / `-shm` companion.
  func companion(_ suffix: String) -> URL {
    URL(fileURLWithPath: store.path + suffix)
  }

  /// Every file of the app-group folder with its bytes.
  func files() throws -> [String: Data] {
    let base = store.deletingLastPathComponent()
    var files: [String: Data] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: base.path) {
      files[name] = try Data(contentsOf: base.appendingPathComponent(name))
    }
    return files
  }

  /// What is left in the reader's temporary folder.
  func leftovers() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: readerTemporary.path).sorted()
  }

  func remove() { folder.remove() }
}

extension LegacyExport {
  /// The records as a reader of the SQLite store sees them: a link to an id no baby has is a
  /// Z_PK no row has, which reads as no baby (the importer makes both orphans alike).
  func withUnknownProfilesAsNone() -> LegacyExport {
    let known = Set(babyProfiles.map(\.id))
    var copy = self
    copy.exportedAt = Date(timeIntervalSinceReferenceDate: 0)
    copy.feedSessions = feedSessions.map { feed in
      var feed = feed
      feed.profileID = feed.profileID.flatMap { known.contains($0) ? $0 : nil }
      return feed
    }
    copy.diaperChanges = diaperChanges.map { diaper in
      var diaper = diaper
      diaper.profileID = diaper.profileID.flatMap { known.contains($0) ? $0 : nil }
      return diaper
    }
    return copy
  }
}
