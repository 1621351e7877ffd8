import Foundation

/// The app's SwiftData store as a backout writes to it: rows found by the id the new store knows
/// them by (``LegacyRecord/backoutID``), set or removed through the app's own models, then saved
/// at once. On Apple platforms it is a `ModelContext` (`SwiftDataBackoutStore`), so that
/// SwiftData's history and CloudKit mirroring stay in step; ``LegacyExportBackoutStore``, which
/// behaves as a model context does, is what the tests apply to the fixture store.
///
/// What applying means is decided once, by ``apply(_:)``; a store only finds, sets and removes.
public protocol BackoutStore {
  /// Sets the row whose ``LegacyRecord/backoutID`` is `id` to `record`, adding one when none is;
  /// other rows of that id go (SwiftData has no unique constraint, and the import made them one).
  mutating func put(_ record: LegacyBabyProfile, id: UUID) throws
  mutating func put(_ record: LegacyFeedSession, id: UUID) throws
  mutating func put(_ record: LegacyDiaperChange, id: UUID) throws
  /// Removes every row of the entity (`FeedSession`) whose id is `id`: SwiftData has no unique
  /// constraint, so a store may hold two.
  mutating func remove(entity: String, id: UUID) throws
  /// Saves what was put and removed since the last save, all of it or nothing.
  mutating func save() throws
  /// Forgets what was put and removed since the last save.
  mutating func rollback()
}

extension BackoutStore {
  /// Applies every change of `handback`, in its order, in one save; when any step fails, rolls
  /// back and throws, leaving the store as it was. Then the app confirms
  /// (``MigrationBackout/confirm(_:in:keyValueStore:)``).
  public mutating func apply(_ handback: BackoutHandback) throws {
    do {
      for change in handback.changes {
        switch change {
        case .babyProfile(let id, let baby): try put(baby, id: handback.rowID(of: id))
        case .feedSession(let id, let feed): try put(feed, id: handback.rowID(of: id))
        case .diaperChange(let id, let diaper): try put(diaper, id: handback.rowID(of: id))
        case .deleted(let entity, let id): try remove(entity: entity, id: handback.rowID(of: id))
        }
      }
      try save()
    } catch {
      rollback()
      throw error
    }
  }
}

/// A SwiftData record as the new store identifies it.
public protocol LegacyRecord {
  /// The id of this record in the new store: a baby's own; a feed's and a diaper change's
  /// derived from its unique key (``LegacyIdentity``), as the import gave it.
  var backoutID: UUID { get }
}

extension LegacyBabyProfile: LegacyRecord {
  public var backoutID: UUID { id }
}

extension LegacyFeedSession: LegacyRecord {
  public var backoutID: UUID { LegacyIdentity.id(of: self) }
}

extension LegacyDiaperChange: LegacyRecord {
  public var backoutID: UUID { LegacyIdentity.id(of: self) }
}
