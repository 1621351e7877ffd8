import Foundation

/// Splits a command line into the command, its positional arguments and its options.
///
/// Options may come anywhere after `babydash`, as `--name value` or `--name=value`; `--` ends
/// them. Which options take a value is known from every command's list, so the words that name
/// the command are found before the command is.
struct CommandLineParser {
  var commands: [Command]

  struct Parsed {
    /// Nil when the words name no command (only possible with `--help`, or none at all).
    var command: Command?
    var words: [String]
    var arguments: [String]
    var values: [String: String]
    var flags: Set<String>
  }

  func parse(_ argv: [String]) throws -> Parsed {
    let known = optionTable()
    var positionals: [String] = []
    var values: [String: String] = [:]
    var flags: Set<String> = []
    var seen: [String] = []
    var index = 0
    var optionsEnded = false
    while index < argv.count {
      let token = argv[index]
      index += 1
      if optionsEnded || !token.hasPrefix("-") || token == "-" || isNegativeNumber(token) {
        positionals.append(token)
        continue
      }
      if token == "--" {
        optionsEnded = true
        continue
      }
      var name = token
      var inline: String?
      if let equals = token.firstIndex(of: "="), token.hasPrefix("--") {
        name = String(token[..<equals])
        inline = String(token[token.index(after: equals)...])
      }
      if name == "-h" { name = "--help" }
      guard let spec = known[name] else {
        throw CommandLineError.usage("unknown option '\(name)'", command(for: positionals))
      }
      seen.append(name)
      if spec.takesValue {
        if let inline {
          values[name] = inline
        } else if index < argv.count {
          values[name] = argv[index]
          index += 1
        } else {
          throw CommandLineError.usage("option \(name) needs a value (\(spec.value!))", command(for: positionals))
        }
      } else {
        if inline != nil {
          throw CommandLineError.usage("option \(name) takes no value", command(for: positionals))
        }
        flags.insert(name)
      }
    }
    let command = command(for: positionals)
    let arguments = Array(positionals.dropFirst(command?.words.count ?? 0))
    if let command {
      let allowed = Set((command.options + OptionSpec.global).map(\.name))
      if let stray = seen.first(where: { !allowed.contains($0) }) {
        throw CommandLineError.usage("'\(command.name)' has no option \(stray)", command)
      }
    }
    return Parsed(
      command: command, words: positionals, arguments: arguments, values: values, flags: flags)
  }

  /// The command whose words begin `positionals`, the longest match winning
  /// (`fixtures list` over `fixtures SCENARIO`).
  func command(for positionals: [String]) -> Command? {
    commands
      .filter { positionals.starts(with: $0.words) }
      .max { $0.words.count < $1.words.count }
  }

  /// The commands in the group a word names (`baby`, `feed`), for its help.
  func group(_ word: String) -> [Command] {
    commands.filter { $0.words.first == word }
  }

  private func optionTable() -> [String: OptionSpec] {
    var table: [String: OptionSpec] = [:]
    for option in OptionSpec.global + commands.flatMap(\.options) {
      table[option.name] = option
    }
    return table
  }

  /// "-5" is a value, not an option: negative amounts get their own clear message later.
  private func isNegativeNumber(_ token: String) -> Bool {
    token.count > 1 && Double(token.dropFirst()) != nil
  }
}
