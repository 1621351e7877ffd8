import BabyDashboard
import BabyDashboardText
import PlainStore
import Foundation

extension Session {
  /// The feed or diaper change an ID argument means: a full id or a prefix only it has (as
  /// `babydash history` shows them).
  func event(_ idPrefix: String) throws -> HistoryEvent.Kind {
    let wanted = idPrefix.trimmingCharacters(in: .whitespaces)
    guard wanted.count >= 4, wanted.allSatisfy({ $0.isHexDigit || $0 == "-" }) else {
      throw CommandLineError.data("'\(idPrefix)' is not an event id: give at least 4 characters of an id that babydash history shows")
    }
    let context = try storeForReading().viewContext
    var matches = try context.events(withIDPrefix: wanted)
    if matches.isEmpty {
      // An id the other phone's history showed before the two logged the same event: it stands
      // for the one they merged into.
      let merged = try context.mergedEvents(withIDPrefix: wanted)
      for (id, event) in merged {
        let into = HistoryEvent(event, babyName: nil)
        let noun = into.feed != nil ? "feed" : "diaper change"
        try output.error(
          "babydash: \(noun) \(shortID(id)) merged into \(noun) \(shortID(into.id)) (both phones logged it, for the same baby and time), which this command changes")
      }
      matches = merged.map(\.event)
    }
    switch matches.count {
    case 1:
      return matches[0]
    case 0:
      if let deleted = try deletedOnAnotherDevice(wanted) { throw CommandLineError.data(deleted) }
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

  /// Why no event has the id, when a merge of another device's changes deleted it: said, rather
  /// than "no such id", to the parent who edits the feed the other parent just deleted.
  func deletedOnAnotherDevice(_ prefix: String) throws -> String? {
    guard storeExists else { return nil }
    let wanted = prefix.lowercased()
    for transaction in try store().history(after: nil).reversed() where transaction.author == "sync" {
      for (entity, noun) in [(FeedSession.entityName, "feed"), (DiaperChange.entityName, "diaper change")] {
        guard let id = transaction.changes[entity]?.deleted.first(where: { $0.uuidString.lowercased().hasPrefix(wanted) }) else { continue }
        return "the \(noun) \(id.uuidString.prefix(8).lowercased()) was deleted on another device "
          + "(merged \(TimeText.typable(transaction.timestamp, now: now, in: timeZone))): nothing was changed; see babydash history"
      }
    }
    return nil
  }
}
