import Foundation
import Observation
import PlainStore

/// The logic of the edit form (HistoryEditView), without any UI framework.
///
/// Edits a feed's start, end, amount, unit and memo, or a diaper change's time and type;
/// validates (end not before start, amount a number in range with a known unit, times not in the
/// future, no clash with another feed or diaper change of the baby) with messages for the person,
/// and asks for a confirmation of what is possible but doubtful (``doubts()``, the tracker's rule);
/// saves through the ``Tracker``, whose cache policy then applies.
///
/// ```swift
/// let edit = try HistoryEditModel(editing: event, container: container, cache: cache)
/// guard case .feed(var form) = edit.draft else { return }
/// form.amountText = "140"
/// edit.draft = .feed(form)
/// if edit.issues.isEmpty { try edit.save() }
/// ```
@MainActor @Observable
public final class HistoryEditModel {
  /// The form.
  public enum Draft: Sendable, Hashable {
    case feed(FeedDraft)
    case diaper(DiaperDraft)
  }

  /// The form's current values; change them, then ``save()``.
  public var draft: Draft
  /// The values the form opened with (or last saved): a save writes only what differs from
  /// them, so what another process changed meanwhile in the fields left alone stays.
  public private(set) var opened: Draft
  /// The baby's name, for the form's title; `nil` for an orphan.
  public let babyName: String?
  /// The last failure to update the cache after a successful save; the save itself stood.
  public private(set) var cacheWarning: String?

  /// The id of the feed or diaper change being edited.
  public let id: UUID
  @ObservationIgnored public let container: StoreContainer
  @ObservationIgnored public let cache: LastFeedAmountCache
  @ObservationIgnored public let flags: FeatureFlags
  @ObservationIgnored private let now: () -> Date

  /// Opens the form for a history row, with the values stored now.
  ///
  /// - Throws: ``ScreenModelError/notFound(entity:id:)`` if the row's object is gone.
  public init(
    editing event: HistoryEvent, container: StoreContainer, cache: LastFeedAmountCache, flags: FeatureFlags = .defaults,
    now: @escaping () -> Date = { Date() }
  ) throws {
    let context = container.viewContext
    let form: Draft
    switch event.kind {
    case .feed(let feed):
      guard let stored = try context.object(FeedSession.self, id: feed.uuid) else {
        throw ScreenModelError.notFound(entity: FeedSession.entityName, id: feed.uuid)
      }
      form = .feed(FeedDraft(stored))
    case .diaper(let diaper):
      guard let stored = try context.object(DiaperChange.self, id: diaper.uuid) else {
        throw ScreenModelError.notFound(entity: DiaperChange.entityName, id: diaper.uuid)
      }
      form = .diaper(DiaperDraft(stored))
    }
    draft = form
    opened = form
    id = event.id
    babyName = event.babyName
    self.container = container
    self.cache = cache
    self.flags = flags
    self.now = now
  }

  private var context: StoreContext { container.viewContext }

  /// What is wrong with the form as typed; the store is checked too when saving.
  public var issues: [ValidationIssue] {
    switch draft {
    case .feed(let form): return form.issues
    case .diaper: return []
    }
  }

  /// The messages of ``issues``, in order.
  public var messages: [String] { issues.map(\.message) }

  /// Whether the form, as typed, can be saved.
  public var canSave: Bool { issues.isEmpty }

  /// What the form, as typed, would save that needs the person's confirmation (a feed longer
  /// than four hours, a start more than a day ago, an overlap with another feed of the baby, a
  /// zero amount): the tracker's rule, ``Tracker/doubts(about:changes:)``. Empty when the form
  /// has issues or nothing to save.
  public func doubts() throws -> [ValidationIssue] {
    guard case .feed(let form) = draft, form.issues.isEmpty,
      let stored = try context.object(FeedSession.self, id: id)
    else { return [] }
    let changes = try changes(from: opened, to: form)
    guard !changes.isEmpty else { return [] }
    return try makeTracker().doubts(about: changes.applied(to: stored), changes: changes)
  }

  /// Saves the form and returns the saved row.
  ///
  /// A feed with an amount then becomes its baby's cached last amount (cache flag on).
  /// - Parameter confirmed: whether the person confirmed the ``doubts()``.
  /// - Throws: ``ScreenModelError/invalid(_:)`` with every issue (nothing saved),
  ///   ``ScreenModelError/unconfirmed(_:)`` with the doubts when not `confirmed` (nothing saved),
  ///   ``ScreenModelError/notFound(entity:id:)`` if the object was deleted meanwhile, or a
  ///   `StoreError` from the save.
  @discardableResult
  public func save(confirmed: Bool = false) throws -> HistoryEvent {
    let tracker = makeTracker()
    defer { cacheWarning = tracker.cacheWarning }
    switch draft {
    case .feed(let form):
      let formIssues = form.issues
      guard formIssues.isEmpty else {
        // Say everything at once: the clash too, though the amount could not be read.
        var issues = formIssues
        if let stored = try context.object(FeedSession.self, id: id),
          try context.clashingObject(with: FeedChanges(startTime: form.startTime).applied(to: stored), schema: container.schema) != nil
        {
          issues.append(.anotherFeedStartsThen)
        }
        throw ScreenModelError.invalid(issues)
      }
      let feed = try tracker.editFeed(id, try changes(from: opened, to: form), confirmed: confirmed)
      draft = .feed(FeedDraft(feed))
      opened = draft
      return HistoryEvent(.feed(feed), babyName: babyName)
    case .diaper(let form):
      let start = if case .diaper(let start) = opened { start } else { form }
      let diaper = try tracker.editDiaper(
        id, timestamp: form.timestamp == start.timestamp ? nil : form.timestamp, type: form.type == start.type ? nil : form.type)
      draft = .diaper(DiaperDraft(diaper))
      opened = draft
      return HistoryEvent(.diaper(diaper), babyName: babyName)
    }
  }

  /// The fields the person changed since the form opened, and only those.
  private func changes(from opened: Draft, to form: FeedDraft) throws -> FeedChanges {
    guard case .feed(let start) = opened else { return FeedChanges() }
    var changes = FeedChanges()
    if form.startTime != start.startTime { changes.startTime = form.startTime }
    if form.endTime != start.endTime { changes.endTime = .some(form.endTime) }
    if form.amountText != start.amountText || form.unitSymbol != start.unitSymbol { changes.amount = .some(try form.amountInput.amount()) }
    if form.memoText != start.memoText { changes.memoText = .some(form.memoText) }
    return changes
  }

  /// Deletes the feed or diaper change being edited.
  public func delete() throws {
    switch draft {
    case .feed: try makeTracker().deleteFeed(id)
    case .diaper: try makeTracker().deleteDiaper(id)
    }
  }

  private func makeTracker() -> Tracker {
    Tracker(context: context, schema: container.schema, cache: cache, flags: flags, now: now)
  }
}
