import Foundation

/// Which object, of which entity: an id that is `Hashable` and `Identifiable` whatever the
/// entity, for a sheet's `item`, a list's selection or a dictionary of objects of several kinds
/// (the counterpart of Core Data's `NSManagedObjectID` and SwiftData's `PersistentIdentifier`).
///
/// ```swift
/// @State var editing: ObjectID?
/// .sheet(item: $editing) { id in EditView(id: id) }
/// editing = note.objectID
/// ```
public struct ObjectID: Hashable, Identifiable, Comparable, Codable, Sendable, CustomStringConvertible {
  /// The entity's name (``Entity/entityName``).
  public let entityName: String
  /// The object's identity within its entity.
  public let uuid: UUID

  public init<E: Entity>(_ type: E.Type, _ uuid: UUID) {
    self.init(entityName: E.entityName, uuid: uuid)
  }

  public init(entityName: String, uuid: UUID) {
    self.entityName = entityName
    self.uuid = uuid
  }

  public var id: ObjectID { self }

  /// Whether it names an object of `type`.
  public func isObject<E: Entity>(of type: E.Type) -> Bool { entityName == E.entityName }

  /// "Note 8E2C…": how messages name an object.
  public var description: String { "\(entityName) \(uuid.uuidString)" }

  /// By entity, then by id: a stable order for lists of mixed entities.
  public static func < (lhs: ObjectID, rhs: ObjectID) -> Bool {
    lhs.entityName != rhs.entityName ? lhs.entityName < rhs.entityName : uuidPrecedes(lhs.uuid, rhs.uuid)
  }
}

extension Entity {
  /// This object's ``ObjectID``.
  public var objectID: ObjectID { ObjectID(Self.self, id) }
}
