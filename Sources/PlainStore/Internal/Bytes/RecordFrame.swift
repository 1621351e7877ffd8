import Foundation

/// The one framing of the records the store appends to its files — the local log's
/// transactions (`entry`), the journal's change files (`journal`): a header line of the tag, the
/// record's own fields, then its body's length and FNV-1a checksum, 16 hex digits each, and the
/// body after it. Fixed widths, so that a reader finds a header's end without parsing it, and a
/// torn or damaged record fails its length or its checksum.
enum RecordFrame {
  /// Far above any record, low enough that an offset past one never overflows: a damaged
  /// length is damage, not a crash.
  static let maximumLength = 1 << 40

  /// `<tag> <fields…> <length> <checksum>\n` for `body`.
  static func header(tag: String, fields: [String], body: UnsafeRawBufferPointer) -> [UInt8] {
    // Byte by byte: joining Strings cost each commit 7k instructions a header, and a commit
    // writes two (its journal record's, its log record's).
    var line: [UInt8] = []
    line.reserveCapacity(tag.utf8.count + fields.reduce(0) { $0 + $1.utf8.count + 1 } + 2 * 17 + 1)
    line.append(contentsOf: tag.utf8)
    for field in fields {
      line.append(UInt8(ascii: " "))
      line.append(contentsOf: field.utf8)
    }
    line.append(UInt8(ascii: " "))
    Digits.appendHex16(UInt64(body.count), to: &line)
    line.append(UInt8(ascii: " "))
    Digits.appendHex16(FNV1a.hash(body), to: &line)
    line.append(UInt8(ascii: "\n"))
    return line
  }

  /// A header line's parts after the tag (its bytes, without the tag and the newline): the
  /// record's own fields, and its body's length and checksum; nil unless it has `fieldCount`
  /// fields and a well-formed length and checksum. Read as bytes, not as text: a settle or a
  /// catch-up reads a header per record.
  static func parse(_ line: some Collection<UInt8>, fieldCount: Int) -> (fields: [String], length: Int, checksum: UInt64)? {
    line.withContiguousStorageIfAvailable { parse($0, fieldCount: fieldCount) } ?? Array(line).withUnsafeBufferPointer { parse($0, fieldCount: fieldCount) }
  }

  /// Scans the bytes in place: splitting a generic collection into an array of slices cost a
  /// catch-up 8k instructions a record.
  private static func parse(_ line: UnsafeBufferPointer<UInt8>, fieldCount: Int) -> (fields: [String], length: Int, checksum: UInt64)? {
    // The length and the checksum are the last 33 bytes: 16 hex, a space, 16 hex.
    let tail = 16 + 1 + 16
    guard line.count > tail, line[line.count - tail - 1] == UInt8(ascii: " "), line[line.count - 17] == UInt8(ascii: " "),
      let length = Digits.hex16Value(UnsafeBufferPointer(rebasing: line[(line.count - tail)..<(line.count - 17)])), length < maximumLength,
      let checksum = Digits.hex16Value(UnsafeBufferPointer(rebasing: line[(line.count - 16)...]))
    else { return nil }
    var fields: [String] = []
    fields.reserveCapacity(fieldCount)
    var start = 0
    let end = line.count - tail - 1
    for index in 0...end where index == end || line[index] == UInt8(ascii: " ") {
      fields.append(String(decoding: UnsafeBufferPointer(rebasing: line[start..<index]), as: UTF8.self))
      start = index + 1
    }
    guard fields.count == fieldCount else { return nil }
    return (fields, Int(length), checksum)
  }

  /// Whether a body is the one its header describes.
  static func holds(_ body: Data, checksum: UInt64) -> Bool { FNV1a.hash(body) == checksum }
}
