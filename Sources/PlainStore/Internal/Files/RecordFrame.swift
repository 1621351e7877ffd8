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
    Array(([tag] + fields + [hex16(UInt64(body.count)), hex16(FNV1a.hash(body))]).joined(separator: " ").utf8) + [UInt8(ascii: "\n")]
  }

  /// A header line's parts after the tag (its bytes, without the tag and the newline): the
  /// record's own fields, and its body's length and checksum; nil unless it has `fieldCount`
  /// fields and a well-formed length and checksum. Read as bytes, not as text: a settle or a
  /// catch-up reads a header per record.
  static func parse(_ line: some Collection<UInt8>, fieldCount: Int) -> (fields: [String], length: Int, checksum: UInt64)? {
    let parts = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
    guard parts.count == fieldCount + 2, let length = hex16Value(parts[fieldCount]), length < maximumLength,
      let checksum = hex16Value(parts[fieldCount + 1])
    else { return nil }
    return (parts.prefix(fieldCount).map { String(decoding: $0, as: UTF8.self) }, Int(length), checksum)
  }

  /// Whether a body is the one its header describes.
  static func holds(_ body: Data, checksum: UInt64) -> Bool { FNV1a.hash(body) == checksum }
}
