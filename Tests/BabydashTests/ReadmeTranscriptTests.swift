import Foundation
import Testing

/// The README's "A day of tracking", replayed command by command: every line of output must be
/// the README's, byte for byte, but for the random ids (a new baby's, an event's short id).
@Suite struct ReadmeTranscriptTests {
  static let readme = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("README.md")

  /// One `$ babydash …` line and the lines the README shows after it.
  struct Step {
    var arguments: [String]
    var expected: String
  }

  static func steps() throws -> [Step] {
    let text = try String(contentsOf: readme, encoding: .utf8)
    let section = try #require(text.components(separatedBy: "## A day of tracking").dropFirst().first)
    let block = try #require(section.components(separatedBy: "```\n").dropFirst().first)
    var steps: [Step] = []
    for line in block.dropLast().split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("$ babydash ") {
        steps.append(Step(arguments: words(String(line.dropFirst("$ babydash ".count))), expected: ""))
      } else if line.hasPrefix("$ ") {
        continue  // the alias and the export: what the test does itself
      } else if !steps.isEmpty {
        steps[steps.count - 1].expected += line + "\n"
      }
    }
    return steps
  }

  /// Splits a command line as a shell does, for the quoting the README uses.
  static func words(_ line: String) -> [String] {
    var words: [String] = []
    var current = ""
    var quoted = false
    var started = false
    for character in line {
      if character == "\"" {
        quoted.toggle()
        started = true
      } else if character == " ", !quoted {
        if started { words.append(current) }
        current = ""
        started = false
      } else {
        current.append(character)
        started = true
      }
    }
    if started { words.append(current) }
    return words
  }

  /// The text with every id replaced: full UUIDs, and the 8-character ids history rows start with.
  static func withoutIDs(_ text: String) -> String {
    var result = text.replacingOccurrences(
      of: "[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}", with: "<uuid>", options: .regularExpression)
    result = result.replacingOccurrences(of: "(?m)^  [0-9a-f]{8}  ", with: "  <id>  ", options: .regularExpression)
    return result.replacingOccurrences(of: "(feed|change) [0-9a-f]{8}", with: "$1 <id>", options: .regularExpression)
  }

  @Test func theDayOfTrackingReplaysAsTheReadmeShowsIt() throws {
    let tool = try BabydashProcess()
    defer { tool.removeAll() }
    let steps = try Self.steps()
    #expect(steps.count >= 10)
    var ids: [String: String] = [:]  // README's short ids to this run's
    for step in steps {
      let arguments = step.arguments.map { ids[$0] ?? $0 }
      let result = try tool.run(["--time-zone", "Europe/Paris"] + arguments)
      let output = result.stdout + result.stderr + (result.status == 0 ? "" : "(exit \(result.status))\n")
      #expect(Self.withoutIDs(output) == Self.withoutIDs(step.expected), "babydash \(step.arguments.joined(separator: " "))")
      // A short id the README shows in a history row stands for the id this run printed there.
      let shown = step.expected.split(separator: "\n").filter { $0.hasPrefix("  ") }
      let printed = output.split(separator: "\n").filter { $0.hasPrefix("  ") }
      for (readme, run) in zip(shown, printed) where readme.count > 12 && run.count > 12 {
        ids[String(readme.dropFirst(2).prefix(8))] = String(run.dropFirst(2).prefix(8))
      }
    }
  }

  @Test func theReadmeListsEveryExitStatusTheHelpLists() throws {
    let tool = try BabydashProcess()
    defer { tool.removeAll() }
    let help = try tool.run(["--help"]).stdout
    let readme = try String(contentsOf: Self.readme, encoding: .utf8)
    let statuses = help.components(separatedBy: "Exit status:").last!.split(separator: "\n")
      .compactMap { $0.split(separator: " ").first.flatMap { Int($0) } }
    #expect(statuses == [0, 1, 64, 65, 66, 74, 75])
    for status in statuses { #expect(readme.contains("\n| \(status) | "), "\(status)") }
  }
}
