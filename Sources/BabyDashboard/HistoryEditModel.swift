import Foundation
import Observation
import PlainStore

/// The logic of the edit form (HistoryEditView), without any UI framework.
///
/// Edits a feed's start, end, amount, unit and memo, or a diaper change's time and type;
/// validates (end not before start, amount a number and not negative, a known unit, no clash
/// with another feed or diaper change of the baby) with messages for the person; saves, and then
/// caches a feed's amount under its baby's name (when the cache flag is on).
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
  /// The baby's name, for the form's title; `nil` for an orphan.
  public let babyName: String?
  /// The last failure to update the cache after a successful save; the save itself stood.
  public private(set) var cacheWarning: String?

  /// The id of the feed or diaper change being edited.
  public let id: UUID
  @ObservationIgnored public let container: StoreContainer
  @ObservationIgnored public let cache: LastFeedAmountCache
  @ObservationIgnored public let flags: FeatureFlags

  /// Opens the form for a history row, with the values stored now.
  ///
  /// - Throws: ``ScreenModelError/notFound(entity:id:)`` if the row's object is gone.
  public init(
    editing event: HistoryEvent, container: StoreContainer, cache: LastFeedAmountCache, flags: FeatureFlags = .defaults
  ) throws {
    let context = container.viewContext
    switch event.kind {
    case .feed(let feed):
      guard let stored = try context.object(FeedSession.self, id: feed.uuid) else {
        throw ScreenModelError.notFound(entity: FeedSession.entityName, id: feed.uuid)
      }
      draft = .feed(FeedDraft(stored))
    case .diaper(let diaper):
      guard let stored = try context.object(DiaperChange.self, id: diaper.uuid) else {
        throw ScreenModelError.notFound(entity: DiaperChange.entityName, id: diaper.uuid)
      }
      draft = .diaper(DiaperDraft(stored))
    }
    id = event.id
    babyName = event.babyName
    self.container = container
    self.cache = cache
    self.flags = flags
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

  /// Saves the form and returns the saved row.
  ///
  /// A feed with an amount then becomes its baby's cached last amount (cache flag on).
  /// - Throws: ``ScreenModelError/invalid(_:)`` with every issue (nothing saved),
  ///   ``ScreenModelError/notFound(entity:id:)`` if the object was deleted meanwhile, or a
  ///   `StoreError` from the save.
  @discardableResult
  public func save() throws -> HistoryEvent {
    switch draft {
    case .feed(let form):
      guard let stored = try context.object(FeedSession.self, id: id) else {
        throw ScreenModelError.notFound(entity: FeedSession.entityName, id: id)
      }
      var issues = form.issues
      if try clashes(feedStartingAt: form.startTime, of: stored) { issues.append(.anotherFeedStartsThen) }
      guard issues.isEmpty else { throw ScreenModelError.invalid(issues) }
      let feed = try form.applied(to: stored)
      context.update(feed)
      try saveOrRollback()
      if flags.lastFeedAmountCache, let amount = LastFeedAmount(feed: feed), let babyName = try currentName(of: feed.profileID) {
        do {
          try cache.set(amount, forBabyName: babyName)
          cacheWarning = nil
        } catch {
          cacheWarning = "\(error)"
        }
      }
      draft = .feed(FeedDraft(feed))
      return HistoryEvent(.feed(feed), babyName: babyName)
    case .diaper(let form):
      guard let stored = try context.object(DiaperChange.self, id: id) else {
        throw ScreenModelError.notFound(entity: DiaperChange.entityName, id: id)
      }
      let diaper = form.applied(to: stored)
      if try clashes(diaper) { throw ScreenModelError.invalid([.sameDiaperChangeExists]) }
      context.update(diaper)
      try saveOrRollback()
      return HistoryEvent(.diaper(diaper), babyName: babyName)
    }
  }

  /// Deletes the feed or diaper change being edited.
  public func delete() throws {
    switch draft {
    case .feed:
      guard let stored = try context.object(FeedSession.self, id: id) else {
        throw ScreenModelError.notFound(entity: FeedSession.entityName, id: id)
      }
      context.delete(stored)
    case .diaper:
      guard let stored = try context.object(DiaperChange.self, id: id) else {
        throw ScreenModelError.notFound(entity: DiaperChange.entityName, id: id)
      }
      context.delete(stored)
    }
    try saveOrRollback()
  }

  // The store would merge a clashing object into the stored one (its uniqueness constraints
  // make the importer idempotent); in a form that would silently replace another row, so say so.
  private func clashes(feedStartingAt start: Date, of feed: FeedSession) throws -> Bool {
    let profile = feed.profileID
    let uuid = feed.uuid
    let descriptor = FetchDescriptor<FeedSession>(
      predicate: #Predicate { $0.profileID == profile && $0.startTime == start && $0.uuid != uuid })
    return try context.fetchCount(descriptor) > 0
  }

  private func clashes(_ diaper: DiaperChange) throws -> Bool {
    let profile = diaper.profileID
    let time = diaper.timestamp
    let uuid = diaper.uuid
    let type = diaper.type
    let descriptor = FetchDescriptor<DiaperChange>(
      predicate: #Predicate { $0.profileID == profile && $0.timestamp == time && $0.uuid != uuid })
    return try context.fetch(descriptor).contains { $0.type == type }
  }

  private func currentName(of babyID: UUID?) throws -> String? {
    guard let babyID else { return nil }
    return try context.object(BabyProfile.self, id: babyID)?.name
  }

  private func saveOrRollback() throws {
    do {
      try context.save()
    } catch {
      context.rollback()
      throw error
    }
  }
}
