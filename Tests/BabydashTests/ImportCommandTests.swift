import Foundation
import Testing

/// `babydash import` on the legacy fixtures.
@Suite struct ImportCommandTests {
  let tool: BabydashProcess
  static let fixtures = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures")

  init() throws { tool = try BabydashProcess() }

  private func fixture(_ path: String) -> String { Self.fixtures.appendingPathComponent(path).path }

  @Test func importingTwiceAddsNothingTheSecondTime() throws {
    defer { tool.removeAll() }
    let first = try tool.run(at: "2026-03-01T00:00:00Z", ["import", fixture("legacy/family.json")])
    #expect(first.status == 0, "\(first.stderr)")
    #expect(first.stderr.isEmpty, "no progress when stderr is not a terminal")
    #expect(first.stdout.contains("FeedSession      9         8        0           1        2"))
    let exported = try tool.run(["export"]).stdout
    let storeFiles = try tool.snapshot().filter { $0.key.hasPrefix("BabyDashboard.store/") }
    let again = try tool.run(at: "2026-03-02T00:00:00Z", ["import", fixture("legacy/family.json")])
    #expect(again.status == 0)
    #expect(again.stdout.contains("skipped: already completed for schema 1"))
    let forced = try tool.run(at: "2026-03-02T00:00:00Z", ["import", fixture("legacy/family.json"), "--force"])
    #expect(forced.status == 0)
    #expect(forced.stdout.contains("FeedSession      9         0        8           1        2"))
    #expect(try tool.run(["export"]).stdout == exported)
    #expect(try tool.snapshot().filter { $0.key.hasPrefix("BabyDashboard.store/") } == storeFiles)
  }

  #if os(Linux)
    @Test func progressShowsOnATerminalOnly() throws {
      defer { tool.removeAll() }
      // util-linux `script` gives the child a terminal; the test above shows a pipe gets none.
      let script = Process()
      script.executableURL = URL(fileURLWithPath: "/usr/bin/script")
      let command = [BabydashProcess.executable.path, "--now", "2026-03-01T00:00:00Z", "import", fixture("legacy/family.json")]
      script.arguments = ["-qec", command.map { "'\($0)'" }.joined(separator: " "), "/dev/null"]
      script.environment = ["BABYDASH_APP_GROUP": tool.appGroup.path, "PATH": "/usr/bin:/bin", "TERM": "dumb"]
      let output = Pipe()
      script.standardOutput = output
      script.standardInput = FileHandle.nullDevice
      try script.run()
      let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      script.waitUntilExit()
      #expect(script.terminationStatus == 0)
      #expect(text.contains("importing: 18 of 18 objects written"))
      #expect(text.contains("legacy import of"))
    }
  #endif

  @Test func aDryRunCreatesNothing() throws {
    defer { tool.removeAll() }
    let result = try tool.run(at: "2026-03-01T00:00:00Z", ["import", fixture("legacy/family.json"), "--dry-run"])
    #expect(result.status == 0)
    #expect(result.stdout.hasPrefix("legacy import of '\(fixture("legacy/family.json"))': dry run, nothing written"))
    #expect(try tool.snapshot().isEmpty)
  }

  @Test(arguments: ["negative-amount", "bad-diaper-type", "bad-start-time", "wrong-format", "newer-version", "not-json", "truncated"])
  func aBadFileExits65NamingTheRecordAndWritesNothing(name: String) throws {
    defer { tool.removeAll() }
    try tool.run(at: "2026-03-01T00:00:00Z", ["baby", "add", "Mia"])
    let before = try tool.snapshot()
    let result = try tool.run(at: "2026-03-01T00:00:00Z", ["import", fixture("legacy-bad/\(name).json")])
    #expect(result.status == 65)
    #expect(result.stderr.hasPrefix("babydash: "))
    #expect(result.stderr.contains("\(name).json"))
    #expect(result.stdout.isEmpty)
    #expect(try tool.snapshot() == before)
  }

  @Test func aBadFileOnAFreshAppGroupCreatesNoStore() throws {
    defer { tool.removeAll() }
    let result = try tool.run(["import", fixture("legacy-bad/negative-amount.json")])
    #expect(result.status == 65)
    #expect(result.stderr.contains("at feedSessions[0].amountValue: -30.0 is not an amount"))
    #expect(try tool.snapshot().isEmpty)
  }

  @Test func aMissingFileExits66() throws {
    defer { tool.removeAll() }
    let result = try tool.run(["import", "/nonexistent/export.json"])
    #expect(result.status == 66)
    #expect(result.stderr == "babydash: cannot read '/nonexistent/export.json': no such file\n")
    #expect(try tool.snapshot().isEmpty)
  }
}
