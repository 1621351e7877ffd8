import Foundation

/// Something in a form that stops it from being saved, with a message for the person typing.
///
/// The rules: a feed does not end before it starts; an amount is a number, not negative, and has
/// a known unit; no two feeds of one baby start at the same moment, and no two diaper changes of
/// one baby share a moment and a type (the store's uniqueness constraints, caught before they
/// would merge the two). Some issues only ask for a confirmation (``needsConfirmation``): a feed
/// longer than four hours, one that starts more than a day ago, overlapping feeds, a zero amount.
public enum ValidationIssue: Sendable, Hashable, CustomStringConvertible {
  /// The end time is earlier than the start time.
  case endBeforeStart
  /// The amount is below zero.
  case negativeAmount
  /// The amount field holds something that is not a number.
  case amountNotANumber(String)
  /// An amount was given without a unit.
  case missingUnit
  /// The unit is not one the app knows.
  case unknownUnit(String)
  /// Another feed of the same baby starts at that moment.
  case anotherFeedStartsThen
  /// Another diaper change of the same baby and type is logged at that moment.
  case sameDiaperChangeExists
  /// A name holds a control character (an escape, a bell, a newline).
  case nameHasControlCharacters
  /// A name is longer than the limit.
  case nameTooLong(limit: Int)
  /// A feed term outside ``TrackerRules/feedTermRange``.
  case feedTermOutOfRange
  /// An amount above ``TrackerRules/maximumAmountInMilliliters``.
  case amountTooLarge
  /// A time more than ``TrackerRules/futureTolerance`` after now.
  case inTheFuture
  /// A time before ``TrackerRules/earliestTime``.
  case beforeEarliestTime
  /// A feed would start before the baby's newest feed, so it could never be the one in progress.
  case laterFeedExists
  /// A feed longer than ``TrackerRules/longestFeed`` (its length): saved only when confirmed.
  case feedTooLong(TimeInterval)
  /// A feed that starts more than ``TrackerRules/oldestStart`` before now: saved only when confirmed.
  case startsLongAgo
  /// A feed that overlaps other feeds of its baby (their ids, one or more, in start order):
  /// saved only when confirmed. One issue however many it overlaps, so its sentence is said once.
  case overlapsFeeds([UUID])
  /// An amount of zero: saved only when confirmed, and never the prefill.
  case zeroAmount

  /// Whether the value is possible but doubtful: saved once the person confirms it
  /// (``ScreenModelError/unconfirmed(_:)``), where the other issues are never saved.
  public var needsConfirmation: Bool {
    switch self {
    case .feedTooLong, .startsLongAgo, .overlapsFeeds, .zeroAmount: return true
    default: return false
    }
  }

  /// A sentence that says what is wrong and what to do.
  public var message: String {
    switch self {
    case .endBeforeStart:
      return "The feed ends before it starts: set the end at or after the start."
    case .negativeAmount:
      return "The amount is negative: enter zero or more, or leave it empty."
    case .amountNotANumber(let text):
      return "The amount \"\(text)\" is not a number: enter digits such as 120 or 4.5, or leave it empty."
    case .missingUnit:
      return "The amount has no unit: choose mL or fl oz."
    case .unknownUnit(let text):
      return "The unit \"\(text)\" is not one the app knows: use mL or fl oz."
    case .anotherFeedStartsThen:
      return "Another feed of this baby starts at the same time: change the start time, or edit that feed instead."
    case .sameDiaperChangeExists:
      return "This baby already has a diaper change of this type at that time: change the time or the type."
    case .nameHasControlCharacters:
      return "The name holds a control character (an escape, a bell, a line break, a right-to-left override or bytes that are not UTF-8): type it again without one."
    case .nameTooLong(let limit):
      return "The name is longer than \(limit) characters: shorten it."
    case .feedTermOutOfRange:
      return "The time between feeds must be from 1 minute to 24 hours."
    case .amountTooLarge:
      return "The amount is more than \(Int(TrackerRules.maximumAmountInMilliliters)) mL: check for a thousands separator or a wrong unit."
    case .laterFeedExists:
      return "A later feed of this baby is already logged: log this one with its start and end instead."
    case .beforeEarliestTime:
      return "The time is before the year 2000: check the year."
    case .feedTooLong(let length):
      let hours = Int(TrackerRules.longestFeed / 3600)
      let minutes = Int(length / 60)
      let shown = minutes >= 2880 ? "\(minutes / 1440) days" : minutes >= 120 ? "\(minutes / 60) hours" : "\(minutes) minutes"
      return "The feed lasts \(shown), longer than \(hours) hours: check its start and end (was it left running?)."
    case .startsLongAgo:
      return "The feed starts more than a day ago: check the date."
    case .overlapsFeeds(let ids):
      let shown = ids.map { String($0.uuidString.prefix(8).lowercased()) }.joined(separator: ", ")
      guard ids.count > 1 else { return "The feed overlaps another feed of this baby (\(shown)): check the times, or edit that feed instead." }
      return "The feed overlaps \(ids.count) other feeds of this baby (\(shown)): check the times, or edit those feeds instead."
    case .zeroAmount:
      return "The amount is zero: leave it empty if the baby took nothing measured; a zero is never used as the next prefill."
    case .inTheFuture:
      return "The time is in the future: give a time that has passed (HH:mm means today's)."
    }
  }

  public var description: String { message }
}
