/// A command line the parser cannot read: the message names the option or value, and the
/// positional words read before it, so a tool can tell which command's usage line to show.
public struct ArgumentError: Error, Equatable, Sendable, CustomStringConvertible {
  public var message: String
  /// The positional arguments read before the problem (a tool's command words).
  public var positionals: [String]

  public init(_ message: String, positionals: [String] = []) {
    self.message = message
    self.positionals = positionals
  }

  public var description: String { message }
}
