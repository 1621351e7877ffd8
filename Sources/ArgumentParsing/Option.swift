/// An option that takes a value, declared once: its name, its placeholder and help (for the help
/// text) and its type (for the value). Commands list its ``spec``; code reads it with
/// ``ParsedArguments/value(_:)``, so a misspelt name does not compile.
///
/// ```swift
/// static let pairs = Option<Int>("--pairs", "N", help: "how many pairs (default 5)") { $0 >= 1 ? nil : "at least 1" }
/// let pairs = try parsed.value(Self.pairs) ?? 5
/// ```
public struct Option<Value: ExpressibleByArgument>: Sendable {
  public let spec: OptionSpec
  /// A further check of a converted value: the reason it is refused, or nil.
  let check: @Sendable (Value) -> String?

  /// - Parameters:
  ///   - name: with its dashes, `--at`.
  ///   - placeholder: what the value is in help and errors, `TIME`.
  ///   - check: the reason a converted value is refused, or nil to take it.
  public init(
    _ name: String, _ placeholder: String, help: String, check: @escaping @Sendable (Value) -> String? = { _ in nil }
  ) {
    spec = OptionSpec(name: name, value: placeholder, help: help)
    self.check = check
  }

  public var name: String { spec.name }
}

/// An option that takes no value.
public struct Flag: Sendable {
  public let spec: OptionSpec

  public init(_ name: String, help: String) {
    spec = OptionSpec(name: name, value: nil, help: help)
  }

  public var name: String { spec.name }
}
