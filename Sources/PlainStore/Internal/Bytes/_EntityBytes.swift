/// An entity's own memory, lent for reading its stored properties of plain bytes at their
/// offsets (``StoredField``): the one place the engine reads a value's memory directly. A view
/// lives only inside the `reading` call that lends it.
struct _EntityBytes {
  private let base: UnsafeRawPointer

  private init(_ base: UnsafeRawPointer) { self.base = base }

  /// Whether values of `type` are plain bytes — no references, copied by copying their memory
  /// — asked of the type at run time.
  ///
  /// Not `BitwiseCopyable`: it is a marker protocol, with nothing at run time to ask, and
  /// `type is any BitwiseCopyable.Type` compiles and answers true even for `String`; nor could a
  /// constraint stand in, as Foundation's `UUID` and `Date` do not conform (and only Foundation
  /// may make them), and an app's enum key comes here as an opened `any Hashable.Type`.
  @inline(__always) static func holdsPlainBytes<V>(_ type: V.Type) -> Bool { _isPOD(type) }

  /// The `V` at `offset`, which must be where a stored property of type `V` lies, and `V` of
  /// plain bytes (`holdsPlainBytes`).
  @inline(__always) func load<V>(at offset: Int, as type: V.Type) -> V {
    base.load(fromByteOffset: offset, as: V.self)
  }

  /// Lends the memory of `value`.
  @inline(__always) static func reading<E, R>(_ value: E, _ body: (_EntityBytes) -> R) -> R {
    withUnsafeBytes(of: value) { body(_EntityBytes($0.baseAddress!)) }
  }

  /// Lends the memory of an object that must be an `E`, opened once, without casting it to
  /// one: several `StoredField`s can read from it.
  static func reading<E, R>(_ object: any Entity, as type: E.Type, _ body: (_EntityBytes) -> R) -> R {
    func opened<T: Entity>(_ value: T) -> R {
      precondition(T.self == E.self, "a \(T.self) where the engine expects a \(E.self)")
      return reading(value, body)
    }
    return opened(object)
  }
}
