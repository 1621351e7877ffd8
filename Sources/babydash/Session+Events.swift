import BabyDashboard
import Foundation

extension Session {
  /// The feed or diaper change an ID argument means: a full id or a prefix only it has (as
  /// `babydash history` shows them).
  func event(_ idPrefix: String) throws -> HistoryEvent.Kind {
    let wanted = idPrefix.trimmingCharacters(in: .whitespaces)
    guard wanted.count >= 4, wanted.allSatisfy({ $0.isHexDigit || $0 == "-" }) else {
      throw CommandLineError.data("'\(idPrefix)' is not an event id: give at least 4 characters of an id that babydash history shows")
    }
    let matches = try storeForReading().viewContext.events(withIDPrefix: wanted)
    switch matches.count {
    case 1:
      return matches[0]
    case 0:
      throw CommandLineError.data("no feed or diaper change has an id starting with '\(wanted)': see babydash history")
    default:
      throw CommandLineError.data(
        "\(matches.count) events have an id starting with '\(wanted)': give more of it, one of "
          + matches.map { HistoryEvent($0, babyName: nil).id.uuidString.lowercased() }.joined(separator: ", "))
    }
  }

  /// The feed an ID argument means.
  func feed(_ idPrefix: String) throws -> FeedSession {
    guard case .feed(let feed) = try event(idPrefix) else {
      throw CommandLineError.data("'\(idPrefix)' is a diaper change, not a feed: use babydash diaper edit or diaper delete")
    }
    return feed
  }

  /// The diaper change an ID argument means.
  func diaper(_ idPrefix: String) throws -> DiaperChange {
    guard case .diaper(let diaper) = try event(idPrefix) else {
      throw CommandLineError.data("'\(idPrefix)' is a feed, not a diaper change: use babydash feed edit or feed delete")
    }
    return diaper
  }
}
