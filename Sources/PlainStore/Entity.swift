import Foundation

/// A value stored by PlainStore: a `Codable` struct with a stable identity.
///
/// Entities are values, not references: a fetched copy changed in place changes nothing until
/// it is handed back, so change stored objects with ``StoreContext/edit(_:id:_:)``, which
/// records the change itself (or hand a copy back with ``StoreContext/update(_:)``). A save
/// changes only the properties you changed (see ``StoreContext/save()``); ``objectID`` names
/// an object among several entities.
///
/// ```swift
/// struct Note: Entity {
///   static let entityName = "Note"
///   var id: UUID
///   var text: String
/// }
/// ```
public protocol Entity: Codable, Sendable, Equatable {
  /// The name of the entity in files and transactions; never change it once data exists.
  static var entityName: String { get }
  /// The JSON key of the identity property (default `"id"`; an entity whose JSON says `"uuid"` returns that).
  static var identityKey: String { get }
  /// The identity: unique within the entity, never reused.
  var id: UUID { get }
}

extension Entity {
  public static var identityKey: String { "id" }
}
