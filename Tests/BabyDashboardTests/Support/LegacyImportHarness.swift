@testable import BabyDashboard
import BabyDashboardFixtures
import BabyDashboardTesting
import Foundation
import PlainStore

/// A file store in a fresh temporary folder, an in-memory key-value store and a fixed clock, for
/// one legacy-import test; `remove()` tears it down.
struct LegacyImportHarness {
  /// The migration start every test sees: 2026-01-15T09:30:00Z.
  static let now = ISO8601.parse("2026-01-15T09:30:00Z")!

  /// `Fixtures/<folder>/<name>`, found from this file's path.
  static func fixture(_ folder: String, _ name: String) -> URL {
    URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent()  // Support
      .deletingLastPathComponent()  // BabyDashboardTests
      .deletingLastPathComponent()  // Tests
      .deletingLastPathComponent()  // package root
      .appendingPathComponent("Fixtures").appendingPathComponent(folder).appendingPathComponent(name)
  }

  /// A reader of a fixture, named `<folder>/<name>` in messages so that they do not depend on
  /// where the package is checked out.
  static func reader(_ folder: String, _ name: String) -> LegacyJSONExportReader {
    LegacyJSONExportReader(fileURL: fixture(folder, name), source: "\(folder)/\(name)")
  }

  let folder: TemporaryDirectory
  let container: StoreContainer
  let keyValueStore: any KeyValueStore = InMemoryKeyValueStore()

  init() throws {
    folder = try TemporaryDirectory("LegacyImport")
    container = try Self.openStore(in: folder.url)
  }

  static func openStore(in folder: URL) throws -> StoreContainer {
    let now = LegacyImportHarness.now
    return try StoreContainer.babyDashboard(inAppGroup: folder, options: StoreOptions(author: "test", clock: { now }, deviceID: "000000000000000000000000000000a1"))
  }

  /// An importer on this harness's stores, with the fixed clock.
  func importer(flags: FeatureFlags? = nil, batchSize: Int = LegacyImporter.defaultBatchSize) -> LegacyImporter {
    let now = Self.now
    return LegacyImporter(container: container, keyValueStore: keyValueStore, flags: flags, batchSize: batchSize, clock: { now })
  }

  /// Every file of the store folder, by path relative to it.
  func storeFiles() throws -> [String: Data] {
    let root = AppGroup.storeURL(in: folder.url)
    var files: [String: Data] = [:]
    let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])
    while let url = enumerator?.nextObject() as? URL {
      guard try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true else { continue }
      files[String(url.path.dropFirst(root.path.count))] = try Data(contentsOf: url)
    }
    return files
  }

  /// The store's content, sorted, for comparing two stores.
  func contents() throws -> StoreContents {
    _ = try container.refresh()  // another container on the same folder may have written
    let context = container.newBackgroundContext()
    return StoreContents(
      babies: try context.babies(),
      feeds: try context.allFeeds().sorted { $0.uuid.uuidString < $1.uuid.uuidString },
      diapers: try context.allDiapers().sorted { $0.uuid.uuidString < $1.uuid.uuidString })
  }

  func remove() {
    folder.remove()
  }
}

struct StoreContents: Equatable {
  var babies: [BabyProfile]
  var feeds: [FeedSession]
  var diapers: [DiaperChange]
}
