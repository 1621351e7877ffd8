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
}
