/// Why `babydash` stopped, and the exit status that says so (BSD's sysexits).
struct CommandLineError: Error, CustomStringConvertible {
  enum Kind {
    /// A command, option or value that is not understood: exit 64 (EX_USAGE), with the usage line.
    case usage(usageLine: String)
    /// Good syntax, bad data: a damaged store, a bad import file, an action the data refuses.
    case data
    /// An input file that is not there or cannot be read: exit 66 (EX_NOINPUT).
    case noInput
    /// The store is busy (its lock could not be had in time): exit 75 (EX_TEMPFAIL).
    case busy
    /// `previews --check` found a difference: exit 1, like diff(1).
    case drift
    /// The disk refused a write or a read: exit 74 (EX_IOERR).
    case io
    /// Stopped by Ctrl-C or SIGTERM between two steps, what was saved kept: exit 130 (128 +
    /// SIGINT), as a shell reports a command that Ctrl-C ended.
    case interrupted
  }

  var kind: Kind
  var message: String

  var description: String { message }

  var exitStatus: Int32 {
    switch kind {
    case .drift: return 1
    case .usage: return 64
    case .data: return 65
    case .noInput: return 66
    case .io: return 74
    case .busy: return 75
    case .interrupted: return 130
    }
  }

  static func usage(_ message: String, _ command: Command?) -> CommandLineError {
    CommandLineError(kind: .usage(usageLine: command?.usageLine ?? Command.toolUsageLine), message: message)
  }

  static func data(_ message: String) -> CommandLineError {
    CommandLineError(kind: .data, message: message)
  }

  static func noInput(_ message: String) -> CommandLineError {
    CommandLineError(kind: .noInput, message: message)
  }
}
