import Foundation
import Testing

/// Times and amounts that cannot surprise: a clock time ahead of now is refused naming both readings, and a
/// feed that is possible but doubtful (too long, too old, overlapping, zero) needs `--yes`.
@Suite struct PlausibilityCommandTests {
  let tool: BabydashProcess

  init() throws { tool = try BabydashProcess() }

  /// Runs a command that must be refused with `status`, proving nothing changed on disk.
  private func refused(_ arguments: [String], at now: String, status: Int32 = 65) throws -> String {
    let before = try tool.snapshot()
    let result = try tool.run(at: now, arguments)
    #expect(result.status == status, "babydash \(arguments.joined(separator: " ")): \(result.stderr)")
    #expect(try tool.snapshot() == before, "babydash \(arguments.joined(separator: " ")) changed files")
    return result.stderr
  }

  @Test func aClockTimeAheadOfNowByAnyAmountIsRefusedNamingBothReadings() throws {
    defer { tool.removeAll() }
    #expect(try tool.run(at: "2026-11-20T08:00:00Z", ["baby", "add", "Mia"]).status == 0)
    let stderr = try refused(["feed", "log", "Mia", "--start", "17:50", "--end", "18:00"], at: "2026-11-26T17:47:00Z")
    #expect(stderr == "babydash: --start 17:50: 17:50 today is in 3m, and a time in the future is refused; for yesterday give 2026-11-25T17:50\n")
    // The same time, given with its day, is yesterday's feed.
    let logged = try tool.run(at: "2026-11-26T17:47:00Z", ["feed", "log", "Mia", "--start", "2026-11-25T17:50", "--end", "2026-11-25T18:00"])
    #expect(logged.stdout == "Logged Mia's feed 2026-11-25 17:50–2026-11-25 18:00.\n", "\(logged.stderr)")
    // More than an hour ahead is refused the same way: never yesterday in silence.
    let later = try refused(["feed", "start", "Mia", "--at", "16:52"], at: "2026-11-26T14:02:00Z")
    #expect(later == "babydash: --at 16:52: 16:52 today is in 2h 50m, and a time in the future is refused; for yesterday give 2026-11-25T16:52\n")
    #expect(try refused(["diaper", "Mia", "pee", "--at", "19:00"], at: "2026-11-26T17:47:00Z").contains("for yesterday give 2026-11-25T19:00"))
    // A future time given as ISO 8601 is the same slip, with the same exit status.
    #expect(try refused(["diaper", "Mia", "pee", "--at", "2026-11-26T19:00"], at: "2026-11-26T17:47:00Z").contains("The time is in the future"))
    // Within the minute of clock skew, today.
    #expect(try tool.run(at: "2026-11-26T17:47:30Z", ["diaper", "Mia", "poo", "--at", "17:48"]).stdout == "Logged a poo for Mia at 17:48.\n")
  }

  @Test func aFeedLongerThanFourHoursNeedsYes() throws {
    defer { tool.removeAll() }
    #expect(try tool.run(at: "2026-11-26T08:00:00Z", ["baby", "add", "Mia"]).status == 0)
    #expect(try tool.run(at: "2026-11-26T08:00:00Z", ["feed", "start", "Mia"]).status == 0)
    let stderr = try refused(["feed", "finish", "Mia", "--amount", "90ml"], at: "2026-11-26T14:10:00Z")
    #expect(
      stderr == "babydash: The feed lasts 6 hours, longer than 4 hours: check its start and end (was it left running?). "
        + "Run again with --yes to save it as it is.\n")
    let confirmed = try tool.run(at: "2026-11-26T14:10:00Z", ["feed", "finish", "Mia", "--amount", "90ml", "--yes"])
    #expect(confirmed.stdout == "Mia finished feeding at 14:10, 90 mL.\n", "\(confirmed.stderr)")
  }

  @Test func aStartMoreThanADayAgoNeedsYes() throws {
    defer { tool.removeAll() }
    #expect(try tool.run(at: "2026-11-20T08:00:00Z", ["baby", "add", "Mia"]).status == 0)
    let stderr = try refused(["feed", "start", "Mia", "--at", "2026-11-23T17:00"], at: "2026-11-26T17:47:00Z")
    #expect(stderr == "babydash: The feed starts more than a day ago: check the date. Run again with --yes to save it as it is.\n")
    #expect(try tool.run(at: "2026-11-26T17:47:00Z", ["feed", "log", "Mia", "--start", "2026-11-23T17:00", "--end", "2026-11-23T17:20", "--yes"]).status == 0)
    // Editing what is not the start (the memo) asks nothing about the old start.
    let history = try tool.run(at: "2026-11-26T17:47:00Z", ["history"]).stdout
    let id = try #require(history.split(separator: "\n").first { $0.contains("Feed") }?.split(separator: " ").first.map(String.init))
    #expect(try tool.run(at: "2026-11-26T17:47:00Z", ["feed", "edit", id, "--memo", "late"]).status == 0)
  }

  @Test func aFeedOverlappingAnotherOfTheBabyNeedsYes() throws {
    defer { tool.removeAll() }
    #expect(try tool.run(at: "2026-11-26T08:00:00Z", ["baby", "add", "Mia"]).status == 0)
    #expect(try tool.run(at: "2026-11-26T08:00:00Z", ["baby", "add", "Leo"]).status == 0)
    #expect(try tool.run(at: "2026-11-26T10:00:00Z", ["feed", "log", "Mia", "--start", "09:00", "--end", "09:30"]).status == 0)
    let stderr = try refused(["feed", "log", "Mia", "--start", "09:20", "--end", "09:40"], at: "2026-11-26T10:00:00Z")
    #expect(stderr.hasPrefix("babydash: The feed overlaps another feed of this baby ("))
    #expect(stderr.hasSuffix("): check the times, or edit that feed instead. Run again with --yes to save it as it is.\n"))
    // Another baby's feed, and a feed that starts as the other ends, are no overlap.
    #expect(try tool.run(at: "2026-11-26T10:00:00Z", ["feed", "log", "Leo", "--start", "09:20", "--end", "09:40"]).status == 0)
    #expect(try tool.run(at: "2026-11-26T10:00:00Z", ["feed", "log", "Mia", "--start", "09:30", "--end", "09:40"]).status == 0)
    #expect(try tool.run(at: "2026-11-26T10:00:00Z", ["feed", "log", "Mia", "--start", "09:20", "--end", "09:40", "--yes"]).status == 0)
    // Starting a feed inside a finished one asks too.
    #expect(try refused(["feed", "start", "Mia", "--at", "09:35"], at: "2026-11-26T10:00:00Z").contains("The feed overlaps 2 other feeds of this baby"))
  }

  @Test func aZeroAmountNeedsYesAndNeverBecomesThePrefill() throws {
    defer { tool.removeAll() }
    #expect(try tool.run(at: "2026-11-26T08:00:00Z", ["baby", "add", "Mia"]).status == 0)
    #expect(try tool.run(at: "2026-11-26T10:00:00Z", ["feed", "log", "Mia", "--start", "08:00", "--end", "08:20", "--amount", "120ml"]).status == 0)
    let stderr = try refused(["feed", "log", "Mia", "--start", "09:00", "--end", "09:10", "--amount", "0ml"], at: "2026-11-26T10:00:00Z")
    #expect(
      stderr == "babydash: The amount is zero: leave it empty if the baby took nothing measured; a zero is never used as the next prefill. "
        + "Run again with --yes to save it as it is.\n")
    #expect(try tool.run(at: "2026-11-26T10:00:00Z", ["feed", "log", "Mia", "--start", "09:00", "--end", "09:10", "--amount", "0ml", "--yes"]).status == 0)
    // The next feed is prefilled with the last real amount, not the zero.
    #expect(try tool.run(at: "2026-11-26T11:00:00Z", ["feed", "start", "Mia"]).status == 0)
    #expect(try tool.run(at: "2026-11-26T11:20:00Z", ["feed", "finish", "Mia"]).stdout == "Mia finished feeding at 11:20, 120 mL (the last amount).\n")
  }
}

/// Feed terms: a number without a unit is asked about, and `baby edit` changes a term later.
@Suite struct FeedTermCommandTests {
  let tool: BabydashProcess

  init() throws { tool = try BabydashProcess() }

  @Test func aBareNumberIsRefusedNamingItsReadings() throws {
    defer { tool.removeAll() }
    let result = try tool.run(at: "2026-11-26T08:00:00Z", ["baby", "add", "Mia", "--feed-term", "90"])
    #expect(result.status == 64)
    #expect(result.stderr.hasPrefix("babydash: bad value '90' for --feed-term: 90 what? give 90m or 1h30m\n"))
    #expect(try tool.snapshot().isEmpty, "nothing was written")
  }

  @Test func babyEditChangesTheFeedTermAndTheName() throws {
    defer { tool.removeAll() }
    #expect(try tool.run(at: "2026-11-26T08:00:00Z", ["baby", "add", "Mia"]).status == 0)
    #expect(try tool.run(at: "2026-11-26T08:00:00Z", ["feed", "log", "Mia", "--start", "07:00", "--end", "07:20", "--amount", "100ml"]).status == 0)
    let term = try tool.run(at: "2026-11-26T08:00:00Z", ["baby", "edit", "Mia", "--feed-term", "2h30m"])
    #expect(term.stdout == "Updated Mia, fed every 2h 30m.\n", "\(term.stderr)")
    #expect(try tool.run(at: "2026-11-26T08:00:00Z", ["status"]).stdout.contains("Next feed   due 09:30 (in 1h 30m); every 2h 30m"))
    let both = try tool.run(at: "2026-11-26T08:00:00Z", ["baby", "edit", "Mia", "--name", "Mila", "--feed-term", "3h"])
    #expect(both.stdout == "Updated Mila (was Mia), fed every 3h.\n", "\(both.stderr)")
    #expect(try tool.run(at: "2026-11-26T08:00:00Z", ["baby", "add", "Leo"]).status == 0)
    let taken = try tool.run(at: "2026-11-26T08:00:00Z", ["baby", "edit", "Leo", "--name", "Mila"])
    #expect(taken.status == 65)
    #expect(taken.stderr.contains("another baby is already named Mila"))
    let nothing = try tool.run(at: "2026-11-26T08:00:00Z", ["baby", "edit", "Leo"])
    #expect(nothing.status == 64)
    #expect(nothing.stderr.hasPrefix("babydash: nothing to change: give --feed-term or --name\n"))
  }
}
