/// The bytes that end a run of plain text in a JSON string: `"`, `\` and the control
/// characters, which the writer escapes and the parser stops at. Found eight bytes at a time:
/// segment files and id filters are hundreds of kilobytes of strings, read at every open and
/// written at every compaction.
enum JSONSpecialBytes {
  private static let ones: UInt64 = 0x0101_0101_0101_0101
  private static let highs: UInt64 = 0x8080_8080_8080_8080

  /// Whether any of the eight bytes of `word` is special. A word has a byte below 0x20 when
  /// subtracting 0x20 from every byte borrows into a byte whose top bit was clear, and a byte
  /// equal to `c` when its XOR with `c` is zero, found alike (the XOR leaves top bits as they
  /// were, so one mask of clear top bits serves all three). Exact for the word as a whole.
  @inline(__always) static func occur(in word: UInt64) -> Bool {
    let borrows = (word &- ones &* 0x20) | ((word ^ (ones &* 0x22)) &- ones) | ((word ^ (ones &* 0x5C)) &- ones)
    return borrows & ~word & highs != 0
  }

  @inline(__always) static func isSpecial(_ byte: UInt8) -> Bool {
    byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
  }

  /// Whether `bytes` holds a special byte.
  static func occur(in bytes: UnsafeRawBufferPointer) -> Bool {
    firstIndex(in: bytes, from: 0) != nil
  }

  /// The first special byte of `bytes` at or after `start`, or nil.
  @inline(__always) static func firstIndex(in bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
    guard let base = bytes.baseAddress else { return nil }
    var index = start
    while bytes.count - index >= 8 {
      if occur(in: (base + index).loadUnaligned(as: UInt64.self)) { break }
      index += 8
    }
    while index < bytes.count {
      if isSpecial(base.load(fromByteOffset: index, as: UInt8.self)) { return index }
      index += 1
    }
    return nil
  }
}
