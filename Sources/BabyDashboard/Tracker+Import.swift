import Foundation
import PlainStore

extension Tracker {
  /// The objects of `objects` the store does not hold yet: none of their unique keys is taken.
  ///
  /// The keys are the schema's, the clash rule of every writer
  /// (``StoreContext/clashingObject(with:schema:)``), checked for many objects at once; an
  /// import uses it so that an object the app created with another id is not duplicated and a
  /// stored object is never overwritten.
  public func missing<E: Entity>(_ objects: [E]) throws -> [E] {
    let index = try context.uniqueKeyIndex(E.self, schema: schema)
    return objects.filter { !index.holds($0) }
  }

  /// Inserts objects made elsewhere (an import) in saves of `batchSize`, each saved or rolled
  /// back as one; objects come in write order (babies first, so every reference is stored by the
  /// time, or in the save, it is needed).
  ///
  /// - Parameter afterSave: told after each save how many objects of how many are written; it
  ///   may throw to stop the import between two saves.
  /// - Throws: `StoreError` from a save (that batch is rolled back; earlier ones stay), or what
  ///   `afterSave` throws.
  public func insert(
    _ objects: [any Entity], inSavesOf batchSize: Int, afterSave: (_ written: Int, _ total: Int) throws -> Void = { _, _ in }
  ) throws {
    var start = 0
    while start < objects.count {
      let end = min(start + max(1, batchSize), objects.count)
      for object in objects[start..<end] { insert(object) }
      try save()
      try afterSave(end, objects.count)
      start = end
    }
  }

  private func insert(_ object: any Entity) {
    func open<E: Entity>(_ value: E) { context.insert(value) }
    open(object)
  }
}
