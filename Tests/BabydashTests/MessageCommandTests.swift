import Foundation
import Testing

/// The pass over messages: memos on one line, columns that hold with emoji and combining marks,
/// export times without the double's noise, and help for every command and option.
@Suite struct MessageCommandTests {
  let tool: BabydashProcess

  init() throws { tool = try BabydashProcess() }

  @Test func aMemoTypedOnSeveralLinesIsOneLineOfTheHistory() throws {
    defer { tool.removeAll() }
    #expect(try tool.run(at: "2026-11-26T08:00:00Z", ["baby", "add", "Leo"]).status == 0)
    #expect(try tool.run(at: "2026-11-26T08:00:00Z", ["feed", "log", "Leo", "--start", "07:00", "--end", "07:20", "--memo", "sleepy\nthen #gas\n\nburped"]).status == 0)
    let rows = try tool.run(at: "2026-11-26T08:00:00Z", ["history"]).stdout.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(rows.suffix(3).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.last == "\"sleepy ↵ then #gas ↵ burped\"")
  }

  @Test func babyListColumnsHoldWithEmojiAndCombiningMarks() throws {
    defer { tool.removeAll() }
    for name in ["Leo", "Zoe\u{301}", "🚀Max", "❤️ Ana"] {
      #expect(try tool.run(at: "2026-11-26T08:00:00Z", ["baby", "add", name]).status == 0)
    }
    let rows = try tool.run(at: "2026-11-26T08:00:00Z", ["baby", "list"]).stdout.split(separator: "\n").map(String.init)
    // Each name padded to the widest (❤️ Ana: 2 + 1 + 3 columns), then two spaces; the rocket and
    // the heart with its emoji selector are two columns wide, the decomposed é one.
    #expect(Set(rows.map { $0.components(separatedBy: "every")[0] }) == ["Leo     ", "Zoe\u{301}     ", "❤️ Ana  ", "🚀Max   "])
  }

  @Test func exportedTimesHaveAtMostTheMicrosecondsTheyNeed() throws {
    defer { tool.removeAll() }
    #expect(try tool.run(at: "2026-11-26T08:00:00Z", ["baby", "add", "Leo"]).status == 0)
    #expect(try tool.run(at: "2026-11-26T08:00:00.123456789Z", ["feed", "start", "Leo"]).status == 0)
    #expect(try tool.run(at: "2026-11-26T08:10:00.5Z", ["feed", "finish", "Leo"]).status == 0)
    let export = try tool.run(["export"])
    #expect(export.stdout.contains("\"startTime\" : \"2026-11-26T08:00:00.123457Z\""), "\(export.stdout)")
    #expect(export.stdout.contains("\"endTime\" : \"2026-11-26T08:10:00.5Z\""))
    #expect(export.stdout.contains("\"createdAt\" : \"2026-11-26T08:00:00Z\""))
    // What was exported restores to the same bytes.
    let file = tool.appGroup.appendingPathComponent("backup.json")
    try Data(export.stdout.utf8).write(to: file)
    let other = tool.appGroup.appendingPathComponent("other").path
    #expect(try tool.run(["--app-group", other, "import", file.path]).status == 0)
    #expect(try tool.run(["--app-group", other, "export"]).stdout == export.stdout)
    // Restored onto the store it came from, it changes nothing: the microseconds are its times.
    let before = try tool.snapshot().filter { !$0.key.hasPrefix("other/") && $0.key != "backup.json" }
    let again = try tool.run(["import", file.path])
    #expect(again.stdout.hasPrefix("Restored 'backup.json': wrote 0 babies, 0 feeds and 0 diaper changes; 2 objects already as in the backup."), "\(again.stdout)")
    #expect(try tool.snapshot().filter { !$0.key.hasPrefix("other/") && $0.key != "backup.json" } == before)
  }

  @Test func everyCommandsHelpHasAnExampleAndEveryOptionAWord() throws {
    defer { tool.removeAll() }
    let list = try tool.run(["help"]).stdout
    let commands = list.components(separatedBy: "Commands:\n")[1].components(separatedBy: "\n\nGlobal options:")[0]
      .split(separator: "\n").filter { $0.hasPrefix("  ") && !$0.hasPrefix("      ") }
      .map { $0.trimmingCharacters(in: .whitespaces).split(separator: " ").prefix { $0.first?.isLowercase == true }.map(String.init) }
    #expect(commands.count >= 25)
    for words in commands where words != ["help"] {
      let help = try tool.run(["help"] + words).stdout
      #expect(help.contains("Example"), "babydash \(words.joined(separator: " ")) --help has no example")
      let options = help.components(separatedBy: "Options:\n").last!.split(separator: "\n")
      for option in options {
        #expect(option.split(separator: " ", omittingEmptySubsequences: true).count >= 3, "no help for '\(option)' in \(words)")
      }
    }
    for variable in ["BABYDASH_APP_GROUP", "BABYDASH_SYNC_FOLDER", "BABYDASH_DEVICE_NAME"] {
      #expect(list.contains(variable), "\(variable) is read but the help does not say so")
    }
  }
}
