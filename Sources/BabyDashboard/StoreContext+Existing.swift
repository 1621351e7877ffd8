import Foundation
import PlainStore

extension StoreContext {
  /// The stored object of `type` with `id`, for an edit or a delete of something that must be
  /// there: the one "fetch or throw not found" of every writer. For an object that merged into
  /// another (the same feed logged on two phones), that one: the edit reaches it.
  ///
  /// - Throws: ``ScreenModelError/notFound(entity:id:)``, or `StoreError` from the read.
  func existing<E: Entity>(_ type: E.Type, id: UUID) throws -> E {
    if let object = try object(type, id: id) { return object }
    guard let survivor = try storedID(type, for: id), let object = try object(type, id: survivor) else {
      throw ScreenModelError.notFound(entity: E.entityName, id: id)
    }
    return object
  }
}
