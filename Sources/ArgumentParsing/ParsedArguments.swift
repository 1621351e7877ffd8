/// A command line split into positional arguments, option values and flags, read back through
/// the options' declarations.
///
/// Options may come anywhere, as `--name value` or `--name=value`; `--` ends them; `-h` is
/// `--help`; `-5` is a value, not an option.
///
/// ```swift
/// let parsed = try ParsedArguments(CommandLine.arguments.dropFirst(), options: [Self.pairs.spec, Self.quick.spec])
/// let pairs = try parsed.value(Self.pairs) ?? 5
/// ```
public struct ParsedArguments: Sendable {
  public var positionals: [String]
  /// The text of each option given, by name (the last one wins).
  public var values: [String: String]
  public var flags: Set<String>
  /// Every option and flag given, in order.
  public var given: [String]

  /// - Throws: ``ArgumentError`` for an unknown option, a value missing, or a value given to a flag.
  public init<S: Sequence>(_ argv: S, options: [OptionSpec]) throws(ArgumentError) where S.Element == String {
    var known: [String: OptionSpec] = [:]
    for option in options { known[option.name] = option }
    positionals = []
    values = [:]
    flags = []
    given = []
    var tokens = Array(argv)[...]
    var optionsEnded = false
    while let token = tokens.popFirst() {
      if optionsEnded || !token.hasPrefix("-") || token == "-" || Self.isNegativeNumber(token) {
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
      guard let spec = known[name] else { throw ArgumentError("unknown option '\(name)'", positionals: positionals) }
      given.append(name)
      if let placeholder = spec.value {
        guard let value = inline ?? tokens.popFirst() else {
          throw ArgumentError("option \(name) needs a value (\(placeholder))", positionals: positionals)
        }
        values[name] = value
      } else {
        guard inline == nil else { throw ArgumentError("option \(name) takes no value", positionals: positionals) }
        flags.insert(name)
      }
    }
  }

  /// The value of `option` converted to its type, or nil when it was not given.
  ///
  /// - Throws: ``ArgumentError`` "bad value 'X' for --NAME: reason".
  public func value<Value>(_ option: Option<Value>) throws(ArgumentError) -> Value? {
    guard let text = values[option.name] else { return nil }
    let value: Value
    do {
      value = try Value(argument: text)
    } catch {
      throw ArgumentError("bad value '\(text)' for \(option.name): \(error.reason)")
    }
    if let reason = option.check(value) { throw ArgumentError("bad value '\(text)' for \(option.name): \(reason)") }
    return value
  }

  /// The text of `option` as typed, or nil.
  public func text<Value>(_ option: Option<Value>) -> String? {
    values[option.name]
  }

  /// Whether `flag` was given.
  public func has(_ flag: Flag) -> Bool {
    flags.contains(flag.name)
  }

  /// "-5" is a value, not an option: a negative amount gets its own clear message later.
  static func isNegativeNumber(_ token: String) -> Bool {
    token.count > 1 && Double(token.dropFirst()) != nil
  }
}
