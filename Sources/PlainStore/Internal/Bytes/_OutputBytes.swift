/// Bytes being written in place — a String being made, the JSON writer's buffer — at offsets
/// the writer has room for: the one place the engine writes through a pointer.
///
/// A commit names its change file, its segments and its records' months, and writes every
/// date's text, with `Digits` through one of these: building them by String interpolation cost
/// each a few thousand instructions.
struct _OutputBytes {
  @usableFromInline let base: UnsafeMutablePointer<UInt8>

  /// For the JSON codec's writer, which holds its buffer itself.
  @inline(__always) init(_ base: UnsafeMutablePointer<UInt8>) { self.base = base }

  @inline(__always) subscript(offset: Int) -> UInt8 {
    get { base[offset] }
    nonmutating set { base[offset] = newValue }
  }

  /// The bytes from `offset` on, as output of their own.
  @inline(__always) func advanced(by offset: Int) -> _OutputBytes { _OutputBytes(base + offset) }

  /// A String of at most `capacity` UTF-8 bytes, written by `body`, which returns how many it
  /// wrote (ASCII only: the digits and separators of names and dates).
  @inline(__always) static func string(capacity: Int, _ body: (_OutputBytes) -> Int) -> String {
    String(unsafeUninitializedCapacity: capacity) { body(_OutputBytes($0.baseAddress!)) }
  }

  /// Appends `count` bytes to `bytes`, written by `body`.
  @inline(__always) static func append(_ count: Int, to bytes: inout [UInt8], _ body: (_OutputBytes) -> Void) {
    let start = bytes.count
    bytes.append(contentsOf: repeatElement(0, count: count))
    bytes.withUnsafeMutableBufferPointer { body(_OutputBytes($0.baseAddress! + start)) }
  }
}
