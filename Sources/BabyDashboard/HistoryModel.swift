import Foundation
import Observation
import PlainStore

/// The logic of the history (HistoryView), without any UI framework.
///
/// Feeds and diaper changes merged, newest first; filtered by baby and by hashtag; grouped by
/// month, then by day, in a given calendar and time zone; an event can be deleted, or edited
/// through a ``HistoryEditModel``.
///
/// ```swift
/// let history = HistoryModel(container: container, calendar: Calendar(identifier: .gregorian),
///                            timeZone: TimeZone(identifier: "Europe/Berlin")!)
/// try history.reload()                 // reads the history, then follows the store
/// history.hashtagFilter = "night"
/// for month in history.sections { … }
/// ```
@MainActor @Observable
public final class HistoryModel {
  /// Show only this baby's events; `nil` for all babies (orphans included).
  public var babyFilter: UUID? {
    didSet { applyFilters() }
  }
  /// Show only feeds with this hashtag (with or without `#`, any case); `nil` or empty for all
  /// events. Diaper changes have no hashtags, so a hashtag filter hides them.
  public var hashtagFilter: String? {
    didSet { applyFilters() }
  }

  /// The babies to filter by, oldest first.
  public private(set) var babies: [BabyProfile] = []
  /// Every hashtag in the (baby-filtered) feeds, sorted, for a filter menu.
  public private(set) var hashtags: [String] = []
  /// The events that pass the filters, newest first.
  public private(set) var events: [HistoryEvent] = []
  /// ``events`` by month, then by day, newest first.
  public private(set) var sections: [HistoryMonth] = []

  /// The calendar (with the time zone set) that decides months and days.
  public let calendar: Calendar
  @ObservationIgnored public let container: StoreContainer
  @ObservationIgnored private var allEvents: [HistoryEvent] = []
  /// Reads the store again, off the main actor, after every commit (any context, any process)
  /// that touches babies, feeds or diaper changes; made by the first ``reload()``. What it
  /// reads sets the properties above, through the filters.
  private var liveRecords: LiveQuery<HistoryRecords>?

  /// The babies and every event, newest first, as read from the store.
  private struct HistoryRecords: Sendable {
    var babies: [BabyProfile] = []
    var events: [HistoryEvent] = []
  }
  /// Why the history could not be read again after a change in the store; nil once it is.
  public var loadError: (any Error)? { liveRecords?.error }

  /// - Parameters:
  ///   - calendar: the calendar that decides months and days; its time zone is replaced by
  ///     `timeZone`.
  ///   - timeZone: the zone whose midnights separate days.
  public init(container: StoreContainer, calendar: Calendar, timeZone: TimeZone) {
    var calendar = calendar
    calendar.timeZone = timeZone
    self.calendar = calendar
    self.container = container
  }

  private var context: StoreContext { container.viewContext }

  /// Reads babies, feeds and diaper changes now. The first call also starts following the
  /// store: from then on, saves in any context and other processes' commits update the history
  /// by themselves.
  public func reload() throws {
    if let liveRecords {
      try liveRecords.refetch()
    } else {
      let query = try container.liveQuery(tracking: [BabyProfile.self, FeedSession.self, DiaperChange.self], state: {}) {
        context, _ in try Self.readRecords(context)
      }
      query.onChange = { [weak self] records in self?.show(records) }
      show(query.results)
      liveRecords = query
    }
  }

  private nonisolated static func readRecords(_ context: StoreContext) throws -> HistoryRecords {
    let babies = try context.babies()
    let names = Dictionary(babies.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
    func name(_ id: UUID?) -> String? { id.flatMap { names[$0] } }
    let feeds = try context.allFeeds().map { HistoryEvent(.feed($0), babyName: name($0.profileID)) }
    let diapers = try context.allDiapers().map { HistoryEvent(.diaper($0), babyName: name($0.profileID)) }
    return HistoryRecords(babies: babies, events: (feeds + diapers).sorted(by: HistoryEvent.newestFirst))
  }

  private func show(_ records: HistoryRecords) {
    babies = records.babies
    allEvents = records.events
    if let babyFilter, !babies.contains(where: { $0.id == babyFilter }) { self.babyFilter = nil }
    applyFilters()
  }

  /// Deletes a feed or diaper change (HistoryView's swipe to delete).
  ///
  /// - Throws: ``ScreenModelError/notFound(entity:id:)`` if it is already gone.
  public func delete(_ event: HistoryEvent) throws {
    // Deleting never changes the last-feed-amount cache: the tracker needs none here.
    let tracker = Tracker(context: context, schema: container.schema, cache: nil, now: { Date() })
    switch event.kind {
    case .feed(let feed): try tracker.deleteFeed(feed.uuid)
    case .diaper(let diaper): try tracker.deleteDiaper(diaper.uuid)
    }
    try reload()
  }

  private func applyFilters() {
    let baby = babyFilter
    let byBaby = baby.map { id in allEvents.filter { $0.profileID == id } } ?? allEvents
    var tags = Set<String>()
    for event in byBaby { tags.formUnion(event.hashtags) }
    hashtags = tags.sorted()
    let tag = hashtagFilter.map(Hashtag.normalize) ?? ""
    events = tag.isEmpty ? byBaby : byBaby.filter { $0.hashtags.contains(tag) }
    sections = HistoryMonth.group(events, calendar: calendar)
  }
}
