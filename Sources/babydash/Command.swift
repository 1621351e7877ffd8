import Foundation

/// One `babydash` command: its words, what it takes, and what it does.
struct Command {
  /// The words that name it, e.g. `["feed", "start"]`.
  var words: [String]
  /// What follows the words in the usage line, e.g. `NAME [--at TIME]`.
  var synopsis: String
  /// One line for the command list.
  var summary: String
  /// The options it accepts, besides the global ones.
  var options: [OptionSpec] = []
  /// How many positional arguments it takes.
  var arguments: ClosedRange<Int> = 0...0
  /// Longer help: what the arguments mean, examples.
  var details: String = ""
  /// Does the work.
  var run: @MainActor (Invocation) throws -> Void

  var name: String { words.joined(separator: " ") }
  var usageLine: String { "usage: babydash \(name)\(synopsis.isEmpty ? "" : " " + synopsis)" }

  static let toolUsageLine = "usage: babydash [--app-group DIR] [--sync-folder DIR] [--now TIME] [--time-zone ZONE] COMMAND ..."

  /// The `--help` text of this command.
  var help: String {
    var lines = [usageLine, "", summary]
    if !details.isEmpty { lines += ["", details] }
    let all = options + OptionSpec.global
    lines += ["", "Options:"]
    lines += OptionSpec.table(all)
    return lines.joined(separator: "\n")
  }
}

/// An option a command accepts.
struct OptionSpec {
  var name: String
  /// The placeholder of its value (`TIME`), or nil for a flag.
  var value: String?
  var help: String

  var takesValue: Bool { value != nil }

  static let global = [
    OptionSpec(name: "--app-group", value: "DIR", help: "the app-group folder (default: $BABYDASH_APP_GROUP, else the platform's)"),
    OptionSpec(name: "--sync-folder", value: "DIR", help: "where the change files that sync live (default: $BABYDASH_SYNC_FOLDER, else the store's changes/)"),
    OptionSpec(name: "--now", value: "TIME", help: "what \"now\" means, ISO 8601 (for scripts and tests)"),
    OptionSpec(name: "--time-zone", value: "ZONE", help: "IANA zone for display and local times (default: UTC with --now, else the system's)"),
    OptionSpec(name: "--help", value: nil, help: "show help (also -h)"),
    OptionSpec(name: "--version", value: nil, help: "print the version"),
  ]

  static func table(_ options: [OptionSpec]) -> [String] {
    let labels = options.map { "  \($0.name)\($0.value.map { " " + $0 } ?? "")" }
    let width = labels.map(\.count).max() ?? 0
    return zip(labels, options).map { label, option in
      label + String(repeating: " ", count: width - label.count + 2) + option.help
    }
  }
}
