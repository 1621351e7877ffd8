import Foundation
import Testing

/// Every value a person types is checked before anything is written.
@Suite struct InputCheckTests {
  let tool: BabydashProcess

  init() throws { tool = try BabydashProcess() }

  /// Runs a command that must be refused with `status`, proving nothing changed on disk.
  private func refused(_ arguments: [String], at now: String = "2026-01-15T00:10:00Z", status: Int32 = 65) throws -> String {
    let before = try tool.snapshot()
    let result = try tool.run(at: now, arguments)
    #expect(result.status == status, "babydash \(arguments.joined(separator: " ")): \(result.stderr)")
    #expect(try tool.snapshot() == before, "babydash \(arguments.joined(separator: " ")) changed files")
    return result.stderr
  }

  @Test func justAfterMidnightAClockTimeOfLastNightIsRefusedNamingItsDayAndFinishingWorks() throws {
    defer { tool.removeAll() }
    #expect(try tool.run(at: "2026-01-15T00:00:00Z", ["baby", "add", "Mia", "--created-at", "2026-01-14T08:00:00Z"]).status == 0)
    #expect(
      try refused(["feed", "start", "Mia", "--at", "23:50"])
        == "babydash: --at 23:50: 23:50 today is in 23h 40m, and a time in the future is refused; for yesterday give 2026-01-14T23:50\n")
    #expect(try tool.run(at: "2026-01-15T00:10:00Z", ["feed", "start", "Mia", "--at", "2026-01-14T23:50"]).stdout == "Mia started feeding at 2026-01-14 23:50.\n")
    #expect(try tool.run(at: "2026-01-15T00:20:00Z", ["feed", "finish", "Mia", "--amount", "90ml"]).stdout == "Mia finished feeding at 00:20, 90 mL.\n")
    #expect(try tool.run(at: "2026-01-15T00:20:00Z", ["diaper", "Mia", "pee", "--at", "00:15"]).stdout == "Logged a pee for Mia at 00:15.\n")
  }

  @Test func aTimeInTheFutureIsRefused() throws {
    defer { tool.removeAll() }
    #expect(try tool.run(at: "2026-01-15T00:00:00Z", ["baby", "add", "Mia"]).status == 0)
    let message = "babydash: The time is in the future: give a time that has passed (HH:mm means today's).\n"
    #expect(try refused(["feed", "start", "Mia", "--at", "2026-01-15T00:12:00Z"]) == message)
    #expect(try refused(["diaper", "Mia", "poo", "--at", "2026-01-16T00:00:00Z"]) == message)
    #expect(try tool.run(at: "2026-01-15T00:10:00Z", ["feed", "start", "Mia", "--at", "2026-01-15T00:10:30Z"]).status == 0, "a minute of clock skew is fine")
  }

  @Test func aLocalTimeInADaylightSavingGapIsRefusedNamingTheTimesAround() throws {
    defer { tool.removeAll() }
    #expect(try tool.run(at: "2026-03-01T00:00:00Z", ["baby", "add", "Mia"]).status == 0)
    let stderr = try refused(
      ["--time-zone", "America/New_York", "diaper", "Mia", "pee", "--at", "2026-03-08T02:30"], at: "2026-03-09T00:00:00Z", status: 64)
    #expect(stderr.hasPrefix("babydash: bad value '2026-03-08T02:30' for --at: 2026-03-08T02:30 does not exist in America/New_York (the clocks jump forward there): give 01:59 or earlier, or 03:00 or later\n"))
  }

  @Test func aTimeInTheRepeatedHourNeedsAnOffset() throws {
    defer { tool.removeAll() }
    #expect(try tool.run(at: "2026-10-01T00:00:00Z", ["baby", "add", "Mia"]).status == 0)
    let zone = ["--time-zone", "America/New_York"]
    let stderr = try refused(zone + ["diaper", "Mia", "pee", "--at", "2026-11-01T01:30"], at: "2026-11-02T00:00:00Z", status: 64)
    #expect(stderr.contains("happens twice in America/New_York"))
    #expect(try tool.run(at: "2026-11-02T00:00:00Z", zone + ["diaper", "Mia", "pee", "--at", "2026-11-01T01:30-05:00"]).status == 0)
    #expect(try tool.run(at: "2026-11-02T00:00:00Z", zone + ["diaper", "Mia", "pee", "--at", "2026-11-01T01:30-04:00"]).status == 0)
    // The history tells the two 01:30s apart.
    let rows = try tool.run(at: "2026-11-02T00:00:00Z", zone + ["history"]).stdout.split(separator: "\n").filter { $0.contains("01:30") }
    #expect(rows.map { $0.dropFirst(12) } == ["01:30  Mia  Diaper  pee  (UTC-05:00)", "01:30  Mia  Diaper  pee  (UTC-04:00)"])
  }

  @Test func anAmountWithAThousandsSeparatorIsRefusedWithAHint() throws {
    defer { tool.removeAll() }
    #expect(try tool.run(at: "2026-01-15T00:00:00Z", ["baby", "add", "Mia"]).status == 0)
    let stderr = try refused(["feed", "log", "Mia", "--start", "00:01", "--amount", "1,000ml"], status: 64)
    #expect(stderr.hasPrefix("babydash: bad value '1,000ml' for --amount: a comma is ambiguous in an amount: write 1000ml (no thousands separator), or use a point for decimals, e.g. 4.5oz\n"))
    #expect(try refused(["feed", "log", "Mia", "--start", "00:01", "--amount", "5000ml"]).contains("more than 1000 mL"))
  }

  @Test(arguments: ["Mi\u{1B}[31ma", "Bell\u{07}", "Two\nLines", String(repeating: "x", count: 101), "\u{202E}aiM", "Is\u{2067}olate", "M\u{FFFD}a"])
  func aNameWithControlCharactersOrTooLongIsRefused(name: String) throws {
    defer { tool.removeAll() }
    #expect(try tool.run(at: "2026-01-15T00:00:00Z", ["baby", "add", "Leo"]).status == 0)
    _ = try refused(["baby", "add", name])
    _ = try refused(["baby", "rename", "Leo", name])
  }

  @Test func aNameAnotherBabyHasNeedsSameNameOk() throws {
    defer { tool.removeAll() }
    #expect(try tool.run(at: "2026-01-15T00:00:00Z", ["baby", "add", "Mia"]).status == 0)
    #expect(try tool.run(at: "2026-01-15T00:00:00Z", ["baby", "add", "Leo"]).status == 0)
    #expect(try refused(["baby", "add", "Mia"]).contains("add --same-name-ok and then address each baby by its id"))
    #expect(try refused(["baby", "rename", "Leo", "Mia"]).contains("another baby is already named Mia (id "))
    #expect(try tool.run(at: "2026-01-15T00:00:00Z", ["baby", "add", "Mia", "--same-name-ok"]).status == 0)
  }

  @Test func aFailingCommandOnAFreshFolderLeavesNoFile() throws {
    defer { tool.removeAll() }
    let fresh = tool.appGroup.appendingPathComponent("fresh")
    let result = try tool.run(["--app-group", fresh.path, "baby", "add", ""])
    #expect(result.status == 65)
    #expect(!FileManager.default.fileExists(atPath: fresh.path), "no store skeleton is left behind")
  }

  @Test func anEmptyAppGroupIsRefused() throws {
    defer { tool.removeAll() }
    let result = try tool.run(["--app-group", "", "baby", "list"])
    #expect(result.status == 64)
    #expect(result.stderr.hasPrefix("babydash: bad value '' for --app-group: give a folder (it is created if missing)\n"))
  }

  @Test func anAppGroupThatIsAFileGetsAClearMessage() throws {
    defer { tool.removeAll() }
    let file = tool.appGroup.appendingPathComponent("not-a-folder")
    try Data("x".utf8).write(to: file)
    let result = try tool.run(["--app-group", file.path, "baby", "add", "Mia"])
    #expect(result.status == 64)
    #expect(result.stderr.hasPrefix("babydash: the app group '\(file.path)' is a file, not a folder: "))
    #expect(!result.stderr.contains("NSCocoaErrorDomain"))
  }

  @Test func aFileWhereTheStoreBelongsIsRefusedAsInTheWay() throws {
    defer { tool.removeAll() }
    // A file where the store's folder should be: refused data (65), named, not an I/O error.
    try Data().write(to: tool.appGroup.appendingPathComponent("BabyDashboard.store"))
    let result = try tool.run(["baby", "add", "Mia"])
    #expect(result.status == 65)
    #expect(result.stderr.hasPrefix("babydash: a file is in the way: '"), "\(result.stderr)")
  }
}
