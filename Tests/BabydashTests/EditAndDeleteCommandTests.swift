import Foundation
import Testing

/// Fixing and removing one event through `babydash`, addressed by the short id the history shows.
@Suite struct EditAndDeleteCommandTests {
  let tool: BabydashProcess
  static let now = "2026-01-15T10:00:00Z"

  init() throws { tool = try BabydashProcess() }

  @discardableResult
  private func succeed(_ arguments: [String]) throws -> String {
    let result = try tool.run(at: Self.now, arguments)
    #expect(result.status == 0, "babydash \(arguments.joined(separator: " ")): \(result.stderr)")
    return result.stdout
  }

  /// The short id of the history row that contains `text`.
  private func id(of text: String) throws -> String {
    let row = try #require(try succeed(["history"]).split(separator: "\n").first { $0.contains(text) })
    return String(row.dropFirst(2).prefix(8))
  }

  private func export() throws -> [String: Any] {
    try JSONSerialization.jsonObject(with: Data(try succeed(["export"]).utf8)) as! [String: Any]
  }

  @Test func loggingAFeedAgainChangesOnlyTheOptionsGivenAndSaysUpdated() throws {
    defer { tool.removeAll() }
    try succeed(["baby", "add", "Mia"])
    try succeed(["feed", "log", "Mia", "--start", "07:00", "--end", "07:20", "--amount", "100ml", "--memo", "#night sleepy"])
    #expect(try succeed(["feed", "log", "Mia", "--start", "07:00", "--end", "07:30"]) == "Updated Mia's feed 07:00–07:30, 100 mL.\n")
    let feeds = try export()["feedSessions"] as! [[String: Any]]
    #expect(feeds.count == 1)
    #expect(feeds[0]["amountValue"] as? Double == 100)
    #expect(feeds[0]["memoText"] as? String == "#night sleepy")
    #expect(feeds[0]["endTime"] as? String == "2026-01-15T07:30:00Z")
  }

  @Test func theHistoryShowsEachEventsShortIDAndFeedEditChangesOnlyWhatIsGiven() throws {
    defer { tool.removeAll() }
    try succeed(["baby", "add", "Mia"])
    try succeed(["feed", "log", "Mia", "--start", "07:00", "--end", "07:20", "--amount", "100ml", "--memo", "first"])
    let feed = try id(of: "Feed")
    #expect(feed.count == 8 && feed.allSatisfy(\.isHexDigit))
    #expect(try succeed(["feed", "edit", String(feed.prefix(5)), "--amount", "110ml"]) == "Updated feed \(feed): 07:00–07:20, 110 mL (was 100 mL).\n")
    // What changed is echoed with what it was; an edit that changes nothing says so.
    #expect(
      try succeed(["feed", "edit", feed, "--start", "06:50", "--memo", "second"])
        == "Updated feed \(feed): 06:50–07:20, 110 mL (was 07:00–07:20). Memo: \"second\".\n")
    #expect(try succeed(["feed", "edit", feed, "--memo", ""]) == "Updated feed \(feed): 06:50–07:20, 110 mL. Memo removed.\n")
    #expect(try succeed(["feed", "edit", feed, "--amount", "110ml"]) == "Feed \(feed) is already so: nothing changed.\n")
    #expect(try succeed(["feed", "edit", feed, "--memo", "first", "--start", "07:00"]).hasPrefix("Updated feed \(feed): 07:00–07:20"))
    let stored = (try export()["feedSessions"] as! [[String: Any]])[0]
    #expect(stored["amountValue"] as? Double == 110)
    #expect(stored["memoText"] as? String == "first")
    #expect(try succeed(["feed", "delete", feed]) == "Deleted feed \(feed) (07:00–07:20, 110 mL).\n")
    #expect((try export()["feedSessions"] as! [Any]).isEmpty)
  }

  @Test func anEditThatPutsTheEndBeforeTheStartIsRefusedWith65() throws {
    defer { tool.removeAll() }
    try succeed(["baby", "add", "Mia"])
    try succeed(["feed", "log", "Mia", "--start", "07:00", "--end", "07:20"])
    let before = try tool.snapshot()
    let result = try tool.run(at: Self.now, ["feed", "edit", try id(of: "Feed"), "--end", "06:00"])
    #expect(result.status == 65)
    #expect(result.stderr == "babydash: The feed ends before it starts: set the end at or after the start.\n")
    #expect(try tool.snapshot() == before)
  }

  @Test func diaperEditAndDeleteWorkByIDPrefix() throws {
    defer { tool.removeAll() }
    try succeed(["baby", "add", "Leo"])
    try succeed(["diaper", "Leo", "pee", "--at", "08:00"])
    let diaper = try id(of: "Diaper")
    #expect(try succeed(["diaper", "edit", diaper, "--type", "poo", "--at", "08:05"]) == "Updated diaper change \(diaper): a poo at 08:05.\n")
    #expect(try succeed(["diaper", "delete", diaper]) == "Deleted diaper change \(diaper) (a poo at 08:05).\n")
    #expect((try export()["diaperChanges"] as! [Any]).isEmpty)
  }

  @Test func anIDThatIsNotThereOrIsAmbiguousIsRefused() throws {
    defer { tool.removeAll() }
    try succeed(["baby", "add", "Leo"])
    let missing = try tool.run(at: Self.now, ["feed", "delete", "ffffffff"])
    #expect(missing.status == 65)
    #expect(missing.stderr == "babydash: no feed or diaper change has an id starting with 'ffffffff': see babydash history\n")
  }

  @Test func removingABabyWithEventsNeedsYesAndAnOrphanCanBeGivenToAnotherBaby() throws {
    defer { tool.removeAll() }
    try succeed(["baby", "add", "Mia"])
    try succeed(["baby", "add", "Leo"])
    try succeed(["feed", "log", "Mia", "--start", "07:00", "--end", "07:20"])
    let before = try tool.snapshot()
    let refused = try tool.run(at: Self.now, ["baby", "remove", "Mia"])
    #expect(refused.status == 65)
    #expect(
      refused.stderr
        == "babydash: Mia has 1 feed and 0 diaper changes: removing the baby keeps them in the history with no baby (feed edit ID --baby NAME gives one to another baby). Run again with --yes to remove Mia.\n")
    #expect(try tool.snapshot() == before)
    #expect(try succeed(["baby", "remove", "Mia", "--yes"]) == "Removed Mia; 1 feed and 0 diaper changes stay, with no baby.\n")
    let orphan = try id(of: "(no baby)")
    try succeed(["feed", "edit", orphan, "--baby", "Leo"])
    let feed = (try export()["feedSessions"] as! [[String: Any]])[0]
    let leo = (try export()["babyProfiles"] as! [[String: Any]])[0]
    #expect(feed["profileID"] as? String == leo["id"] as? String)
  }
}
