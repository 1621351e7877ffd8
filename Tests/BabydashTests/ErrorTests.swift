import Foundation
import Testing

/// Bad command lines and refused actions: a one-line message naming the problem, the usage
/// line for syntax, the right exit status, and not one byte changed on disk.
@Suite struct ErrorTests {
  let tool: BabydashProcess

  init() throws {
    tool = try BabydashProcess()
    for step in [["baby", "add", "Mia"], ["feed", "start", "Mia"]] {
      let result = try tool.run(at: "2026-01-15T06:00:00Z", step)
      try #require(result.status == 0, "setting up with \(step) failed: \(result.stderr)")
    }
  }

  static let usageErrors: [(arguments: [String], message: String)] = [
    ([], "babydash: missing command (try babydash --help)"),
    (["feeed"], "babydash: unknown command 'feeed' (did you mean 'feed'?)"),
    (["feed", "begin", "Mia"], "babydash: unknown command 'feed begin': one of start, finish, log, edit, delete"),
    (["feed", "start", "Mia", "--bogus"], "babydash: unknown option '--bogus'"),
    (["feed", "start", "Mia", "--amount", "4oz"], "babydash: 'feed start' has no option --amount"),
    (["feed", "start"], "babydash: 'feed start' needs NAME"),
    (["feed", "start", "Mia", "Leo"], "babydash: unexpected argument 'Leo' for 'feed start'"),
    (["feed", "start", "Mia", "--at"], "babydash: option --at needs a value (TIME)"),
    (["feed", "start", "Mia", "--at", "noon"], "babydash: bad value 'noon' for --at: expected a time like 2026-01-15T09:30:00+09:00, 2026-01-15T09:30, 09:30, -10m or 10m ago"),
    (["feed", "finish", "Mia", "--amount", "120"], "babydash: bad value '120' for --amount: the amount needs a unit, e.g. 120ml or 120oz"),
    (["feed", "finish", "Mia", "--amount", "-5ml"], "babydash: bad value '-5ml' for --amount: an amount cannot be negative"),
    (["feed", "finish", "Mia", "--amount", "3 cups"], "babydash: bad value '3 cups' for --amount: unknown unit 'cups' (use mL or fl oz)"),
    (["feed", "log", "Mia"], "babydash: missing --start TIME"),
    (["baby", "add", "Leo", "--feed-term", "soon"], "babydash: bad value 'soon' for --feed-term: expected a duration like 3h, 2h30m, 90m or 45s"),
    (["baby", "add", "Leo", "--feed-term", "90"], "babydash: bad value '90' for --feed-term: 90 what? give 90m or 1h30m"),
    (["baby", "add", "Leo", "--feed-term", "3"], "babydash: bad value '3' for --feed-term: 3 what? give 3m or 3h"),
    (["diaper", "Mia", "wet"], "babydash: bad diaper type 'wet': use pee or poo"),
    (["--time-zone", "Mars/Olympus", "baby", "list"], "babydash: bad value 'Mars/Olympus' for --time-zone: not an IANA time zone (e.g. Europe/Berlin)"),
  ]

  @Test(arguments: usageErrors)
  func badCommandLinesExit64WithTheUsageLine(arguments: [String], message: String) throws {
    defer { tool.removeAll() }
    let before = try tool.snapshot()
    let result = try tool.run(at: "2026-01-15T07:00:00Z", arguments)
    #expect(result.status == 64)
    let lines = result.stderr.split(separator: "\n").map(String.init)
    #expect(lines.first == message)
    #expect(lines.count == 2 && lines[1].hasPrefix("usage: babydash"))
    #expect(result.stdout.isEmpty)
    #expect(try tool.snapshot() == before)
  }

  static let refusals: [(arguments: [String], message: String)] = [
    (["feed", "start", "Mia"], "babydash: Mia is already feeding: finish that feed before starting another."),
    (["feed", "finish", "Leo"], "babydash: no baby named 'Leo'; babies: Mia"),
    (["diaper", "Nobody", "pee"], "babydash: no baby named 'Nobody'; babies: Mia"),
    (["feed", "log", "Mia", "--start", "06:30"], "babydash: Mia is already feeding: finish that feed before starting another."),
    (["feed", "log", "Mia", "--start", "06:30", "--end", "06:40"], "babydash: Mia is already feeding: finish that feed before starting another."),
    // Ordering is refused data, not a bad command line: exit 65, no usage line.
    (["feed", "log", "Mia", "--start", "05:00", "--end", "04:00"], "babydash: The feed ends before it starts: set the end at or after the start."),
    (["feed", "finish", "Mia", "--at", "05:00"], "babydash: The feed ends before it starts: set the end at or after the start."),
    (["diaper", "Mia", "pee", "--at", "2026-01-15T09:00:00Z"], "babydash: The time is in the future: give a time that has passed (HH:mm means today's)."),
    (["feed", "finish", "Mia", "--amount", "5000ml"], "babydash: The amount is more than 1000 mL: check for a thousands separator or a wrong unit."),
    (["baby", "add", "Mia"], "babydash: another baby is already named Mia (id \(BabydashProcess.anyID)): choose another name, or add --same-name-ok and then address each baby by its id"),
  ]

  @Test(arguments: refusals)
  func refusedActionsExit65AndWriteNothing(arguments: [String], message: String) throws {
    defer { tool.removeAll() }
    let before = try tool.snapshot()
    let result = try tool.run(at: "2026-01-15T07:00:00Z", arguments)
    #expect(result.status == 65)
    #expect(BabydashProcess.matches(result.stderr, message + "\n"), "\(result.stderr)")
    #expect(try tool.snapshot() == before)
  }

  @Test func finishingWithNoFeedInProgressIsRefused() throws {
    defer { tool.removeAll() }
    try tool.run(at: "2026-01-15T06:30:00Z", ["feed", "finish", "Mia", "--amount", "100ml"])
    let before = try tool.snapshot()
    let result = try tool.run(at: "2026-01-15T07:00:00Z", ["feed", "finish", "Mia"])
    #expect(result.status == 65)
    #expect(result.stderr == "babydash: Mia has no feed in progress: start a feed first.\n")
    #expect(try tool.snapshot() == before)
  }

  @Test func aNameTwoBabiesShareIsAnErrorListingTheirIDs() throws {
    defer { tool.removeAll() }
    try tool.run(at: "2026-01-15T06:10:00Z", ["baby", "add", "Mia", "--same-name-ok"])
    let result = try tool.run(at: "2026-01-15T07:00:00Z", ["diaper", "Mia", "pee"])
    #expect(result.status == 65)
    #expect(result.stderr.hasPrefix("babydash: 2 babies are named 'Mia': give the id instead (a prefix only one has will do), one of "))
    let id = try #require(result.stderr.split(separator: " ").last.map { String($0.dropLast()) })
    #expect(try tool.run(at: "2026-01-15T07:00:00Z", ["diaper", id, "pee"]).status == 0)
  }

  @Test func aDamagedStoreExits65NamingTheFile() throws {
    defer { tool.removeAll() }
    let manifest = tool.appGroup.appendingPathComponent("BabyDashboard.store/manifest.json")
    let store = tool.appGroup.appendingPathComponent("BabyDashboard.store/store.json")
    try Data("{\"formatVersion\": 1, trunc".utf8).write(to: FileManager.default.fileExists(atPath: manifest.path) ? manifest : store)
    let before = try tool.snapshot()
    for command in [["check"], ["export"], ["diaper", "Mia", "pee"]] {
      let result = try tool.run(at: "2026-01-15T07:00:00Z", command)
      #expect(result.status == 65, "\(command)")
      #expect(result.stderr.contains("BabyDashboard.store/"), "\(result.stderr)")
      // check lists every problem, one per line; the others stop at the first.
      if command != ["check"] { #expect(result.stderr.split(separator: "\n").count == 1) }
    }
    #expect(try tool.snapshot() == before)
  }

  /// `check` names a file the store does not write at the top of its folder, and none it does
  /// (the device id lives there: a rebuild keeps it).
  @Test func checkNamesAStrayFileAndNoneOfTheStoresOwn() throws {
    defer { tool.removeAll() }
    #expect(try tool.run(at: "2026-01-15T07:00:00Z", ["diaper", "Mia", "pee"]).status == 0)
    let store = tool.appGroup.appendingPathComponent("BabyDashboard.store")
    #expect(FileManager.default.fileExists(atPath: store.appendingPathComponent("device-id").path))
    #expect(try tool.run(at: "2026-01-15T07:01:00Z", ["check"]).status == 0, "the store's own files are no strays")
    try Data("mine".utf8).write(to: store.appendingPathComponent("notes.txt"))
    let result = try tool.run(at: "2026-01-15T07:02:00Z", ["check"])
    #expect(result.status == 65)
    #expect(result.stderr.contains("stray file 'notes.txt' in the store folder"), "\(result.stderr)")
    #expect(!result.stderr.contains("'device-id'"), "\(result.stderr)")
  }

  @Test func checkOnAMissingStoreExits66() throws {
    let empty = try BabydashProcess()
    defer { empty.removeAll(); tool.removeAll() }
    let result = try empty.run(["check"])
    #expect(result.status == 66)
    #expect(result.stderr.hasPrefix("babydash: no store at '"))
    #expect(try empty.snapshot().isEmpty, "reading never creates the store")
  }

  @Test func everyCommandHasHelp() throws {
    defer { tool.removeAll() }
    let top = try tool.run(["--help"])
    #expect(top.status == 0)
    let commandLines = top.stdout.components(separatedBy: "Global options:")[0].split(separator: "\n").filter { $0.hasPrefix("  ") && !$0.hasPrefix("    ") && !$0.hasPrefix("  --") }
    #expect(commandLines.count >= 9)
    for line in commandLines {
      let words = line.split(separator: " ").prefix { $0.first?.isLowercase == true }.map(String.init)
      let result = try tool.run(words + ["-h"])
      #expect(result.status == 0, "\(words)")
      #expect(result.stdout.hasPrefix("usage: babydash \(words.joined(separator: " "))"), "\(words)")
    }
    #expect(try tool.run(["feed", "--help"]).stdout.hasPrefix("babydash feed commands:"))
  }
}
