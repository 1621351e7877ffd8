/// What the parser and the help text know of an option: its name, the placeholder of its value
/// (nil for a flag) and one line of help. ``Option`` and ``Flag`` make them.
public struct OptionSpec: Sendable, Hashable {
  public var name: String
  /// The placeholder of its value (`TIME`), or nil for a flag.
  public var value: String?
  public var help: String

  public init(name: String, value: String?, help: String) {
    self.name = name
    self.value = value
    self.help = help
  }

  public var takesValue: Bool { value != nil }

  /// The options as help lists them: `  --at TIME   when (default: now)`, help aligned.
  public static func table(_ options: [OptionSpec]) -> [String] {
    let labels = options.map { "  \($0.name)\($0.value.map { " " + $0 } ?? "")" }
    let width = labels.map(\.count).max() ?? 0
    return zip(labels, options).map { label, option in
      label + String(repeating: " ", count: width - label.count + 2) + option.help
    }
  }
}
