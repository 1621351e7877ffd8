import ArgumentParsing
import BabyDashboard
import Foundation
import PlainStore

/// The `babydash` tool: parse, call the libraries, print, exit.
@MainActor
enum Babydash {
  /// The tool's version, as `--version` prints it.
  static let version = "0.17.0"

  /// `help [COMMAND]`: the tool's help, or a command's.
  static let helpCommand = Command(
    words: ["help"], synopsis: "[COMMAND]", summary: "Show the help of the tool or of a command.", arguments: 0...2,
    details: "Examples:\n  babydash help\n  babydash help feed log"
  ) { _ in }

  static var commands: [Command] {
    BabyCommands.all + FeedCommands.all
      + [
        DiaperCommand.command, DiaperCommand.edit, DiaperCommand.delete, StatusCommand.command, HistoryCommand.command, ExportCommand.command,
        ImportCommand.command,
      ]
      + FixturesCommands.all + [PreviewsCommand.command, WidgetCommand.command, CheckCommand.command, SalvageCommand.command, StatsCommand.command]
      + SyncCommands.all + FlagsCommands.all + [LaunchCommand.command] + BackoutCommands.all + [helpCommand]
  }

  /// Runs one command line and returns the exit status.
  static func run(_ argv: [String], environment: [String: String], output: Output = Output()) -> Int32 {
    let parser = CommandLineParser(commands: commands)
    var session: Session?
    do {
      let parsed = try parser.parse(argv)
      if parsed.options.has(GlobalOptions.version) {
        try output.print("babydash \(version)")
        return 0
      }
      if parsed.command?.name == "help", !parsed.options.has(GlobalOptions.help) {
        // `help COMMAND` is `COMMAND --help`.
        guard !parsed.arguments.isEmpty else {
          try output.print(toolHelp)
          return 0
        }
        let asked = try parser.parse(parsed.arguments + ["--help"])
        guard asked.command != nil || !parser.group(parsed.arguments[0]).isEmpty else {
          throw unknownCommand(parsed.arguments, parser: parser)
        }
        try output.print(help(for: asked, parser: parser))
        return 0
      }
      if parsed.options.has(GlobalOptions.help) {
        try output.print(help(for: parsed, parser: parser))
        return 0
      }
      guard let command = parsed.command else {
        throw unknownCommand(parsed.words, parser: parser)
      }
      guard command.arguments.contains(parsed.arguments.count) else {
        throw argumentCountError(command, given: parsed.arguments)
      }
      let opened = try Session(options: parsed.options, environment: environment, output: output, command: command)
      session = opened
      if let forgotten = opened.forgottenSyncFolder, command.words != ["sync", "status"] {
        try output.error(
          "babydash: warning: not syncing: no sync folder given (last used \(forgotten)); "
            + "give --sync-folder or set BABYDASH_SYNC_FOLDER, or the other phones see nothing of this")
      }
      try command.run(
        Invocation(command: command, arguments: parsed.arguments, options: parsed.options, session: opened))
      if command.words != ["check"], let note = try opened.rebuildNote() { try output.error("babydash: note: \(note)") }
      if let warning = opened.housekeepingWarning { try output.error("babydash: warning: \(warning)") }
      for path in opened.damagedOwnFiles() {
        try output.error(
          "babydash: warning: this device's own change file '\(path)' is damaged: what it holds is shown from the local cache "
            + "until that is lost — run `babydash salvage --output FILE` now to keep everything still readable, then restore the file from a backup")
      }
      // What the other phones changed, merged before this command read or wrote (sync now says
      // it on its own output).
      if command.words != ["sync", "now"], command.words != ["sync", "join"], let line = try opened.mergeReportLine() {
        try output.error("babydash: merged first: \(line)")
      }
      return 0
    } catch let error as OutputError where error.isClosedPipe {
      // The reader stopped reading (`| head -1`): as `head` users expect, no message; 74 says
      // the output is incomplete to a script that checks (`set -o pipefail`, `export | gzip`).
      return CommandLineError(kind: .io, message: "").exitStatus
    } catch {
      session?.discardNewFiles()
      let failure = CommandLineError(error)
      do {
        try output.error("babydash: \(failure.message)")
        if case .usage(let usageLine) = failure.kind { try output.error(usageLine) }
      } catch {
        // Standard error refused the message too: the exit status is all that is left to say it.
      }
      return failure.exitStatus
    }
  }

  static func help(for parsed: CommandLineParser.Parsed, parser: CommandLineParser) -> String {
    if let command = parsed.command { return command.help }
    if let word = parsed.words.first, !parser.group(word).isEmpty {
      return commandList(parser.group(word), title: "babydash \(word) commands:")
    }
    return toolHelp
  }

  static var toolHelp: String {
    [
      "babydash — track feeds and diaper changes for several babies, in plain files.", "",
      Command.toolUsageLine, "",
      commandList(commands, title: "Commands:"), "",
      "Global options:",
    ].joined(separator: "\n") + "\n" + OptionSpec.table(GlobalOptions.all).joined(separator: "\n") + "\n\n"
      + "TIME: 2026-01-15T09:30:00+09:00, 2026-01-15T09:30 (in --time-zone) or 09:30 (today's 09:30;\n"
      + "refused when it is ahead of now: give the day then), or a time ago: -10m, 10m ago, 1h30m ago.\n"
      + "Store: DIR/BabyDashboard.store, DIR being --app-group, else $BABYDASH_APP_GROUP, else the default,\n"
      + "  \(Session.appGroup.defaultLocationText).\n"
      + "Environment: BABYDASH_APP_GROUP (the store's folder), BABYDASH_SYNC_FOLDER (the change files'),\n"
      + "  BABYDASH_DEVICE_NAME (this device's name in sync status; default: the host name), TZ (the zone),\n"
      + "  BABYDASH_DEVICE_ID (this device's id for the rollout cohorts; default: the one `launch` keeps).\n"
      + "Run 'babydash help COMMAND' (or 'babydash COMMAND --help') for a command's options and examples.\n\n"
      + exitStatuses
  }

  /// The exit statuses, as the README lists them too.
  static let exitStatuses = """
    Exit status:
      0   done
      1   previews --check found a difference
      64  a bad command line: unknown command or option, a value that cannot be read
      65  refused data: a rule of the tracker (a time in the future, an end before the start,
          a name in use, ...), a damaged store or import file
      66  missing input: no such file to import, no store to check
      74  I/O error: the disk refused a read or a write (standard output too); a closed pipe
          (| head) is 74 without a message
      75  the store is locked by another writer for too long: try again
    """

  static func commandList(_ commands: [Command], title: String) -> String {
    let rows = commands.map { command in
      "  \(command.name)\(command.synopsis.isEmpty ? "" : " " + command.synopsis)\n      \(command.summary)"
    }
    return ([title] + rows).joined(separator: "\n")
  }

  private static func unknownCommand(_ words: [String], parser: CommandLineParser) -> CommandLineError {
    guard let first = words.first else { return .usage("missing command (try babydash --help)", nil) }
    let group = parser.group(first)
    guard !group.isEmpty else {
      let guess = closest(first, among: commands.map { $0.words[0] })
      return .usage("unknown command '\(first)'" + (guess.map { " (did you mean '\($0)'?)" } ?? " (try babydash --help)"), nil)
    }
    let choices = group.map { $0.words.dropFirst().joined(separator: " ") }.joined(separator: ", ")
    let guess = words.count > 1 ? closest(words[1], among: group.compactMap { $0.words.dropFirst().first }) : nil
    let what = words.count > 1
      ? "unknown command '\(first) \(words[1])'" + (guess.map { " (did you mean '\(first) \($0)'?)" } ?? "")
      : "'\(first)' needs a command"
    return CommandLineError(kind: .usage(usageLine: "usage: babydash \(first) \(group.map { $0.words.dropFirst().joined(separator: " ") }.joined(separator: "|")) ..."), message: "\(what): one of \(choices)")
  }

  /// The word of `words` a typo of `typed` most likely meant (`stauts`: `status`), within two
  /// edits (a swap counts as one); nil when none is that close.
  static func closest(_ typed: String, among words: [String]) -> String? {
    func distance(_ a: [Character], _ b: [Character]) -> Int {
      var rows = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
      for i in 0...a.count { rows[i][0] = i }
      for j in 0...b.count { rows[0][j] = j }
      guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
      for i in 1...a.count {
        for j in 1...b.count {
          rows[i][j] = min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
          if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { rows[i][j] = min(rows[i][j], rows[i - 2][j - 2] + 1) }
        }
      }
      return rows[a.count][b.count]
    }
    let lowered = Array(typed.lowercased())
    // Ties go to the word of the typed length (a swap, `stauts`: `status`, not `stats`).
    let scored = Set(words).map { ($0, distance(lowered, Array($0)), abs($0.count - lowered.count)) }.filter { $0.1 <= 2 }
    return scored.min { ($0.1, $0.2, $0.0) < ($1.1, $1.2, $1.0) }?.0
  }

  private static func argumentCountError(_ command: Command, given: [String]) -> CommandLineError {
    if given.count > command.arguments.upperBound {
      return .usage("unexpected argument '\(given[command.arguments.upperBound])' for '\(command.name)'", command)
    }
    let names = command.synopsis.split(separator: " ").filter { !$0.hasPrefix("[") && !$0.hasPrefix("--") }
    let missing = names.dropFirst(given.count).first.map(String.init) ?? "an argument"
    return .usage("'\(command.name)' needs \(missing)", command)
  }
}

extension CommandLineError {
  /// Any error a command throws, as the tool reports it.
  init(_ error: any Error) {
    switch error {
    case let error as CommandLineError:
      self = error
    case is PreviewsDrift:
      self.init(kind: .drift, message: "the previews differ from the files (see above)")
    case let error as StoreError:
      switch error.code {
      case .locked: self.init(kind: .busy, message: error.description)
      case .io: self.init(kind: .io, message: error.description)
      case .damaged where error.path.contains("changes/") || error.path.contains("snapshot-"):
        // A damaged change file stops every command: say the way out.
        self.init(kind: .data, message: error.description + " `babydash salvage --output FILE` exports everything still readable.")
      default: self.init(kind: .data, message: error.description)
      }
    case ScreenModelError.unconfirmed(let doubts):
      self.init(kind: .data, message: doubts.map(\.message).joined(separator: " ") + " Run again with --yes to save it as it is.")
    case let error as OutputError:
      self.init(kind: .io, message: error.description)
    case let error as KeyValueStoreError:
      self.init(kind: error.code == .io ? .io : .data, message: error.description)
    default:
      self.init(kind: .data, message: "\(error)")
    }
  }
}
