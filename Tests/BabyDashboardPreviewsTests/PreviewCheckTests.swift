import BabyDashboardPreviews
import BabyDashboardTesting
import Foundation
import Testing

/// The checker on a temporary copy of the committed previews: drift, orphans and missing files
/// fail with a readable report, and checking never writes into the folder.
@Suite struct PreviewCheckTests {
  /// A copy of the committed previews plus a separate artifacts folder.
  struct Copy {
    let root: TemporaryDirectory
    var previews: URL { root.url.appendingPathComponent("Previews", isDirectory: true) }
    var artifacts: URL { root.url.appendingPathComponent("artifacts", isDirectory: true) }

    @MainActor init() throws {
      root = try TemporaryDirectory()
      try PreviewFiles.record(into: root.url.appendingPathComponent("Previews", isDirectory: true))
      // Start from the committed bytes where they exist, so the copy is the real folder.
      for entry in PreviewCatalog.entries {
        let committed = packagePreviews.appendingPathComponent(entry.relativePath)
        if let data = FileManager.default.contents(atPath: committed.path) {
          try data.write(to: previews.appendingPathComponent(entry.relativePath))
        }
      }
    }

    func contents() throws -> [String: Data] {
      var result: [String: Data] = [:]
      let walker = FileManager.default.enumerator(atPath: previews.path)
      while let path = walker?.nextObject() as? String {
        if let data = FileManager.default.contents(atPath: previews.appendingPathComponent(path).path) {
          result[path] = data
        }
      }
      return result
    }
  }

  @Test @MainActor func aDriftedPreviewFailsWithAUnifiedDiffAndAHint() throws {
    let copy = try Copy()
    defer { copy.root.remove() }
    let file = copy.previews.appendingPathComponent("Dashboard/two-babies.txt")
    let original = try String(contentsOf: file, encoding: .utf8)
    let drifted = original.replacingOccurrences(of: "  Feeding     since 10:05 (25m)", with: "  Feeding     since 10:04 (26m)")
    #expect(drifted != original)
    try Data(drifted.utf8).write(to: file)
    let before = try copy.contents()

    let result = try PreviewFiles.check(in: copy.previews, artifactsDirectory: copy.artifacts, environment: [:])

    #expect(!result.isClean)
    #expect(result.drifted.map(\.name) == ["Dashboard/two-babies"])
    #expect(result.missing.isEmpty && result.orphans.isEmpty)
    let diff = try #require(result.drifted.first?.diff)
    #expect(diff.hasPrefix("--- Previews/Dashboard/two-babies.txt (recorded)\n+++ Previews/Dashboard/two-babies.txt (rendered now)\n@@ -"))
    #expect(diff.contains("\n-  Feeding     since 10:04 (26m)\n+  Feeding     since 10:05 (25m)\n"))
    #expect(result.report.contains("drifted: Dashboard/two-babies.txt"))
    #expect(result.report.contains("swift run babydash previews"))
    // Nothing written into the folder; the new rendering is in the artifacts for review.
    #expect(try copy.contents() == before)
    let artifact = copy.artifacts.appendingPathComponent("Dashboard/two-babies.txt")
    #expect(try String(contentsOf: artifact, encoding: .utf8) == original)
  }

  @Test @MainActor func anOrphanFileFailsTheCheck() throws {
    let copy = try Copy()
    defer { copy.root.remove() }
    try Data("old\n".utf8).write(to: copy.previews.appendingPathComponent("Widget/large.txt"))

    let result = try PreviewFiles.check(in: copy.previews, artifactsDirectory: copy.artifacts, environment: [:])

    #expect(!result.isClean)
    #expect(result.orphans == ["Widget/large.txt"])
    #expect(result.drifted.isEmpty && result.missing.isEmpty)
    #expect(result.report.contains("orphan: Widget/large.txt"))
  }

  @Test @MainActor func aMissingFileFailsTheCheck() throws {
    let copy = try Copy()
    defer { copy.root.remove() }
    try FileManager.default.removeItem(at: copy.previews.appendingPathComponent("History/empty.txt"))

    let result = try PreviewFiles.check(in: copy.previews, artifactsDirectory: copy.artifacts, environment: [:])

    #expect(!result.isClean)
    #expect(result.missing == ["History/empty.txt"])
    #expect(result.report.contains("missing: History/empty.txt"))
    #expect(!FileManager.default.fileExists(atPath: copy.previews.appendingPathComponent("History/empty.txt").path))
  }

  @Test @MainActor func aCleanCopyPassesAndTheArtifactsGoWhereSnapshotArtifactsSays() throws {
    let copy = try Copy()
    defer { copy.root.remove() }
    let clean = try PreviewFiles.check(in: copy.previews, environment: [:])
    #expect(clean.isClean, "\(clean.report)")
    #expect(clean.report.contains("all match"))

    let env = ["SNAPSHOT_ARTIFACTS": copy.artifacts.path]
    #expect(PreviewFiles.defaultArtifactsDirectory(for: copy.previews, environment: env).path == copy.artifacts.path)
    #expect(
      PreviewFiles.defaultArtifactsDirectory(for: copy.previews, environment: [:]).path
        == copy.root.url.appendingPathComponent(".build/preview-artifacts").path)
    try FileManager.default.removeItem(at: copy.previews.appendingPathComponent("Widget/empty.small.txt"))
    _ = try PreviewFiles.check(in: copy.previews, environment: env)
    #expect(FileManager.default.fileExists(atPath: copy.artifacts.appendingPathComponent("Widget/empty.small.txt").path))
  }

  @Test @MainActor func recordWritesEveryPreviewAndRemovesOrphans() throws {
    let root = try TemporaryDirectory()
    defer { root.remove() }
    let folder = root.url.appendingPathComponent("Previews")
    let first = try PreviewFiles.record(into: folder)
    #expect(first.written.count == PreviewCatalog.entries.count)
    #expect(try PreviewFiles.check(in: folder, environment: [:]).isClean)

    try Data("x\n".utf8).write(to: folder.appendingPathComponent("Dashboard/gone.txt"))
    try Data("notes\n".utf8).write(to: folder.appendingPathComponent("README.md"))
    let second = try PreviewFiles.record(into: folder)
    #expect(second.written.isEmpty)
    #expect(second.unchanged == PreviewCatalog.entries.count)
    #expect(second.removed == ["Dashboard/gone.txt"])
    #expect(second.otherFiles == ["README.md"])
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("Dashboard/gone.txt").path))
  }

  @Test @MainActor func recordModesWriteOnlyWhatTheyMay() throws {
    let copy = try Copy()
    defer { copy.root.remove() }
    let missing = copy.previews.appendingPathComponent("Widget/two-babies.small.txt")
    let drifted = copy.previews.appendingPathComponent("History/two-babies.txt")
    let good = try Data(contentsOf: drifted)
    try FileManager.default.removeItem(at: missing)
    try Data("changed\n".utf8).write(to: drifted)

    let never = try PreviewFiles.verify(in: copy.previews, mode: .never, artifactsDirectory: copy.artifacts, environment: [:])
    #expect(never.recorded.isEmpty && !never.isClean)
    #expect(!FileManager.default.fileExists(atPath: missing.path))

    let onlyMissing = try PreviewFiles.verify(in: copy.previews, mode: .missing, artifactsDirectory: copy.artifacts, environment: [:])
    #expect(onlyMissing.recorded == ["Widget/two-babies.small.txt"])
    #expect(!onlyMissing.isClean)  // it fails once, so that the recording is noticed
    #expect(try Data(contentsOf: drifted) == Data("changed\n".utf8))

    let failed = try PreviewFiles.verify(in: copy.previews, mode: .failed, artifactsDirectory: copy.artifacts, environment: [:])
    #expect(failed.recorded == ["History/two-babies.txt"])
    #expect(try Data(contentsOf: drifted) == good)
    #expect(try PreviewFiles.check(in: copy.previews, artifactsDirectory: copy.artifacts, environment: [:]).isClean)
  }

  @Test(arguments: [
    ([:], PreviewRecordMode.missing),
    (["SNAPSHOT_TESTING_RECORD": "all"], .all),
    (["SNAPSHOT_TESTING_RECORD": "failed"], .failed),
    (["SNAPSHOT_TESTING_RECORD": "never"], .never),
    (["SNAPSHOT_TESTING_RECORD": "MISSING"], .missing),
    (["CI": "true"], .never),
    (["CI": "true", "SNAPSHOT_TESTING_RECORD": "all"], .never),
    (["CI": "false", "SNAPSHOT_TESTING_RECORD": "all"], .all),
  ])
  func theEnvironmentPicksTheRecordMode(environment: [String: String], mode: PreviewRecordMode) throws {
    #expect(try PreviewRecordMode.fromEnvironment(environment) == mode)
  }

  @Test func anUnknownRecordModeIsAClearError() {
    #expect {
      try PreviewRecordMode.fromEnvironment(["SNAPSHOT_TESTING_RECORD": "sometimes"])
    } throws: { error in
      "\(error)".contains("SNAPSHOT_TESTING_RECORD='sometimes'") && "\(error)".contains("all, missing, failed or never")
    }
  }
}
