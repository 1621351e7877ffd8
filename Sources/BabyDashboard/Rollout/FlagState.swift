/// Where a rollout flag stands: off for everyone, on for a percentage of devices (their cohort),
/// or on for everyone.
///
/// Written as people type it, in the flags document and on the command line: `off`, `on`, or a
/// percentage `20` (or `20%`). `0` reads as `off` and `100` as `on`, so one state has one text.
public enum FlagState: Sendable, Hashable, CustomStringConvertible {
  case off
  /// On for the devices whose cohort (0–99) is below the percentage, 1–99.
  case cohort(percent: Int)
  case on

  /// The state a text names, or `nil` when it names none (the caller says where it came from).
  public init?(text: String) {
    var word = text.trimmingCharacters(in: .whitespaces).lowercased()
    switch word {
    case "off": self = .off
    case "on": self = .on
    default:
      if word.hasSuffix("%") { word.removeLast() }
      guard !word.isEmpty, word.allSatisfy(\.isASCII), word.allSatisfy(\.isNumber), let percent = Int(word) else { return nil }
      self.init(percent: percent)
    }
  }

  /// The state of a percentage, or `nil` outside 0–100.
  public init?(percent: Int) {
    switch percent {
    case 0: self = .off
    case 100: self = .on
    case 1...99: self = .cohort(percent: percent)
    default: return nil
    }
  }

  /// The words a state may be written in, for messages.
  public static let spelling = "\"off\", \"on\" or a percentage from 0 to 100"

  /// The percentage of devices it is on for: 0, the cohort's, or 100.
  public var percent: Int {
    switch self {
    case .off: return 0
    case .cohort(let percent): return percent
    case .on: return 100
    }
  }

  /// `off`, `on` or `20%`.
  public var description: String {
    switch self {
    case .off: return "off"
    case .on: return "on"
    case .cohort(let percent): return "\(percent)%"
    }
  }
}
