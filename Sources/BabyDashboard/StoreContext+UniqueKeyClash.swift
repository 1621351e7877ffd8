import Foundation
import PlainStore

extension StoreContext {
  /// The stored object, other than `object` itself, that shares one of its unique keys — the
  /// object a save would merge `object` into.
  ///
  /// The engine answers, from its own index (``StoreContext/objectSharingAUniqueKey(with:)``),
  /// so the rule is never restated: the engine merges such objects to keep imports idempotent,
  /// and a person editing one row must be told instead of silently replacing another.
  ///
  /// - Returns: the clashing object, or nil when a save would keep both.
  public func clashingObject<E: Entity>(with object: E, schema: Schema) throws -> E? {
    try objectSharingAUniqueKey(with: object)
  }

  /// The unique-key values of every stored object of `E`, to tell many objects at once (an
  /// import) whether a save would merge them into a stored one — the rule of
  /// ``clashingObject(with:schema:)``, with one fetch instead of one per object.
  public func uniqueKeyIndex<E: Entity>(_ type: E.Type, schema: Schema) throws -> UniqueKeyIndex<E> {
    guard let entity = schema.entity(named: E.entityName), !entity.uniqueKeyNames.isEmpty else {
      return UniqueKeyIndex(entity: nil, stored: [])
    }
    var index = UniqueKeyIndex<E>(entity: entity, stored: [])
    for object in try fetch(FetchDescriptor<E>()) { index.stored.formUnion(index.keys(of: object)) }
    return index
  }
}

/// The unique-key values of a set of stored objects: see ``StoreContext/uniqueKeyIndex(_:schema:)``.
public struct UniqueKeyIndex<E: Entity> {
  /// The entity's schema; nil when it has no unique keys.
  let entity: EntitySchema?
  /// One entry per stored object and key set.
  var stored: Set<NumberedKey>

  /// A key with the number of its key set, so that equal values of two key sets stay apart.
  struct NumberedKey: Hashable {
    var number: Int
    var key: UniqueKey
  }

  /// Whether a stored object shares one of `object`'s unique keys.
  public func holds(_ object: E) -> Bool {
    !stored.isDisjoint(with: keys(of: object))
  }

  func keys(of object: E) -> [NumberedKey] {
    entity.map { $0.uniqueKeys(of: object).enumerated().map { NumberedKey(number: $0, key: $1) } } ?? []
  }
}
