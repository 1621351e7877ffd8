import Foundation

/// A stored property of plain bytes (a date, an id, a number, or one of them optional), read
/// straight from an entity's memory at its offset.
///
/// The engine reads the segment key, the unique keys and the references of every object a save
/// writes, from code that runs unspecialized: there a key path's read costs about 500
/// instructions in the runtime, and a cast of `any Entity` to its type 300 more, several times
/// an object. Only a property stored in the entity's own memory (`MemoryLayout.offset(of:)`) of
/// a type without references qualifies; anything else keeps its key path.
struct StoredField<E, V>: @unchecked Sendable {  // an offset only
  let offset: Int

  init?(_ keyPath: KeyPath<E, V>) {
    guard _isPOD(V.self), let offset = MemoryLayout<E>.offset(of: keyPath) else { return nil }
    self.offset = offset
  }

  func read(_ object: E) -> V {
    withUnsafeBytes(of: object) { $0.load(fromByteOffset: offset, as: V.self) }
  }

  /// Reads the property of an object that must be an `E`, without casting it to one.
  func read(boxed object: any Entity) -> V {
    withStoredBytes(of: object, as: E.self) { read(at: $0) }
  }

  /// Reads the property from the bytes of an `E`.
  func read(at bytes: UnsafeRawPointer) -> V {
    bytes.load(fromByteOffset: offset, as: V.self)
  }
}

/// Lends the bytes of an object that must be an `E`, opened once, without casting it to one:
/// several `StoredField`s can read from them.
func withStoredBytes<E, R>(of object: any Entity, as type: E.Type, _ body: (UnsafeRawPointer) -> R) -> R {
  func opened<T: Entity>(_ value: T) -> R {
    precondition(T.self == E.self, "a \(T.self) where the engine expects a \(E.self)")
    return withUnsafeBytes(of: value) { body($0.baseAddress!) }
  }
  return opened(object)
}
