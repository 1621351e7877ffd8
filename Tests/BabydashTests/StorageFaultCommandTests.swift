import BabyDashboard
import Foundation
import Testing

/// Values a person can type that the store cannot hold or the tool cannot count: refused with
/// an exit status and a message, never a crash (a trap ends the process on a signal), never a
/// store that every later command calls damaged.
@Suite struct StorageFaultCommandTests {
  /// A crash shows as a signal number (4, 5, 11) where an exit status should be.
  static func expectNoCrash(_ result: BabydashProcess.Result, _ allowed: Set<Int32>) {
    #expect(allowed.contains(result.status), "exit \(result.status): \(result.stderr)")
    #expect(!result.stderr.contains("Fatal error"), "\(result.stderr)")
  }

  @Test(arguments: [
    ["--now", "9999-12-31T23:00:00-14:00", "diaper", "Mia", "pee"],
    ["--time-zone", "America/New_York", "feed", "log", "Mia", "--start", "9999-12-31T23:00"],
  ])
  func aTimeBeyondTheYear9999IsRefusedAndTheStoreStaysReadable(_ arguments: [String]) throws {
    let tool = try BabydashProcess()
    defer { tool.removeAll() }
    #expect(try tool.run(at: "2026-01-15T06:00:00Z", ["baby", "add", "Mia"]).status == 0)
    let before = try tool.snapshot()

    let refused = try tool.run(arguments)
    Self.expectNoCrash(refused, [64, 65])
    #expect(refused.stderr.contains("9999") || refused.stderr.contains("10000"), "\(refused.stderr)")
    #expect(try tool.snapshot() == before)

    let status = try tool.run(at: "2026-01-15T07:00:00Z", ["status"])
    #expect(status.status == 0, "\(status.stderr)")
  }

  @Test(arguments: ["2562047788015216h", "9223372036854775807h", "1h9223372036854775807s", "153722867280912931m"])
  func aFeedTermTooLongToCountIsAUsageErrorNotACrash(_ term: String) throws {
    let tool = try BabydashProcess()
    defer { tool.removeAll() }
    let result = try tool.run(at: "2026-01-15T06:00:00Z", ["baby", "add", "Mia", "--feed-term", term])
    Self.expectNoCrash(result, [64])
    #expect(result.stderr.contains("bad value '\(term)' for --feed-term"), "\(result.stderr)")
    #expect(try tool.snapshot().isEmpty)
  }

  /// `--feed-term 9223372036854775807` is 2^63 seconds: either refused as a feed term, or
  /// stored; then the widget and the dashboard must still work and write a file the widget reads.
  @Test func theWidgetAfterAnEnormousFeedTermWorks() throws {
    let tool = try BabydashProcess()
    defer { tool.removeAll() }
    let added = try tool.run(at: "2026-01-15T06:00:00Z", ["baby", "add", "Mia", "--feed-term", "9223372036854775807"])
    Self.expectNoCrash(added, [0, 64, 65])
    guard added.status == 0 else { return }
    Self.expectNoCrash(try tool.run(at: "2026-01-15T06:10:00Z", ["feed", "start", "Mia"]), [0])
    for command in [["widget"], ["widget", "--family", "small"], ["status"], ["baby", "list"]] {
      Self.expectNoCrash(try tool.run(at: "2026-01-15T06:20:00Z", command), [0])
    }
    let snapshots = try BabyWidgetSnapshots.read(appGroupDirectory: tool.appGroup)
    #expect(snapshots?.babies.first?.name == "Mia")
    #expect(snapshots?.babies.first?.nextFeedDue == nil)
  }
}
