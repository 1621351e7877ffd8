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

  /// A header line's parts after the tag (its bytes, without the tag and the newline): the
  /// record's own fields, and its body's length and checksum; nil unless it has `fieldCount`
  /// fields and a well-formed length and checksum. Scans the bytes in place, not as text: a
  /// settle or a catch-up reads a header per record, and splitting a generic collection into an
  /// array of slices cost a catch-up 8k instructions a record.
  fileprivate static func parse(_ line: _ByteView, fieldCount: Int) -> (fields: [String], length: Int, checksum: UInt64)? {
    // The length and the checksum are the last 33 bytes: 16 hex, a space, 16 hex.
    let tail = 16 + 1 + 16
    guard line.count > tail, line[line.count - tail - 1] == UInt8(ascii: " "), line[line.count - 17] == UInt8(ascii: " "),
      let length = Digits.hex16Value(line.extracting((line.count - tail)..<(line.count - 17))), length < maximumLength,
      let checksum = Digits.hex16Value(line.extracting((line.count - 16)..<line.count))
    else { return nil }
    var fields: [String] = []
    fields.reserveCapacity(fieldCount)
    var start = 0
    let end = line.count - tail - 1
    for index in 0...end where index == end || line[index] == UInt8(ascii: " ") {
      fields.append(line.string(start..<index))
      start = index + 1
    }
    guard fields.count == fieldCount else { return nil }
    return (fields, Int(length), checksum)
  }
}

extension RecordFrame {
  /// One kind of framed record — its tag, the widths of its fields, whether a newline closes
  /// its body — and its reader, in the two modes its files need: `look` reads the record at an
  /// offset and says what stands there (the local log: a reader that stops at an unfinished
  /// tail and calls anything else damage), `salvage` every whole record, skipping damaged
  /// stretches (the journal: a record appended after a torn one follows the torn bytes).
  struct Layout: Sendable {
    let tag: [UInt8]
    let fieldWidths: [Int]
    let closedByNewline: Bool

    init(tag: String, fieldWidths: [Int], closedByNewline: Bool) {
      self.tag = Array(tag.utf8)
      self.fieldWidths = fieldWidths
      self.closedByNewline = closedByNewline
    }

    /// Every field has a fixed width: the header's length is known before it is read.
    var headerLength: Int { tag.count + fieldWidths.reduce(0) { $0 + 1 + $1 } + 1 + 16 + 1 + 16 + 1 }

    /// `<tag> <fields…> <length> <checksum>\n` for `body`.
    func header(fields: [String], body: some Collection<UInt8>) -> [UInt8] {
      // Byte by byte: joining Strings cost each commit 7k instructions a header, and a commit
      // writes two (its journal record's, its log record's).
      var line: [UInt8] = []
      line.reserveCapacity(headerLength)
      line.append(contentsOf: tag)
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

    /// The fields, length and checksum of a header line (`headerLength` bytes, its newline
    /// included); nil unless it is one of this layout.
    func parseHeader(_ line: some Sequence<UInt8>) -> (fields: [String], length: Int, checksum: UInt64)? {
      _ByteView.reading(line) { parseHeader($0) }
    }

    func parseHeader(_ line: _ByteView) -> (fields: [String], length: Int, checksum: UInt64)? {
      guard line.count == headerLength, line.starts(with: tag), line[tag.count] == UInt8(ascii: " "),
        line[headerLength - 1] == UInt8(ascii: "\n"),
        let parsed = RecordFrame.parse(line.extracting((tag.count + 1)..<(headerLength - 1)), fieldCount: fieldWidths.count),
        zip(parsed.fields, fieldWidths).allSatisfy({ $0.utf8.count == $1 })
      else { return nil }
      return parsed
    }

    /// What stands at `start`.
    enum Found {
      case record(fields: [String], body: Range<Int>, end: Int)
      /// The bytes end inside the record: a writer is still appending it, or was killed.
      case unfinished
      case noHeader
      /// A whole record whose body fails its checksum (or lacks its closing newline).
      case damaged(fields: [String])
    }

    func look(_ bytes: _ByteView, at start: Int) -> Found {
      guard bytes.count - start >= headerLength else { return .unfinished }
      guard let header = parseHeader(bytes.extracting(start..<(start + headerLength))) else { return .noHeader }
      let bodyStart = start + headerLength
      let end = bodyStart + header.length + (closedByNewline ? 1 : 0)
      guard end <= bytes.count else { return .unfinished }
      let body = bytes.extracting(bodyStart..<(bodyStart + header.length))
      guard !closedByNewline || bytes[end - 1] == UInt8(ascii: "\n"), FNV1a.hash(body) == header.checksum else {
        return .damaged(fields: header.fields)
      }
      return .record(fields: header.fields, body: bodyStart..<(bodyStart + header.length), end: end)
    }

    /// Every whole record, in order: where no whole record starts, reading goes on at the next
    /// tag — anywhere, not only at a line's start. Such text inside a damaged stretch is no
    /// record unless its length and its checksum hold.
    func salvage(_ bytes: _ByteView) -> [(fields: [String], body: Range<Int>)] {
      var records: [(fields: [String], body: Range<Int>)] = []
      var position = 0
      while let start = nextTag(in: bytes, from: position) {
        if case .record(let fields, let body, let end) = look(bytes, at: start) {
          records.append((fields, body))
          position = end
        } else {
          position = start + 1
        }
      }
      return records
    }

    private func nextTag(in bytes: _ByteView, from position: Int) -> Int? {
      var index = position
      while index + tag.count <= bytes.count {
        if bytes[index] == tag[0] && bytes.extracting(index..<(index + tag.count)).elementsEqual(tag) { return index }
        index += 1
      }
      return nil
    }
  }
}
