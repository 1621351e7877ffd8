import BabyDashboard
import Foundation
import PlainStore
import Testing

/// Help, version, plurals, alignment, check, fixtures, widget and stats: the tool's surface.
@Suite struct ToolSurfaceTests {
  let tool: BabydashProcess
  static let now = "2026-01-15T10:00:00Z"

  init() throws { tool = try BabydashProcess() }

  @discardableResult
  private func succeed(_ arguments: [String]) throws -> String {
    let result = try tool.run(at: Self.now, arguments)
    #expect(result.status == 0, "babydash \(arguments.joined(separator: " ")): \(result.stderr)")
    return result.stdout
  }

  @Test func helpAndHelpCommandAndVersion() throws {
    defer { tool.removeAll() }
    #expect(try succeed(["help"]) == (try succeed(["--help"])))
    #expect(try succeed(["help", "feed", "log"]) == (try succeed(["feed", "log", "--help"])))
    #expect(try succeed(["--version"]).hasPrefix("babydash "))
    let unknown = try tool.run(["help", "fed"])
    #expect(unknown.status == 64)
  }

  @Test func theHelpListsEveryExitStatusAndEveryCommandHasAnExample() throws {
    defer { tool.removeAll() }
    let help = try succeed(["--help"])
    for status in ["64", "65", "66", "74", "75"] { #expect(help.contains("\n  \(status)  "), "\(status)") }
    for words in [["baby", "add"], ["feed", "log"], ["feed", "edit"], ["diaper", "edit"], ["history"], ["widget"], ["stats"], ["check"]] {
      #expect(try succeed(words + ["--help"]).contains("Example"), "\(words)")
    }
  }

  @Test func fixturesHelpListsTheScenariosAndARealStoreIsNotSeededWithoutAsking() throws {
    defer { tool.removeAll() }
    let help = try succeed(["fixtures", "two-babies", "--help"])
    for name in ["empty", "two-babies", "history", "edge-cases"] { #expect(help.contains("\n  \(name)  "), "\(name)") }
    try succeed(["baby", "add", "Mia"])
    let before = try tool.snapshot()
    let refused = try tool.run(at: Self.now, ["fixtures", "history"])
    #expect(refused.status == 65)
    #expect(refused.stderr.contains("already holds 1 baby, 0 feeds and 0 diaper changes"))
    #expect(try tool.snapshot() == before)
    #expect(try succeed(["fixtures", "two-babies", "--into-existing"]).hasPrefix("Seeded 'two-babies': the store now holds 3 babies"))
  }

  @Test func widgetBabyWithoutTheSmallFamilyIsRefused() throws {
    defer { tool.removeAll() }
    try succeed(["baby", "add", "Mia"])
    let result = try tool.run(at: Self.now, ["widget", "--baby", "Mia"])
    #expect(result.status == 64)
    #expect(result.stderr.hasPrefix("babydash: --baby chooses the baby of a small widget: add --family small"))
    #expect(try tool.run(at: Self.now, ["widget", "--baby", "Mia", "--family", "small"]).status == 0)
  }

  @Test func countsReadAsPeopleWriteThem() throws {
    defer { tool.removeAll() }
    try succeed(["baby", "add", "Mia"])
    try succeed(["feed", "log", "Mia", "--start", "07:00", "--end", "07:20"])
    try succeed(["diaper", "Mia", "pee", "--at", "08:00"])
    #expect(try succeed(["check"]).hasPrefix("ok: 1 baby, 1 feed, 1 diaper change; "))
    #expect(try succeed(["baby", "remove", "Mia", "--yes"]) == "Removed Mia; 1 feed and 1 diaper change stay, with no baby.\n")
  }

  @Test func anAmountReadsTheSameInEveryMessageAndScreen() throws {
    defer { tool.removeAll() }
    try succeed(["baby", "add", "Mia"])
    let logged = try succeed(["feed", "log", "Mia", "--start", "07:00", "--end", "07:20", "--amount", "4.567ml"])
    let history = try succeed(["history"])
    let amount = try #require(history.split(separator: "\n").first { $0.contains("Feed") }?.components(separatedBy: "· ").last)
    #expect(logged == "Logged Mia's feed 07:00–07:20, \(amount).\n")
  }

  @Test func babyListAlignsWideCharacters() throws {
    defer { tool.removeAll() }
    for name in ["하늘", "Mia", "🐣 Bo"] { try succeed(["baby", "add", name]) }
    let rows = try succeed(["baby", "list"]).split(separator: "\n").map(String.init)
    // Every "every" starts in the same terminal column: Hangul and emoji take two columns each.
    let columns = rows.map { row in
      TextWidth.columns(String(row[..<row.range(of: "  every ")!.lowerBound]))
    }
    #expect(Set(columns).count == 1, "\(rows)")
  }

  @Test func checkReportsEveryProblemNotTheFirst() throws {
    defer { tool.removeAll() }
    try succeed(["baby", "add", "Mia"])
    // Data written past the tracker, as another program or an old version could.
    let container = try StoreContainer.babyDashboard(inAppGroup: tool.appGroup)
    let context = container.newBackgroundContext()
    let start = Date(timeIntervalSince1970: 1_768_460_400)
    context.insert(BabyProfile(name: "", feedTerm: -60, createdAt: start))
    context.insert(FeedSession(profileID: nil, startTime: start, endTime: start.addingTimeInterval(-600)))
    try context.save()
    let result = try tool.run(at: Self.now, ["check"])
    #expect(result.status == 65)
    #expect(result.stderr.contains("has 3 problems:"), "\(result.stderr)")
    #expect(result.stderr.contains("has an empty name"))
    #expect(result.stderr.contains("has a feed term of -60.0 seconds"))
    #expect(result.stderr.contains("ends before it starts"))
  }

  @Test func checkNamesEveryDamagedFileNotTheFirst() throws {
    defer { tool.removeAll() }
    try succeed(["baby", "add", "Mia"])
    try succeed(["diaper", "Mia", "pee", "--at", "09:00"])
    try succeed(["diaper", "Mia", "poo", "--at", "09:10"])
    // Whatever the store's layout, damage every data file but its header. Without the journal:
    // its records would put this device's change files back, as after a power loss.
    let store = tool.appGroup.appendingPathComponent("BabyDashboard.store")
    try FileManager.default.removeItem(at: store.appendingPathComponent("local/journal"))
    var damaged: [String] = []
    for case let relative as String in FileManager.default.enumerator(atPath: store.path)!
    where relative.hasSuffix(".json") && relative != "store.json" && !relative.contains("/.") {
      try Data("{\"truncated".utf8).write(to: store.appendingPathComponent(relative))
      damaged.append(relative)
    }
    #expect(damaged.count >= 2)
    let result = try tool.run(at: Self.now, ["check"])
    #expect(result.status == 65)
    for file in damaged { #expect(result.stderr.contains("'\(file)' is damaged"), "\(file): \(result.stderr)") }
  }

  /// A power loss took a change file the commit had flushed into local/journal: the next command
  /// writes it again, and `check` says so.
  @Test func checkSaysWhichChangeFileTheJournalWroteAgain() throws {
    defer { tool.removeAll() }
    try succeed(["baby", "add", "Mia"])
    try succeed(["diaper", "Mia", "pee", "--at", "09:00"])
    let changes = tool.appGroup.appendingPathComponent("BabyDashboard.store/changes")
    let device = try #require(try FileManager.default.contentsOfDirectory(atPath: changes.path).first)
    let lost = changes.appendingPathComponent("\(device)/000000000002.json")
    let bytes = try Data(contentsOf: lost)
    try FileManager.default.removeItem(at: lost)
    let result = try tool.run(at: Self.now, ["check"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect((result.stdout + result.stderr).contains("changes/\(device)/000000000002.json' was lost or cut short"), "\(result.stdout)\(result.stderr)")
    #expect(try Data(contentsOf: lost) == bytes)
  }

  @Test func statsShowsCacheHitsMissesAndCoverage() throws {
    defer { tool.removeAll() }
    try succeed(["baby", "add", "Mia"])
    try succeed(["baby", "add", "Leo"])
    try succeed(["feed", "log", "Mia", "--start", "07:00", "--end", "07:20", "--amount", "100ml"])
    try succeed(["feed", "start", "Mia", "--at", "09:00"])
    try succeed(["feed", "finish", "Mia"])  // a hit
    try succeed(["feed", "start", "Leo", "--at", "09:00"])
    try succeed(["feed", "finish", "Leo"])  // a miss
    let stats = try succeed(["stats"])
    #expect(stats.contains("  prefills  1 hit, 1 miss (50% hits)\n"), "\(stats)")
    #expect(stats.contains("  coverage  1 of 2 babies has a cached amount (50%)\n"), "\(stats)")
    #expect(stats.contains("Last migration\n  none: no legacy import has run on this app group\n"))
  }

  @Test func thePreferencesFileIsReadableJSONOnlyItsOwnerCanRead() throws {
    defer { tool.removeAll() }
    try succeed(["baby", "add", "Mia"])
    try succeed(["feed", "log", "Mia", "--start", "07:00", "--end", "07:20", "--amount", "100ml"])
    try succeed(["widget"])
    let folder = tool.appGroup.appendingPathComponent("Preferences")
    let name = try #require(try FileManager.default.contentsOfDirectory(atPath: folder.path).first { $0.hasSuffix(".json") })
    let file = folder.appendingPathComponent(name)
    let text = try String(contentsOf: file, encoding: .utf8)
    #expect(text.contains(#""amountValue" : 100"#), "\(text)")
    #expect(!text.contains("binaryValues"))
    func mode(_ url: URL) throws -> Int {
      try (FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }
    #expect(try mode(file) == 0o600)
    #expect(try mode(folder) == 0o700)
    #expect(try mode(tool.appGroup.appendingPathComponent("WidgetCache")) == 0o700)
  }

  @Test func theStressToolsHelpWorks() throws {
    let stress = BabydashProcess.executable.deletingLastPathComponent().appendingPathComponent("plainstore-stress")
    let process = Process()
    process.executableURL = stress
    process.arguments = ["--help"]
    let out = Pipe()
    process.standardOutput = out
    try process.run()
    let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    tool.removeAll()
    #expect(process.terminationStatus == 0)
    #expect(text.hasPrefix("usage: plainstore-stress"))
  }
}

/// Terminal columns, counted independently of the tool's own code: 2 for Hangul and emoji.
enum TextWidth {
  static func columns(_ text: String) -> Int {
    text.reduce(0) { total, character in
      let scalar = character.unicodeScalars.first!.value
      let wide = (0x1100...0x115F).contains(scalar) || (0xAC00...0xD7A3).contains(scalar) || (0x1F300...0x1FAFF).contains(scalar)
      return total + (wide ? 2 : 1)
    }
  }
}
