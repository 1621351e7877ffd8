import Foundation
import PlainStore

extension StoreContext {
  /// The feeds and diaper changes whose id starts with `prefix` (any case): what a person means
  /// by the short id the history shows.
  public func events(withIDPrefix prefix: String) throws -> [HistoryEvent.Kind] {
    let wanted = prefix.lowercased()
    guard !wanted.isEmpty else { return [] }
    let feeds = try fetch(FetchDescriptor<FeedSession>()).filter { $0.uuid.uuidString.lowercased().hasPrefix(wanted) }
    let diapers = try fetch(FetchDescriptor<DiaperChange>()).filter { $0.uuid.uuidString.lowercased().hasPrefix(wanted) }
    return feeds.map { .feed($0) } + diapers.map { .diaper($0) }
  }

  /// The feeds and diaper changes whose id starts with `prefix` that merged into another (the
  /// same baby and time, logged on two phones before they met), each with the stored event it is
  /// part of now: what an edit or a delete of that id reaches (``PlainStore/StoreContext/storedID(_:for:)``).
  public func mergedEvents(withIDPrefix prefix: String) throws -> [(mergedID: UUID, event: HistoryEvent.Kind)] {
    var found: [(mergedID: UUID, event: HistoryEvent.Kind)] = []
    for merged in mergedIDs(withIDPrefix: prefix) {
      if merged.entityName == FeedSession.entityName {
        if let feed = try object(FeedSession.self, id: merged.survivor) { found.append((merged.mergedID, .feed(feed))) }
      } else if let diaper = try object(DiaperChange.self, id: merged.survivor) {
        found.append((merged.mergedID, .diaper(diaper)))
      }
    }
    return found
  }

  /// The ids starting with `prefix` (any case) of feeds and diaper changes that merged into
  /// another, feeds first, each in id order, with the event it merged into last: one that is
  /// shown, or with `includingDeleted` also one deleted since (see
  /// ``PlainStore/StoreContext/mergedIDs(_:includingDeleted:)``).
  public func mergedIDs(withIDPrefix prefix: String, includingDeleted: Bool = false) -> [(entityName: String, mergedID: UUID, survivor: UUID)] {
    let wanted = prefix.lowercased()
    guard !wanted.isEmpty else { return [] }
    func matching(_ entityName: String, _ merged: [UUID: UUID]) -> [(entityName: String, mergedID: UUID, survivor: UUID)] {
      merged.filter { $0.key.uuidString.lowercased().hasPrefix(wanted) }.sorted { $0.key.uuidString < $1.key.uuidString }
        .map { (entityName, $0.key, $0.value) }
    }
    return matching(FeedSession.entityName, mergedIDs(FeedSession.self, includingDeleted: includingDeleted))
      + matching(DiaperChange.entityName, mergedIDs(DiaperChange.self, includingDeleted: includingDeleted))
  }
}
