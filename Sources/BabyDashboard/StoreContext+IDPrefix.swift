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
    let wanted = prefix.lowercased()
    guard !wanted.isEmpty else { return [] }
    func matching(_ merged: [UUID: UUID]) -> [(UUID, UUID)] {
      merged.filter { $0.key.uuidString.lowercased().hasPrefix(wanted) }.sorted { $0.key.uuidString < $1.key.uuidString }
    }
    var found: [(mergedID: UUID, event: HistoryEvent.Kind)] = []
    for (id, survivor) in matching(mergedIDs(FeedSession.self)) {
      if let feed = try object(FeedSession.self, id: survivor) { found.append((id, .feed(feed))) }
    }
    for (id, survivor) in matching(mergedIDs(DiaperChange.self)) {
      if let diaper = try object(DiaperChange.self, id: survivor) { found.append((id, .diaper(diaper))) }
    }
    return found
  }
}
