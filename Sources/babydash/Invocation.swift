import Foundation

/// A parsed command line: the command, its arguments and options, and the session they act in.
@MainActor
struct Invocation {
  var command: Command
  var arguments: [String]
  var values: [String: String]
  var flags: Set<String>
  var session: Session

  var output: Output { session.output }

  func value(_ option: String) -> String? { values[option] }

  func has(_ flag: String) -> Bool { flags.contains(flag) }

  /// A usage error for this command.
  func usageError(_ message: String) -> CommandLineError {
    .usage(message, command)
  }

  /// The value of a TIME option, or `default` when it is absent.
  func time(_ option: String, default fallback: Date) throws -> Date {
    guard let text = values[option] else { return fallback }
    return try parse(option, text) { try TimeArgument.parse($0, now: session.now, timeZone: session.timeZone) }
  }

  /// Reads a value with `read`, turning its complaint into a usage error that names the option.
  func parse<T>(_ option: String, _ text: String, _ read: (String) throws -> T) throws -> T {
    do {
      return try read(text)
    } catch let error as ArgumentValueError {
      throw usageError("bad value '\(text)' for \(option): \(error.reason)")
    }
  }
}

/// Why a typed value could not be read.
struct ArgumentValueError: Error {
  var reason: String
}
