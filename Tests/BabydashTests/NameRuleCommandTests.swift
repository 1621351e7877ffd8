import Foundation
import Testing

/// One rule for names: restore and import keep the same-name rule, a NAME argument matches
/// whatever the case or Unicode form when only one baby fits, and a short id prefix names a baby.
@Suite struct NameRuleCommandTests {
  let tool: BabydashProcess

  init() throws { tool = try BabydashProcess() }

  private func run(_ arguments: [String], in group: URL? = nil) throws -> BabydashProcess.Result {
    try tool.run(["--now", "2026-11-26T08:00:00Z"] + (group.map { ["--app-group", $0.path] } ?? []) + arguments)
  }

  @Test func aBackupWithTwoBabiesOfOneNameRestoresThemAndSaysSo() throws {
    defer { tool.removeAll() }
    #expect(try run(["baby", "add", "Mia"]).status == 0)
    #expect(try run(["baby", "add", "Mia", "--same-name-ok"]).status == 0)
    let backup = tool.appGroup.appendingPathComponent("backup.json")
    try Data(try run(["export"]).stdout.utf8).write(to: backup)
    let ids = try run(["baby", "list"]).stdout.split(separator: "\n").map { String($0.suffix(36)) }

    let empty = tool.appGroup.appendingPathComponent("empty")
    let restored = try run(["import", backup.path], in: empty)
    #expect(restored.status == 0, "\(restored.stderr)")
    #expect(
      restored.stdout.split(separator: "\n").last.map(String.init)
        == "2 babies are named Mia (ids \(ids.joined(separator: ", "))): address each by its id.")
  }

  @Test func aRestoreCannotGiveAStoredBabysNameToAnotherWithoutSameNameOk() throws {
    defer { tool.removeAll() }
    #expect(try run(["baby", "add", "Mia"]).status == 0)
    let backup = tool.appGroup.appendingPathComponent("backup.json")
    try Data(try run(["export"]).stdout.utf8).write(to: backup)

    let other = tool.appGroup.appendingPathComponent("other")
    #expect(try run(["baby", "add", "MIA"], in: other).status == 0)
    let before = try run(["export"], in: other).stdout
    let refused = try run(["import", backup.path], in: other)
    #expect(refused.status == 65)
    #expect(refused.stderr.hasPrefix("babydash: another baby is already named Mia (id "))
    #expect(try run(["export"], in: other).stdout == before, "nothing was restored")
    let allowed = try run(["import", backup.path, "--same-name-ok"], in: other)
    #expect(allowed.status == 0, "\(allowed.stderr)")
    #expect(allowed.stdout.contains("2 babies are named Mia"))
  }

  @Test func aLegacyImportCannotGiveAStoredBabysNameToAnotherWithoutSameNameOk() throws {
    defer { tool.removeAll() }
    let family = ImportCommandTests.fixtures.appendingPathComponent("legacy/family.json").path
    #expect(try tool.run(at: "2026-03-01T00:00:00Z", ["baby", "add", "sora"]).status == 0)
    let refused = try tool.run(at: "2026-03-01T00:00:00Z", ["import", family])
    #expect(refused.status == 65)
    #expect(refused.stderr.hasPrefix("babydash: another baby is already named Sora (id "), "\(refused.stderr)")
    #expect(try tool.run(at: "2026-03-01T00:00:00Z", ["baby", "list"]).stdout.split(separator: "\n").count == 1, "nothing was imported")
    // The two Mias of the legacy data were allowed there: only the clash with the store needs the flag.
    let allowed = try tool.run(at: "2026-03-01T00:00:00Z", ["import", family, "--same-name-ok"])
    #expect(allowed.status == 0, "\(allowed.stderr)")
  }

  @Test func aNameMatchesWhateverItsCaseOrUnicodeFormWhenOnlyOneBabyFits() throws {
    defer { tool.removeAll() }
    #expect(try run(["baby", "add", "Zoe\u{301}"]).status == 0)  // decomposed, as macOS types it
    #expect(try run(["baby", "add", "Leo"]).status == 0)
    #expect(try run(["diaper", "leo", "pee"]).stdout == "Logged a pee for Leo at 08:00.\n")
    #expect(try run(["diaper", "ZOÉ", "pee"]).status == 0)
    #expect(try run(["diaper", "Ｌｅｏ", "poo"]).stdout == "Logged a poo for Leo at 08:00.\n")
    // The same-name rule folds the same way: "LEO" is Leo's name.
    let taken = try run(["baby", "add", "LEO"])
    #expect(taken.status == 65)
    #expect(taken.stderr.hasPrefix("babydash: another baby is already named LEO (id "))
    // Two babies that fold to one name: the lowercase is ambiguous, the exact spelling is not.
    #expect(try run(["baby", "add", "LEO", "--same-name-ok"]).status == 0)
    #expect(try run(["feed", "start", "Leo"]).stdout == "Leo started feeding at 08:00.\n")
    let ambiguous = try run(["feed", "start", "leo"])
    #expect(ambiguous.status == 65)
    #expect(ambiguous.stderr.hasPrefix("babydash: 2 babies are named 'leo': give the id instead"))
  }

  @Test func aShortIDPrefixNamesABaby() throws {
    defer { tool.removeAll() }
    #expect(try run(["baby", "add", "Mia"]).status == 0)
    let id = try #require(try run(["baby", "list"]).stdout.split(separator: "\n").first.map { String($0.suffix(36)) })
    #expect(try run(["diaper", String(id.prefix(6)).lowercased(), "pee"]).stdout == "Logged a pee for Mia at 08:00.\n")
    #expect(try run(["baby", "edit", String(id.prefix(8)), "--feed-term", "2h"]).stdout == "Updated Mia, fed every 2h.\n")
    let tooShort = try run(["diaper", String(id.prefix(3)), "pee"])
    #expect(tooShort.status == 65)
    #expect(tooShort.stderr.hasPrefix("babydash: no baby named '\(id.prefix(3))'"))
  }
}
