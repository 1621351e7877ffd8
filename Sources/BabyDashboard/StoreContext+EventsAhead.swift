import Foundation
import PlainStore

/// Feeds and diaper changes dated ahead of this device's clock (``TrackerRules/isAhead(_:of:)``).
///
/// The tracker refuses such times from every door it guards (the CLI, the app, a restore, an
/// import); what arrives by sync from a device whose clock was wrong is the family's data and is
/// merged, then named — in the merge report, `check` and `sync status` — and left out of "the
/// last feed" (``StoreContext/lastFeed(of:asOf:)``), so that it never blocks starting a feed.
public struct EventsAhead: Sendable, Hashable {
  /// Feeds whose start or end is ahead of now, earliest first.
  public var feeds: [FeedSession] = []
  /// Diaper changes ahead of now, earliest first.
  public var diapers: [DiaperChange] = []

  public var isEmpty: Bool { feeds.isEmpty && diapers.isEmpty }
}

extension StoreContext {
  /// The feeds and diaper changes dated ahead of `now` (of one baby, or of all).
  public func eventsAhead(of now: Date, babyID: UUID? = nil) throws -> EventsAhead {
    let latest = TrackerRules.latestPresentTime(now: now)
    // A feed that started lately but ends ahead of now is ahead too (its end cannot be yet); one
    // that started days ago and ends ahead was refused as too long by every door but sync.
    let from = now.addingTimeInterval(-2 * TrackerRules.oldestStart)
    let feeds = try fetch(FetchDescriptor<FeedSession>(
      predicate: #Predicate { $0.startTime >= from }, sortBy: [SortDescriptor(\.startTime, order: .forward)]))
      .filter { TrackerRules.isAhead($0.startTime, of: now) || $0.endTime.map { TrackerRules.isAhead($0, of: now) } == true }
    let diapers = try fetch(FetchDescriptor<DiaperChange>(
      predicate: #Predicate { $0.timestamp > latest }, sortBy: [SortDescriptor(\.timestamp, order: .forward)]))
    return EventsAhead(
      feeds: feeds.filter { babyID == nil || $0.profileID == babyID },
      diapers: diapers.filter { babyID == nil || $0.profileID == babyID })
  }
}
