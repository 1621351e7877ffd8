import BabyDashboard
import Foundation
import Observation
import PlainStore

/// The seed's HistoryView, ported: two `@Query` lists (feeds and diapers, newest first) merged
/// in Swift, filtered by baby and hashtag; rows are identified by ``ObjectID`` for the edit
/// sheet and for deletes.
@MainActor @Observable
public final class HistoryScreen {
  public struct Row: Identifiable, Hashable, Sendable {
    public var id: ObjectID
    public var date: Date
    public var babyID: UUID?
    public var title: String
    public var hashtags: [String]
  }

  public let feeds: LiveQuery<[FeedSession]>
  public let diapers: LiveQuery<[DiaperChange]>
  public var babyFilter: UUID?
  public var hashtagFilter: String?
  /// `.sheet(item: $editing)`.
  public var editing: ObjectID?

  @ObservationIgnored let container: StoreContainer

  public init(container: StoreContainer) throws {
    self.container = container
    feeds = try container.liveQuery(FetchDescriptor<FeedSession>(sortBy: [SortDescriptor(\.startTime, order: .reverse)]))
    diapers = try container.liveQuery(FetchDescriptor<DiaperChange>(sortBy: [SortDescriptor(\.timestamp, order: .reverse)]))
  }

  /// The merged, filtered rows, newest first; recomputed whenever either query changes.
  public var rows: [Row] {
    let feedRows = feeds.results.map { feed in
      Row(id: feed.objectID, date: feed.startTime, babyID: feed.profileID, title: "feed", hashtags: feed.hashtags)
    }
    let diaperRows = diapers.results.map { diaper in
      Row(id: diaper.objectID, date: diaper.timestamp, babyID: diaper.profileID, title: diaper.type.rawValue, hashtags: [])
    }
    return (feedRows + diaperRows)
      .filter { babyFilter == nil || $0.babyID == babyFilter }
      .filter { row in hashtagFilter.map { row.hashtags.contains($0.lowercased()) } ?? true }
      .sorted { $0.date != $1.date ? $0.date > $1.date : $0.id < $1.id }
  }

  /// Swipe to delete: `modelContext.delete(model)`.
  public func delete(_ row: ObjectID) throws {
    let context = container.viewContext
    if row.isObject(of: FeedSession.self) { context.delete(FeedSession.self, id: row.uuid) }
    if row.isObject(of: DiaperChange.self) { context.delete(DiaperChange.self, id: row.uuid) }
    try context.save()
  }
}
