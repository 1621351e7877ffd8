import BabyDashboard
import BabyDashboardText
import PlainStore
import Foundation

extension Session {
  /// The feed or diaper change an ID argument means (a full id or a prefix only it has, as
  /// `babydash history` shows them), and the id it was addressed by: the event's own, or one that
  /// merged into it, which the change is saved under (every device's fold takes it to the event).
  func event(_ idPrefix: String) throws -> (addressed: UUID, event: HistoryEvent.Kind) {
    let wanted = idPrefix.trimmingCharacters(in: .whitespaces)
    guard wanted.count >= 4, wanted.allSatisfy({ $0.isHexDigit || $0 == "-" }) else {
      throw CommandLineError.data("'\(idPrefix)' is not an event id: give at least 4 characters of an id that babydash history shows")
    }
    let context = try storeForReading().viewContext
    var matches = try context.events(withIDPrefix: wanted).map { (addressed: HistoryEvent($0, babyName: nil).id, event: $0) }
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
      matches = merged.map { (addressed: $0.mergedID, event: $0.event) }
    }
    switch matches.count {
    case 1:
      return matches[0]
    case 0:
      if let gone = try mergedAndDeleted(wanted) ?? deletedOnAnotherDevice(wanted) { throw CommandLineError.data(gone) }
      throw CommandLineError.data("no feed or diaper change has an id starting with '\(wanted)': see babydash history")
    default:
      throw CommandLineError.data(
        "\(matches.count) events have an id starting with '\(wanted)': give more of it, one of "
          + matches.map { HistoryEvent($0.event, babyName: nil).id.uuidString.lowercased() }.joined(separator: ", "))
    }
  }

  /// The feed an ID argument means, and the id it was addressed by.
  func feed(_ idPrefix: String) throws -> (addressed: UUID, feed: FeedSession) {
    guard case let (addressed, .feed(feed)) = try event(idPrefix) else {
      throw CommandLineError.data("'\(idPrefix)' is a diaper change, not a feed: use babydash diaper edit or diaper delete")
    }
    return (addressed, feed)
  }

  /// The diaper change an ID argument means, and the id it was addressed by.
  func diaper(_ idPrefix: String) throws -> (addressed: UUID, diaper: DiaperChange) {
    guard case let (addressed, .diaper(diaper)) = try event(idPrefix) else {
      throw CommandLineError.data("'\(idPrefix)' is a feed, not a diaper change: use babydash feed edit or feed delete")
    }
    return (addressed, diaper)
  }

  /// Why no event has the id, when a merge of another device's changes deleted it: said, rather
  /// than "no such id", to the parent who edits the feed the other parent just deleted.
  func deletedOnAnotherDevice(_ prefix: String) throws -> String? {
    guard storeExists else { return nil }
    let wanted = prefix.lowercased()
    for transaction in try store().history(after: nil).reversed() where transaction.author == "sync" {
      for (entity, noun) in [(FeedSession.entityName, "feed"), (DiaperChange.entityName, "diaper change")] {
        guard let id = transaction.changes[entity]?.deleted.first(where: { $0.uuidString.lowercased().hasPrefix(wanted) }) else { continue }
        return "the \(noun) \(shortID(id)) was deleted\(deletion(by: transaction)): nothing was changed; see babydash history"
      }
    }
    return nil
  }

  /// Why no event has the id, when its event merged into another (both phones logged it) that
  /// was deleted since, here or on another device: the merge's own delete of the id is not
  /// what the parent is told.
  func mergedAndDeleted(_ prefix: String) throws -> String? {
    guard storeExists, let merged = try storeForReading().viewContext.mergedIDs(withIDPrefix: prefix, includingDeleted: true).first else {
      return nil
    }
    let noun = merged.entityName == FeedSession.entityName ? "feed" : "diaper change"
    // Its history may have been pruned: then when and where are not said.
    let deleting = try store().history(after: nil).last { $0.changes[merged.entityName]?.deleted.contains(merged.survivor) == true }
    return "the \(noun) \(shortID(merged.mergedID)) merged into \(noun) \(shortID(merged.survivor)) (both phones logged it, for the same baby and time), "
      + "which was deleted\(deleting.map(deletion(by:)) ?? ""): nothing was changed; see babydash history"
  }

  /// Where and when a transaction that deleted an event ran, as the messages above say it.
  private func deletion(by transaction: Transaction) -> String {
    transaction.author == "sync" ? " on another device (merged \(text(transaction.timestamp)))" : " (\(text(transaction.timestamp)))"
  }
}
