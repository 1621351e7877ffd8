import Foundation

/// Bytes lent where they lie — a `Data`'s, an array's, a String's UTF-8 — read by index without
/// a copy: the engine's one window onto bytes in memory, so that no reader outside this room
/// holds a pointer.
///
/// Every record header, change stamp, segment name and checksum is read through one: a settle
/// or a catch-up reads hundreds, and a `Data`'s or a generic collection's indexing cost several
/// times the reading itself. A view lives only inside the `reading` call that lends it.
struct _ByteView: RandomAccessCollection {
  @usableFromInline let base: UnsafeBufferPointer<UInt8>

  /// For the JSON codec, which holds its buffers itself.
  @inline(__always) init(_ base: UnsafeBufferPointer<UInt8>) { self.base = base }

  @inline(__always) init(_ raw: UnsafeRawBufferPointer) { base = raw.bindMemory(to: UInt8.self) }

  var startIndex: Int { 0 }
  var endIndex: Int { base.count }

  @inline(__always) subscript(position: Int) -> UInt8 { base[position] }

  /// A walk of the bytes of its own, not the standard `IndexingIterator`: in a build without
  /// optimisation (the tests'), that one asks the runtime for generic metadata at every byte,
  /// and hashing the change files each fold reads was a quarter of the differential test's
  /// time (perf, InMemoryDifferentialSyncTests). This one is a plain pointer step.
  struct Iterator: IteratorProtocol {
    @usableFromInline var position: UnsafePointer<UInt8>?
    @usableFromInline let end: UnsafePointer<UInt8>?

    @inline(__always) mutating func next() -> UInt8? {
      guard let current = position, current != end else { return nil }
      position = current + 1
      return current.pointee
    }
  }

  @inline(__always) func makeIterator() -> Iterator { Iterator(position: base.baseAddress, end: base.baseAddress.map { $0 + base.count }) }

  /// The bytes of `range` as a view of their own, indexed from 0.
  @inline(__always) func extracting(_ range: Range<Int>) -> _ByteView {
    _ByteView(UnsafeBufferPointer(rebasing: base[range]))
  }

  /// A copy of the bytes of `range`, to keep after the view is gone.
  func data(_ range: Range<Int>) -> Data { Data(UnsafeBufferPointer(rebasing: base[range])) }

  /// The bytes of `range` as UTF-8 text.
  func string(_ range: Range<Int>) -> String { String(decoding: UnsafeBufferPointer(rebasing: base[range]), as: UTF8.self) }

  /// A view is contiguous: a generic reader (`FNV1a.hash`, `Digits.value`) takes the fast road.
  func withContiguousStorageIfAvailable<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R? {
    try body(base)
  }

  static func reading<R>(_ data: Data, _ body: (_ByteView) throws -> R) rethrows -> R {
    try data.withUnsafeBytes { try body(_ByteView($0)) }
  }

  /// A String's UTF-8, in place when the String is native (almost always), copied otherwise.
  static func reading<R>(_ text: String, _ body: (_ByteView) throws -> R) rethrows -> R {
    var text = text
    return try text.withUTF8 { try body(_ByteView($0)) }
  }

  /// Any bytes: in place when they are contiguous, copied into an array otherwise.
  static func reading<R>(_ bytes: some Sequence<UInt8>, _ body: (_ByteView) throws -> R) rethrows -> R {
    if let result = try bytes.withContiguousStorageIfAvailable({ try body(_ByteView($0)) }) { return result }
    return try Array(bytes).withUnsafeBufferPointer { try body(_ByteView($0)) }
  }
}
