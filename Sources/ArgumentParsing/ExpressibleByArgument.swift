/// A type a command-line value converts to: every option's text goes through this one door, so
/// a bad value is refused with the same message whichever tool reads it.
///
/// ```swift
/// struct Minutes: ExpressibleByArgument {
///   var count: Int
///   init(argument: String) throws(ArgumentValueError) {
///     guard let count = Int(argument), count > 0 else { throw ArgumentValueError(reason: "a number of minutes") }
///     self.count = count
///   }
/// }
/// ```
public protocol ExpressibleByArgument: Sendable {
  /// Reads `argument`, or says what was expected.
  init(argument: String) throws(ArgumentValueError)
}

/// Why a value could not be read: what was expected, without the option's name (the parser adds
/// "bad value 'X' for --NAME: ").
public struct ArgumentValueError: Error, Equatable, Sendable {
  public var reason: String

  public init(reason: String) {
    self.reason = reason
  }
}

extension String: ExpressibleByArgument {
  public init(argument: String) {
    self = argument
  }
}

extension Int: ExpressibleByArgument {
  public init(argument: String) throws(ArgumentValueError) {
    guard let value = Int(argument) else { throw ArgumentValueError(reason: "a whole number") }
    self = value
  }
}

extension Double: ExpressibleByArgument {
  public init(argument: String) throws(ArgumentValueError) {
    guard let value = Double(argument), value.isFinite else { throw ArgumentValueError(reason: "a number") }
    self = value
  }
}
