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

    // Today a version below 2 is taken for format 1 and "migrated": the check belongs in
    // StoreFiles.decode (`guard decoded.formatVersion >= 1`), which this branch does not own.
    withKnownIssue("store.json formatVersion \(version) is read as format 1 (StoreFiles.decode checks only the upper bound)") {
      let error = try #require(throws: StoreError.self) {
        let reopened = try StoreContainer.file(at: url, schema: TestSchema.v1)
        _ = try reopened.newBackgroundContext().fetch(FetchDescriptor<Owner>())
      }
      #expect(error.code == .damaged)
      #expect(error.path.hasSuffix("store.json"))
    }
    let after = try snapshotFiles(url)
    withKnownIssue("the refused open must change nothing") {
      #expect(after == before)
    }
  }
}
