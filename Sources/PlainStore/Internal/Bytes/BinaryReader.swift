import Foundation

/// The engine's binary fields (the cache's stamps file): numbers as LEB128, seven bits a byte
/// with the high bit saying that more follow, and raw runs of bytes. A reader never reads past
/// the end of its bytes: each read there is nil, and a count larger than the bytes left could
/// hold is refused before anything loops or reserves for it.
struct BinaryReader {
  let bytes: _ByteView
  private(set) var position = 0

  /// Reads `bytes` from `position` on (a fixed-width entry found by its index).
  init(_ bytes: _ByteView, at position: Int = 0) {
    self.bytes = bytes
    self.position = min(max(position, 0), bytes.count)
  }

  var isAtEnd: Bool { position == bytes.count }

  /// The next `count` bytes.
  mutating func bytes(_ count: Int) -> _ByteView? {
    guard count >= 0, count <= bytes.count - position else { return nil }
    defer { position += count }
    return bytes.extracting(position..<(position + count))
  }

  /// The text up to the next newline, which is passed over.
  mutating func line() -> String? {
    guard let end = bytes[position...].firstIndex(of: UInt8(ascii: "\n")), let text = self.bytes(end - position) else { return nil }
    position += 1
    return text.string(0..<text.count)
  }

  mutating func number() -> Int? {
    var value: UInt64 = 0
    for shift in stride(from: 0, to: 63, by: 7) {
      guard position < bytes.count else { return nil }
      let byte = bytes[position]
      position += 1
      value |= UInt64(byte & 0x7f) << UInt64(shift)
      if byte < 0x80 { return value <= UInt64(Int.max) ? Int(value) : nil }
    }
    return nil
  }

  /// A count of items of at least `size` bytes each: nil when the bytes left cannot hold them
  /// (a damaged count must not reserve, or loop, for billions).
  mutating func count(ofAtLeast size: Int) -> Int? {
    guard let count = number(), count <= (bytes.count - position) / size else { return nil }
    return count
  }

  /// An entry of `table`, by its index.
  mutating func index<T>(_ table: [T]) -> T? {
    guard let index = number(), index < table.count else { return nil }
    return table[index]
  }

  /// Eight bytes, least significant first.
  mutating func word() -> UInt64? { fixed(8) }

  /// Four bytes, least significant first: a field of a fixed-width entry.
  mutating func word32() -> Int? { fixed(4).map { Int($0) } }

  private mutating func fixed(_ width: Int) -> UInt64? {
    guard let b = bytes(width) else { return nil }
    var word: UInt64 = 0
    for index in (0..<width).reversed() { word = word << 8 | UInt64(b[index]) }
    return word
  }

  /// A UUID's sixteen bytes, in their order.
  mutating func uuid() -> UUID? {
    guard let b = bytes(16) else { return nil }
    return UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
  }
}

extension [UInt8] {
  /// What `BinaryReader.number()` reads.
  mutating func appendNumber(_ number: Int) {
    var rest = UInt64(number)
    while rest >= 0x80 {
      append(UInt8(rest & 0x7f) | 0x80)
      rest >>= 7
    }
    append(UInt8(rest))
  }

  /// What `BinaryReader.word()` reads.
  mutating func appendWord(_ word: UInt64) {
    for shift in stride(from: 0, to: 64, by: 8) { append(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
  }

  /// What `BinaryReader.word32()` reads: `number`, which must be below 2³².
  mutating func appendWord32(_ number: Int) {
    precondition(number >= 0 && number <= Int(UInt32.max), "a fixed-width field holds 32 bits")
    for shift in stride(from: 0, to: 32, by: 8) { append(UInt8(truncatingIfNeeded: number >> shift)) }
  }

  /// What `BinaryReader.uuid()` reads.
  mutating func appendUUID(_ id: UUID) {
    let u = id.uuid
    append(contentsOf: [u.0, u.1, u.2, u.3, u.4, u.5, u.6, u.7, u.8, u.9, u.10, u.11, u.12, u.13, u.14, u.15])
  }
}
