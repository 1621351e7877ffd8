import ArgumentParsing
import Foundation

/// A parsed command line: the command, its arguments and options, and the session they act in.
@MainActor
struct Invocation {
  var command: Command
  var arguments: [String]
  var options: ParsedArguments
  var session: Session

  var output: Output { session.output }

  /// The value of `option` in its type, or nil when it was not given.
  ///
  /// - Throws: a usage error "bad value 'X' for --NAME: reason".
  func value<Value>(_ option: Option<Value>) throws -> Value? {
    do {
      return try options.value(option)
    } catch {
      throw usageError(error.message)
    }
  }

  /// Whether `flag` was given.
  func has(_ flag: Flag) -> Bool { options.has(flag) }

  /// A usage error for this command.
  func usageError(_ message: String) -> CommandLineError {
    .usage(message, command)
  }

  /// The moment a TIME option names (read in the session's zone, against its now), or
  /// `default` when it is absent.
  func time(_ option: Option<TimeArgument>, default fallback: Date) throws -> Date {
    try self.time(option) ?? fallback
  }

  /// The moment a TIME option names, or nil when it is absent.
  func time(_ option: Option<TimeArgument>) throws -> Date? {
    guard let text = try value(option)?.text else { return nil }
    do {
      return try TimeArgument.parse(text, now: session.now, timeZone: session.timeZone)
    } catch let error as ArgumentValueError {
      throw usageError("bad value '\(text)' for \(option.name): \(error.reason)")
    } catch let error as AheadOfNow {
      throw CommandLineError.data("\(option.name) \(text): \(error.reason)")
    }
  }
}
