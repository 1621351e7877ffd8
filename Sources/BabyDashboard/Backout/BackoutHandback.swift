import Foundation
import PlainStore

/// What the app wrote to the new store since the cutover, handed back to its SwiftData store
/// when Phase B/C is turned off: one value, the objects and their ids, in the order to apply them.
///
/// Each object touched since the cutover appears once, as it is now (created or edited: the
/// legacy shape, which the SwiftData models have) or as deleted (its entity and id). Babies come
/// first, then feeds and diaper changes, then the deletions of feeds and diaper changes, then of
/// babies, so that every reference is there when it is applied. The app applies it through
/// SwiftData's own API (a ``BackoutStore``), never by writing Core Data's tables, and then
/// confirms (``MigrationBackout/confirm(_:in:keyValueStore:)``).
///
/// A SwiftData row is the object with an id when its id is that id (a baby) or when
/// ``LegacyIdentity`` derives that id from its key (a feed, a diaper change), as the import did.
public struct BackoutHandback: Sendable, Equatable {
  /// One object to apply.
  public enum Change: Sendable, Equatable {
    case babyProfile(id: UUID, LegacyBabyProfile)
    case feedSession(id: UUID, LegacyFeedSession)
    case diaperChange(id: UUID, LegacyDiaperChange)
    /// Deleted since the cutover: the entity's name (`FeedSession`) and the id.
    case deleted(entity: String, id: UUID)
  }

  /// The changes, in the order to apply them.
  public var changes: [Change]
  /// The history this value covers: what confirming it marks as handed back.
  public var through: HistoryToken
  /// The SwiftData row of a change's id, where it is found by another id (``BackoutRowIDs``).
  public var rowIDs: [UUID: UUID]
  /// False when the history since the cutover was gone (the cache rebuilt): every object is
  /// handed back as it is now, and what was deleted since cannot be told.
  public var deletionsKnown: Bool

  public init(changes: [Change], through: HistoryToken, rowIDs: [UUID: UUID] = [:], deletionsKnown: Bool = true) {
    self.changes = changes
    self.through = through
    self.rowIDs = rowIDs
    self.deletionsKnown = deletionsKnown
  }

  /// The id the SwiftData row of `id` is found by (``LegacyRecord/backoutID``).
  public func rowID(of id: UUID) -> UUID { rowIDs[id] ?? id }

  /// How many objects it creates or edits, and deletes, in words: "2 to create or edit, 1 to delete".
  public var summary: String {
    let deleted = changes.filter { if case .deleted = $0 { return true } else { return false } }.count
    return "\(changes.count - deleted) to create or edit, \(deleted) to delete"
      + (deletionsKnown ? "" : " (the history since the cutover was lost: every object, and no deletion)")
  }
}
