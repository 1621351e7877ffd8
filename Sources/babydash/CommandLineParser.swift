import ArgumentParsing
import Foundation

/// Splits a command line into the command, its positional arguments and its options.
///
/// Options may come anywhere after `babydash` (the shared ``ParsedArguments`` splits them). Which
/// options take a value is known from every command's list, so the words that name the command
/// are found before the command is.
struct CommandLineParser {
  var commands: [Command]

  struct Parsed {
    /// Nil when the words name no command (only possible with `--help`, or none at all).
    var command: Command?
    var words: [String]
    var arguments: [String]
    var options: ParsedArguments
  }

  func parse(_ argv: [String]) throws -> Parsed {
    let options: ParsedArguments
    do {
      options = try ParsedArguments(argv, options: knownOptions())
    } catch {
      throw CommandLineError.usage(error.message, command(for: error.positionals))
    }
    let positionals = options.positionals
    let command = command(for: positionals)
    let arguments = Array(positionals.dropFirst(command?.words.count ?? 0))
    if let command {
      let allowed = Set((command.options + GlobalOptions.all).map(\.name))
      if let stray = options.given.first(where: { !allowed.contains($0) }) {
        throw CommandLineError.usage("'\(command.name)' has no option \(stray)", command)
      }
    }
    return Parsed(command: command, words: positionals, arguments: arguments, options: options)
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

  /// Every option of every command: which ones take a value is known before the command is.
  private func knownOptions() -> [OptionSpec] {
    GlobalOptions.all + commands.flatMap(\.options)
  }
}
