import BabyDashboard
import Foundation
import Observation
import PlainStore

/// The seed's HistoryEditView for a feed, ported: the form binds to a copy of the feed; saving
/// writes what the person changed since the form opened, so what another process changed in
/// the other fields meanwhile stays.
@MainActor @Observable
public final class FeedEditScreen {
  /// The form's values: bind the fields to it.
  public var feed: FeedSession
  @ObservationIgnored let opened: FeedSession
  @ObservationIgnored let container: StoreContainer

  /// Opens the sheet for a history row.
  public init(editing id: ObjectID, container: StoreContainer) throws {
    guard id.isObject(of: FeedSession.self), let feed = try container.viewContext.object(FeedSession.self, id: id.uuid) else {
      throw StoreError(.notFound, path: id.description, "is not a stored feed.")
    }
    self.feed = feed
    self.opened = feed
    self.container = container
  }

  /// The hashtags of the memo as typed.
  public var hashtags: [String] { feed.hashtags }

  public func save() throws {
    let context = container.viewContext
    context.update(feed, from: opened)
    try context.save()
  }
}
