import Foundation

/// A stored property of plain bytes (a date, an id, a number, or one of them optional), read
/// straight from an entity's memory at its offset.
///
/// The engine reads the segment key, the unique keys and the references of every object a save
/// writes, from code that runs unspecialized: there a key path's read costs about 500
/// instructions in the runtime, and a cast of `any Entity` to its type 300 more, several times
/// an object. Only a property stored in the entity's own memory (`MemoryLayout.offset(of:)`) of
/// a type of plain bytes (``_EntityBytes/holdsPlainBytes(_:)``) qualifies; anything else keeps its
/// key path.
struct StoredField<E, V>: @unchecked Sendable {  // an offset only
  let offset: Int

  init?(_ keyPath: KeyPath<E, V>) {
    guard _EntityBytes.holdsPlainBytes(V.self), let offset = MemoryLayout<E>.offset(of: keyPath) else { return nil }
    self.offset = offset
  }

  func read(_ object: E) -> V {
    _EntityBytes.reading(object) { read(at: $0) }
  }

  /// Reads the property of an object that must be an `E`, without casting it to one.
  func read(boxed object: any Entity) -> V {
    _EntityBytes.reading(object, as: E.self) { read(at: $0) }
  }

  /// Reads the property from the memory of an `E`.
  func read(at bytes: _EntityBytes) -> V {
    bytes.load(at: offset, as: V.self)
  }
}
