import Foundation
import Testing

@testable import PlainStore

/// Format versions count from 1: a store file claiming 0 or a negative version was never
/// written by PlainStore and is refused untouched, not read as an old format to migrate.
@Suite struct FormatVersionTests {
  @Test(arguments: [0, -1])
  func storeJSONWithAVersionNeverWrittenIsRefusedUntouched(_ version: Int) throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("PlainStoreTests-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent("Versions.store")
    do {
      let container = try StoreContainer.file(at: url, schema: TestSchema.v1, options: Sample.options)
      let context = container.newBackgroundContext()
      context.insert(Owner(id: Sample.id(1), name: "Mia"))
      try context.save()
    }
    let header = url.appendingPathComponent("store.json")
    let text = try String(contentsOf: header, encoding: .utf8)
    try #require(text.contains(#""formatVersion":2"#))
    try Data(text.replacingOccurrences(of: #""formatVersion":2"#, with: #""formatVersion":\#(version)"#).utf8).write(to: header)
    let before = try snapshotFiles(url)

    let error = try #require(throws: StoreError.self) {
      let reopened = try StoreContainer.file(at: url, schema: TestSchema.v1)
      _ = try reopened.newBackgroundContext().fetch(FetchDescriptor<Owner>())
    }
    #expect(error.code == .damaged)
    #expect(error.path.hasSuffix("store.json"))
    #expect(try snapshotFiles(url) == before, "the refused open changes nothing")
  }
}
