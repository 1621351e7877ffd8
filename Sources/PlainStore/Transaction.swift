import Foundation

/// One committed save: the unit of history and of change notifications.
public struct Transaction: Codable, Sendable, Equatable {
  /// Increases by one with every commit to the store, across all processes (and with every
  /// merge, including one that changed no object and so is no transaction: history may skip it).
  public var sequence: Int
  /// Who committed it (`StoreOptions.author` or the context's author): an app, an extension, an importer, a tool…
  public var author: String
  public var timestamp: Date
  /// Per entity name, the ids inserted, updated and deleted.
  public var changes: [String: EntityChanges]

  public init(sequence: Int, author: String, timestamp: Date, changes: [String: EntityChanges]) {
    self.sequence = sequence
    self.author = author
    self.timestamp = timestamp
    self.changes = changes
  }

  /// The token that reads history after this transaction.
  public var token: HistoryToken { HistoryToken(sequence: sequence) }
}

/// The ids one transaction touched in one entity, each list sorted.
public struct EntityChanges: Codable, Sendable, Equatable {
  public var inserted: [UUID]
  public var updated: [UUID]
  public var deleted: [UUID]

  public init(inserted: [UUID] = [], updated: [UUID] = [], deleted: [UUID] = []) {
    self.inserted = inserted
    self.updated = updated
    self.deleted = deleted
  }
}

/// A position in the store's history: "everything up to and including this sequence".
public struct HistoryToken: Codable, Sendable, Hashable, Comparable {
  public var sequence: Int
  public init(sequence: Int) { self.sequence = sequence }
  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.sequence < rhs.sequence }
}

/// Commits by another process, noticed on refresh, before a save, or by watching the folder:
/// the counterpart of Core Data's `NSPersistentStoreRemoteChange`.
public struct RemoteChange: Sendable, Equatable {
  public var transactions: [Transaction]
  /// True when the other commits were compacted away before this process read them: the state
  /// was reloaded whole, and `transactions` holds only those read before the reload (often none).
  public var reloaded: Bool
}

extension Notification.Name {
  /// Posted after a commit of another process is noticed; `userInfo["transactions"]` holds the
  /// `[Transaction]`, and the object is the ``StoreContainer``.
  public static let plainStoreRemoteChange = Notification.Name("PlainStoreRemoteChange")
  /// Posted after a save in this process; `userInfo["transactions"]` holds the `[Transaction]`.
  public static let plainStoreDidSave = Notification.Name("PlainStoreDidSave")
}
