import ArgumentParsing

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
    let all = options + GlobalOptions.all
    lines += ["", "Options:"]
    lines += OptionSpec.table(all)
    return lines.joined(separator: "\n")
  }
}

/// The options every command accepts, declared once: the parser, the help and `Session` read them.
enum GlobalOptions {
  static let appGroup = Option<String>(
    "--app-group", "DIR", help: "the app-group folder, holding the store (default: $BABYDASH_APP_GROUP, else the platform's; see babydash help)")
  static let syncFolder = Option<String>(
    "--sync-folder", "DIR", help: "where the change files that sync live (default: $BABYDASH_SYNC_FOLDER, else the store's changes/)")
  static let now = Option<String>("--now", "TIME", help: "what \"now\" means, ISO 8601 (for scripts and tests)")
  static let timeZone = Option<String>(
    "--time-zone", "ZONE", help: "IANA zone for display and local times (default: the system's, as $TZ sets it)")
  static let create = Flag("--create", help: "create the sync folder if it does not exist (else it is refused: a typo would sync to nowhere)")
  static let help = Flag("--help", help: "show help (also -h)")
  static let version = Flag("--version", help: "print the version")

  static let all = [appGroup.spec, syncFolder.spec, create.spec, now.spec, timeZone.spec, help.spec, version.spec]
}
