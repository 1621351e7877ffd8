import Foundation
import Testing

/// Issue 57's smaller slips, each through the binary: one exit status per kind of mistake, and a
/// message that says what and where.
@Suite struct SmallSlipsCommandTests {
  let tool: BabydashProcess

  init() throws { tool = try BabydashProcess() }

  @Test func anAmountThatShowsAsZeroIsZero() throws {
    defer { tool.removeAll() }
    #expect(try tool.run(at: "2026-03-10T06:00:00Z", ["baby", "add", "Mia"]).status == 0)
    let tiny = try tool.run(at: "2026-03-10T06:00:00Z", ["feed", "log", "Mia", "--start", "05:00", "--end", "05:10", "--amount", "0.0001ml"])
    #expect(tiny.status == 65)
    #expect(tiny.stderr.hasPrefix("babydash: The amount is zero:"), "\(tiny.stderr)")
  }

  @Test func aDecimalCommaIsNotReadAsAThousandsSeparator() throws {
    defer { tool.removeAll() }
    #expect(try tool.run(at: "2026-03-10T06:00:00Z", ["baby", "add", "Mia"]).status == 0)
    let comma = try tool.run(at: "2026-03-10T06:00:00Z", ["feed", "log", "Mia", "--start", "05:00", "--end", "05:10", "--amount", "4,5oz"])
    #expect(comma.status == 64)
    #expect(comma.stderr.hasPrefix("babydash: bad value '4,5oz' for --amount: a comma is not read in an amount: for decimals use a point, 4.5oz\n"), "\(comma.stderr)")
  }

  @Test func aFeedTermIsWholeMinutes() throws {
    defer { tool.removeAll() }
    let result = try tool.run(at: "2026-03-10T06:00:00Z", ["baby", "add", "Leo", "--feed-term", "90s"])
    #expect(result.status == 64)
    #expect(result.stderr.hasPrefix("babydash: bad value for --feed-term: the time between feeds is in whole minutes; 90s is not (give 1m or 2m)\n"))
  }

  @Test func importingADeviceIsNotAPermissionProblem() throws {
    defer { tool.removeAll() }
    let result = try tool.run(["import", "/dev/null"])
    #expect(result.status == 66)
    #expect(result.stderr == "babydash: cannot read '/dev/null': not a regular file (a device, a FIFO or a socket): give a backup or an export file\n")
  }

  @Test func aBlankAppGroupAndABadTZAreRefused() throws {
    defer { tool.removeAll() }
    let blank = try tool.run(["status"], environment: ["BABYDASH_APP_GROUP": " "])
    #expect(blank.status == 64)
    #expect(blank.stderr.hasPrefix("babydash: BABYDASH_APP_GROUP is set but empty"), "\(blank.stderr)")
    let zone = try tool.run(["status"], environment: ["TZ": "Mars/Base"])
    #expect(zone.status == 64)
    #expect(zone.stderr.hasPrefix("babydash: TZ='Mars/Base' is not a time zone this system knows"), "\(zone.stderr)")
  }

  @Test func aMistypedCommandGetsADidYouMean() throws {
    defer { tool.removeAll() }
    let top = try tool.run(["stauts"])
    #expect(top.status == 64)
    #expect(top.stderr.hasPrefix("babydash: unknown command 'stauts' (did you mean 'status'?)\n"), "\(top.stderr)")
    let sub = try tool.run(["sync", "stauts"])
    #expect(sub.stderr.hasPrefix("babydash: unknown command 'sync stauts' (did you mean 'sync status'?): one of "), "\(sub.stderr)")
  }

  @Test func finishingWithNoAmountAndNothingToPrefillSaysSo() throws {
    defer { tool.removeAll() }
    #expect(try tool.run(at: "2026-03-10T06:00:00Z", ["baby", "add", "Mia"]).status == 0)
    #expect(try tool.run(at: "2026-03-10T06:00:00Z", ["feed", "start", "Mia"]).status == 0)
    let finished = try tool.run(at: "2026-03-10T06:20:00Z", ["feed", "finish", "Mia"])
    #expect(finished.status == 0, "\(finished.stderr)")
    let lines = finished.stdout.split(separator: "\n").map(String.init)
    #expect(lines.first == "Mia finished feeding at 06:20.")
    #expect(lines.last?.hasPrefix("No amount saved (none given, and no earlier amount to use): add it with `babydash feed edit ") == true, "\(finished.stdout)")
  }

  @Test func aFeedInsideAFeedLongerThanADayIsAskedAbout() throws {
    defer { tool.removeAll() }
    #expect(try tool.run(at: "2026-03-01T06:00:00Z", ["baby", "add", "Mia"]).status == 0)
    let long = try tool.run(at: "2026-03-09T13:00:00Z", ["feed", "log", "Mia", "--start", "2026-03-08T06:00", "--end", "2026-03-09T12:00", "--yes"])
    #expect(long.status == 0, "\(long.stderr)")
    let inside = try tool.run(at: "2026-03-09T13:00:00Z", ["feed", "log", "Mia", "--start", "10:00", "--end", "10:20"])
    #expect(inside.status == 65)
    #expect(inside.stderr.hasPrefix("babydash: The feed overlaps another feed of this baby ("), "\(inside.stderr)")
  }

  /// A feed over two others said "The feed overlaps another feed…" twice, once per feed: now one
  /// sentence names both.
  @Test func aFeedOverTwoFeedsSaysItsOverlapOnce() throws {
    defer { tool.removeAll() }
    #expect(try tool.run(at: "2026-03-10T06:00:00Z", ["baby", "add", "Mia"]).status == 0)
    #expect(try tool.run(at: "2026-03-10T06:00:00Z", ["feed", "log", "Mia", "--start", "02:00", "--end", "02:20"]).status == 0)
    #expect(try tool.run(at: "2026-03-10T06:00:00Z", ["feed", "log", "Mia", "--start", "03:00", "--end", "03:20"]).status == 0)
    let over = try tool.run(at: "2026-03-10T06:00:00Z", ["feed", "log", "Mia", "--start", "01:50", "--end", "03:30"])
    #expect(over.status == 65)
    #expect(over.stderr.components(separatedBy: "overlaps").count == 2, "one sentence: \(over.stderr)")
    #expect(over.stderr.hasPrefix("babydash: The feed overlaps 2 other feeds of this baby ("), "\(over.stderr)")
    #expect(over.stderr.contains("check the times, or edit those feeds instead. Run again with --yes to save it as it is."))
  }

  @Test func anEmptyMonthOfHistorySaysWhichMonth() throws {
    defer { tool.removeAll() }
    #expect(try tool.run(at: "2026-03-10T06:00:00Z", ["baby", "add", "Mia"]).status == 0)
    let history = try tool.run(at: "2026-03-10T06:00:00Z", ["history", "--month", "2025-01"])
    #expect(history.status == 0)
    #expect(history.stdout.hasSuffix("No feeds or diaper changes in January 2025.\n"), "\(history.stdout)")
  }

  @Test func aDryRunRestoreRefusesWhatTheRestoreWould() throws {
    defer { tool.removeAll() }
    let other = try BabydashProcess()
    defer { other.removeAll() }
    #expect(try other.run(at: "2026-03-10T06:00:00Z", ["baby", "add", "Mia"]).status == 0)
    try FileManager.default.createDirectory(at: tool.appGroup, withIntermediateDirectories: true)
    let backup = tool.appGroup.appendingPathComponent("backup.json")
    try Data(try other.run(at: "2026-03-10T06:00:00Z", ["export"]).stdout.utf8).write(to: backup)
    #expect(try tool.run(at: "2026-03-10T06:00:00Z", ["baby", "add", "Mia"]).status == 0)
    let dry = try tool.run(at: "2026-03-10T07:00:00Z", ["import", backup.path, "--dry-run"])
    #expect(dry.status == 65)
    #expect(dry.stderr.hasPrefix("babydash: another baby is already named Mia (id "), "\(dry.stderr)")
    #expect(try tool.run(at: "2026-03-10T07:00:00Z", ["import", backup.path, "--dry-run", "--same-name-ok"]).status == 0)
  }

  @Test func fixturesHelpListsTheScenariosInOneColumn() throws {
    defer { tool.removeAll() }
    let help = try tool.run(["help", "fixtures"]).stdout
    let rows = help.split(separator: "\n").drop { $0 != "Scenarios:" }.dropFirst().prefix { $0.hasPrefix("  ") }
    #expect(rows.count >= 4, "\(help)")
    // The summary starts after the name and the spaces that pad it.
    let columns = Set(rows.map { row in row.count - row.dropFirst(2).drop { $0 != " " }.drop { $0 == " " }.count })
    #expect(columns.count == 1, "every summary starts in one column: \(help)")
  }

  @Test func aTimeCanBeGivenAsATimeAgo() throws {
    defer { tool.removeAll() }
    #expect(try tool.run(at: "2026-03-10T06:00:00Z", ["baby", "add", "Mia"]).status == 0)
    #expect(try tool.run(at: "2026-03-10T10:00:00Z", ["diaper", "Mia", "pee", "--at", "-10m"]).stdout == "Logged a pee for Mia at 09:50.\n")
    #expect(try tool.run(at: "2026-03-10T10:00:00Z", ["diaper", "Mia", "poo", "--at", "25 min ago"]).stdout == "Logged a poo for Mia at 09:35.\n")
    #expect(try tool.run(at: "2026-03-10T10:00:00Z", ["feed", "start", "Mia", "--at", "1h30m ago"]).stdout == "Mia started feeding at 08:30.\n")
    let bad = try tool.run(at: "2026-03-10T10:00:00Z", ["diaper", "Mia", "pee", "--at", "ten min ago"])
    #expect(bad.status == 64)
    #expect(bad.stderr.hasPrefix("babydash: bad value 'ten min ago' for --at: expected a time ago like -10m, 10m ago or 1h30m ago\n"), "\(bad.stderr)")
  }
}
