import Foundation
import Testing

/// `status`, `history`, `widget`, `fixtures` and `previews` through `babydash` itself.
@Suite struct ViewCommandTests {
  let tool: BabydashProcess
  /// The world of the committed previews.
  let world = ["--now", "2026-03-10T14:30:00Z", "--time-zone", "America/New_York"]

  init() throws { tool = try BabydashProcess() }

  static let previews = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Previews")

  private func output(_ arguments: [String]) throws -> String {
    let result = try tool.run(world + arguments)
    #expect(result.status == 0, "\(arguments): \(result.stderr)")
    return result.stdout
  }

  /// A history page without the short id that starts each row, each wrapped memo joined into
  /// one line: what is left must read as the preview does (the id column moves where memos wrap).
  private func withoutIDs(_ history: String) -> String {
    Self.unwrapped(history.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      let characters = Array(line)
      guard characters.count > 12, line.hasPrefix("  "), characters[2..<10].allSatisfy(\.isHexDigit), line.dropFirst(10).hasPrefix("  ")
      else { return String(line) }
      return "  " + String(line.dropFirst(12))
    }.joined(separator: "\n"))
  }

  /// The page with each memo (its lines indented past the rows) on one line.
  static func unwrapped(_ page: String) -> String {
    var lines: [String] = []
    for line in page.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("          "), let last = lines.last, !last.isEmpty {
        lines[lines.count - 1] = last + " " + line.trimmingCharacters(in: .whitespaces)
      } else {
        lines.append(String(line))
      }
    }
    return lines.joined(separator: "\n")
  }

  private func preview(_ path: String) throws -> String {
    Self.unwrapped(try String(contentsOf: Self.previews.appendingPathComponent(path), encoding: .utf8))
  }

  @Test func aSeededStoreShowsWhatThePreviewsShow() throws {
    defer { tool.removeAll() }
    #expect(try output(["fixtures", "two-babies"]) == "Seeded 'two-babies': the store now holds 2 babies, 5 feeds and 5 diaper changes.\n")
    #expect(try output(["status"]) == preview("Dashboard/two-babies.txt"))
    #expect(try withoutIDs(output(["history"])) == preview("History/two-babies.txt"))
    #expect(try output(["widget"]) == preview("Widget/two-babies.medium.txt"))
    #expect(try output(["widget", "--family", "small"]) == preview("Widget/two-babies.small.txt"))
    let snapshot = tool.appGroup.appendingPathComponent("WidgetCache/snapshots.json")
    #expect(FileManager.default.fileExists(atPath: snapshot.path), "widget refreshes the snapshot file")
  }

  @Test func historyFiltersByBabyTagAndMonth() throws {
    defer { tool.removeAll() }
    _ = try output(["fixtures", "history"])
    #expect(try withoutIDs(output(["history", "--baby", "Mia"])) == preview("History/history.mia.txt"))
    #expect(try withoutIDs(output(["history", "--tag", "#night"])) == preview("History/history.tag-night.txt"))
    let february = try output(["history", "--month", "2026-02"])
    #expect(february.contains("February 2026"))
    #expect(!february.contains("March 2026") && !february.contains("January 2026"))
    let bad = try tool.run(world + ["history", "--month", "2026-13"])
    #expect(bad.status == 64)
    #expect(bad.stderr.hasPrefix("babydash: bad value '2026-13' for --month: expected a month like 2026-03\n"))
  }

  @Test func seedingTwiceAddsNothingAndAnUnknownScenarioIsAUsageError() throws {
    defer { tool.removeAll() }
    _ = try output(["fixtures", "edge-cases"])
    let once = try output(["export"])
    _ = try output(["fixtures", "edge-cases", "--into-existing"])
    #expect(try output(["export"]) == once)
    let before = try tool.snapshot()
    let unknown = try tool.run(world + ["fixtures", "twins"])
    #expect(unknown.status == 64)
    #expect(unknown.stderr.hasPrefix("babydash: unknown scenario 'twins': one of empty, two-babies, history, edge-cases\n"))
    #expect(try tool.snapshot() == before)
    #expect(try output(["fixtures", "list"]).split(separator: "\n").map { $0.prefix { $0 != " " } } == ["empty", "two-babies", "history", "edge-cases"])
  }

  @Test func previewsRecordsAndChecksAFolder() throws {
    defer { tool.removeAll() }
    let folder = tool.appGroup.appendingPathComponent("Previews")
    let recorded = try tool.run(["previews", "--dir", folder.path])
    #expect(recorded.status == 0, "\(recorded.stderr)")
    let clean = try tool.run(["previews", "--check", "--dir", folder.path])
    #expect(clean.status == 0)
    #expect(clean.stdout.contains("all match"))

    let drifted = folder.appendingPathComponent("Dashboard/two-babies.txt")
    let original = try String(contentsOf: drifted, encoding: .utf8)
    try original.replacingOccurrences(of: "FEEDING NOW", with: "feeding now").write(to: drifted, atomically: true, encoding: .utf8)
    try "stale\n".write(to: folder.appendingPathComponent("Widget/gone.txt"), atomically: true, encoding: .utf8)
    let before = try tool.snapshot()
    let check = try tool.run(
      ["previews", "--check", "--dir", folder.path], environment: ["SNAPSHOT_ARTIFACTS": tool.appGroup.appendingPathComponent("artifacts").path])
    #expect(check.status == 1)
    #expect(check.stderr.contains("--- Previews/Dashboard/two-babies.txt (recorded)"))
    #expect(check.stderr.contains("-Mia                                                          feeding now"))
    #expect(check.stderr.contains("+Mia                                                          FEEDING NOW"))
    #expect(check.stderr.contains("Widget/gone.txt"))
    #expect(check.stderr.contains("swift run babydash previews"))
    let after = try tool.snapshot().filter { !$0.key.hasPrefix("artifacts/") }
    #expect(after == before, "--check writes nothing into the previews")
  }

  @Test func theCommittedPreviewsAreCurrent() throws {
    defer { tool.removeAll() }
    let check = try tool.run(["previews", "--check", "--dir", Self.previews.path])
    #expect(check.status == 0, "\(check.stderr)")
  }
}
