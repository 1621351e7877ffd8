import Foundation

/// What a ``StoreContext/save()`` did: the transaction it committed, and which stored object
/// each inserted object became.
///
/// An insert whose unique key (or id) matches a stored object merges into it rather than
/// duplicating it, so the inserted id may not exist after the save: ask ``id(of:)`` for the
/// object that holds its values.
///
/// ```swift
/// let inserted = Note(uuid: UUID(), notebookID: work, createdAt: nine)
/// context.insert(inserted)
/// let saved = try context.save()
/// let noteID = saved.id(of: Note.self, inserted.uuid)  // the stored note of 9:00
/// ```
public struct SaveResult: Sendable, Equatable {
  /// The committed transaction; nil when the save changed nothing (the store already held
  /// every value, as when an insert merges into an identical stored object).
  public var transaction: Transaction?
  /// Inserted or updated objects that merged into another stored object on a uniqueness
  /// constraint: their id → the survivor's. An object that had merged into another before
  /// (see ``StoreContext/storedID(_:for:)``) is here too: its edit or delete reached the
  /// survivor.
  public var merged: [ObjectID: ObjectID]

  public init(transaction: Transaction?, merged: [ObjectID: ObjectID] = [:]) {
    self.transaction = transaction
    self.merged = merged
  }

  /// The stored object that holds the values of the object saved as `object`: itself unless it
  /// merged into another.
  public func id(of object: ObjectID) -> ObjectID { merged[object] ?? object }

  /// The id of the stored object that holds the values saved as `type` `id`.
  public func id<E: Entity>(of type: E.Type, _ id: UUID) -> UUID { self.id(of: ObjectID(type, id)).uuid }
}
