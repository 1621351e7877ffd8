import Foundation
import PlainStore

/// What the app wrote to the new store since the cutover, handed back to its SwiftData store
/// when Phase B/C is turned off: one value, the objects and their ids, in the order to apply them.
///
/// Each object touched since the cutover appears once, as it is now (created or edited: the
/// legacy shape, which the SwiftData models have) or as deleted (its entity and id). Babies come
/// first, then feeds and diaper changes, then the deletions of feeds and diaper changes, then of
/// babies, so that every reference is there when it is applied. The app applies it through
/// SwiftData's own API (``BackoutApplier``), never by writing Core Data's tables, and then
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

  public init(changes: [Change], through: HistoryToken) {
    self.changes = changes
    self.through = through
  }

  /// How many objects it creates or edits, and deletes, in words: "2 to create or edit, 1 to delete".
  public var summary: String {
    let deleted = changes.filter { if case .deleted = $0 { return true } else { return false } }.count
    return "\(changes.count - deleted) to create or edit, \(deleted) to delete"
  }
}

/// The app's side of a backout: applies a ``BackoutHandback`` to the SwiftData store through
/// SwiftData's own `ModelContext` (so its history and CloudKit mirroring stay in step), in one
/// save. On Apple platforms a few lines over the app's models; on Linux the tests apply it to the
/// fixture store (``LegacyExport/applying(_:)``).
public protocol BackoutApplier {
  /// Applies every change, in order; throws if the SwiftData store did not take them all.
  func apply(_ handback: BackoutHandback) throws
}

extension LegacyExport {
  /// The export with `handback` applied, as the app's SwiftData side applies it: an object
  /// replaces the row with its id (or is added), a deletion removes the rows with its id. The
  /// reference for every ``BackoutApplier``.
  public func applying(_ handback: BackoutHandback) -> LegacyExport {
    var result = self
    for change in handback.changes {
      switch change {
      case .babyProfile(let id, let baby):
        if let index = result.babyProfiles.firstIndex(where: { $0.id == id }) { result.babyProfiles[index] = baby } else { result.babyProfiles.append(baby) }
      case .feedSession(let id, let feed):
        if let index = result.feedSessions.firstIndex(where: { LegacyIdentity.id(of: $0) == id }) {
          result.feedSessions[index] = feed
        } else {
          result.feedSessions.append(feed)
        }
      case .diaperChange(let id, let diaper):
        if let index = result.diaperChanges.firstIndex(where: { LegacyIdentity.id(of: $0) == id }) {
          result.diaperChanges[index] = diaper
        } else {
          result.diaperChanges.append(diaper)
        }
      case .deleted(let entity, let id):
        switch entity {
        case BabyProfile.entityName: result.babyProfiles.removeAll { $0.id == id }
        case FeedSession.entityName: result.feedSessions.removeAll { LegacyIdentity.id(of: $0) == id }
        default: result.diaperChanges.removeAll { LegacyIdentity.id(of: $0) == id }
        }
      }
    }
    return result
  }
}
