import Foundation
import Testing

/// A day of tracking through `babydash` itself.
@Suite struct TrackerCommandTests {
  let tool: BabydashProcess

  init() throws { tool = try BabydashProcess() }

  private func succeed(at now: String, _ arguments: [String]) throws -> String {
    let result = try tool.run(at: now, arguments)
    #expect(result.status == 0, "babydash \(arguments.joined(separator: " ")): \(result.stderr)")
    #expect(result.stderr.isEmpty)
    return result.stdout
  }

  @Test func aDayOfTrackingPrintsWhatHappened() throws {
    defer { tool.removeAll() }
    #expect(try succeed(at: "2026-01-15T06:00:00Z", ["baby", "add", "Mia", "--feed-term", "2h30m"]).hasPrefix("Added Mia (id "))
    _ = try succeed(at: "2026-01-15T06:05:00Z", ["baby", "add", "Leo"])
    #expect(try succeed(at: "2026-01-15T07:00:00Z", ["feed", "start", "Mia"]) == "Mia started feeding at 07:00.\n")
    #expect(
      try succeed(at: "2026-01-15T07:20:00Z", ["feed", "finish", "Mia", "--amount", "120ml", "--memo", "#latch ok"])
        == "Mia finished feeding at 07:20, 120 mL.\n")
    #expect(try succeed(at: "2026-01-15T09:40:00Z", ["feed", "start", "Mia", "--at", "09:30"]) == "Mia started feeding at 09:30.\n")
    #expect(
      try succeed(at: "2026-01-15T10:00:00Z", ["feed", "finish", "Mia"])
        == "Mia finished feeding at 10:00, 120 mL (the last amount).\n")
    #expect(try succeed(at: "2026-01-15T10:05:00Z", ["diaper", "Leo", "poo"]) == "Logged a poo for Leo at 10:05.\n")
    #expect(
      try succeed(at: "2026-01-15T10:05:00Z", ["--time-zone", "Asia/Tokyo", "feed", "log", "Leo", "--start", "2026-01-15T17:00", "--end", "17:30", "--amount", "4 fl oz"])
        == "Logged Leo's feed 17:00–17:30, 4 fl oz.\n")
    let list = try succeed(at: "2026-01-15T10:05:00Z", ["baby", "list"])
    #expect(list.split(separator: "\n").map { $0.prefix(41) } == [
      "Mia  every 2h 30m  added 2026-01-15 06:00", "Leo  every 3h      added 2026-01-15 06:05",
    ])
    let export = try JSONSerialization.jsonObject(with: Data(try succeed(at: "2026-01-15T10:05:00Z", ["export"]).utf8)) as! [String: Any]
    let feeds = export["feedSessions"] as! [[String: Any]]
    #expect(feeds.map { $0["startTime"] as! String } == ["2026-01-15T07:00:00Z", "2026-01-15T08:00:00Z", "2026-01-15T09:30:00Z"])
    #expect(feeds.map { $0["amountUnitSymbol"] as? String } == ["mL", "fl oz", "mL"])
    #expect(feeds[0]["memoText"] as? String == "#latch ok")
    #expect(feeds[2]["memoText"] == nil, "absent values are omitted")
  }

  @Test func renamingMovesTheCachedAmountAndRemovingKeepsTheFeeds() throws {
    defer { tool.removeAll() }
    _ = try succeed(at: "2026-01-15T06:00:00Z", ["baby", "add", "Mia"])
    _ = try succeed(at: "2026-01-15T07:00:00Z", ["feed", "log", "Mia", "--start", "06:30", "--end", "06:50", "--amount", "90ml"])
    #expect(try succeed(at: "2026-01-15T07:00:00Z", ["baby", "rename", "Mia", "Mila"]) == "Renamed Mia to Mila.\n")
    _ = try succeed(at: "2026-01-15T08:00:00Z", ["feed", "start", "Mila"])
    #expect(try succeed(at: "2026-01-15T08:10:00Z", ["feed", "finish", "Mila"]) == "Mila finished feeding at 08:10, 90 mL (the last amount).\n")
    #expect(
      try succeed(at: "2026-01-15T09:00:00Z", ["baby", "remove", "Mila", "--yes"])
        == "Removed Mila; 2 feeds and 0 diaper changes stay, with no baby.\n")
    let export = try JSONSerialization.jsonObject(with: Data(try succeed(at: "2026-01-15T10:05:00Z", ["export"]).utf8)) as! [String: Any]
    #expect((export["babyProfiles"] as! [Any]).isEmpty)
    #expect((export["feedSessions"] as! [[String: Any]]).allSatisfy { $0["profileID"] == nil })
  }

  @Test func exportIsTheSameBytesEveryTime() throws {
    defer { tool.removeAll() }
    _ = try succeed(at: "2026-01-15T06:00:00Z", ["baby", "add", "Mia"])
    _ = try succeed(at: "2026-01-15T07:00:00Z", ["feed", "log", "Mia", "--start", "06:30", "--end", "06:50", "--amount", "4.5oz"])
    let first = try succeed(at: "2026-01-15T10:00:00Z", ["export"])
    let second = try succeed(at: "2027-03-01T00:00:00Z", ["--time-zone", "Pacific/Kiritimati", "export"])
    #expect(first == second)
    #expect(first.contains("\"amountValue\" : 4.5"))
    #expect(first.contains("\"createdAt\" : \"2026-01-15T06:00:00Z\""))
  }

  @Test func checkSaysTheStoreIsWellAndCountsIt() throws {
    defer { tool.removeAll() }
    _ = try succeed(at: "2026-01-15T06:00:00Z", ["baby", "add", "Mia"])
    _ = try succeed(at: "2026-01-15T06:10:00Z", ["diaper", "Mia", "pee"])
    let report = try succeed(at: "2026-01-15T06:20:00Z", ["check"])
    #expect(report.hasPrefix("ok: 1 baby, 0 feeds, 1 diaper change; 2 transactions in the log; "))
  }

  @Test func twoWritersAtOnceBothLandAndAThirdSeesBoth() throws {
    defer { tool.removeAll() }
    _ = try succeed(at: "2026-01-15T06:00:00Z", ["baby", "add", "Mia"])
    _ = try succeed(at: "2026-01-15T06:01:00Z", ["baby", "add", "Leo"])
    let writers = try (0..<6).map { minute in
      try tool.start(["--now", "2026-01-15T07:0\(minute):00Z", "diaper", minute % 2 == 0 ? "Mia" : "Leo", minute < 4 ? "pee" : "poo"])
    }
    for writer in writers {
      let result = writer.wait()
      #expect(result.status == 0, "\(result.stderr)")
    }
    let status = try succeed(at: "2026-01-15T07:10:00Z", ["status"])
    #expect(status.contains("Last diaper poo at 07:04, 6m ago"), "Mia's last, from the fifth writer")
    #expect(status.contains("Last diaper poo at 07:05, 5m ago"), "Leo's last, from the sixth writer")
    let export = try JSONSerialization.jsonObject(with: Data(try succeed(at: "2026-01-15T10:05:00Z", ["export"]).utf8)) as! [String: Any]
    #expect((export["diaperChanges"] as! [Any]).count == 6)
  }
}
