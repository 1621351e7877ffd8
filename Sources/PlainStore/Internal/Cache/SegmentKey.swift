import Foundation

/// Names the segment an object belongs to: the UTC month of its segment key ("2026-01"), or
/// "all" for an entity kept in one segment.
enum SegmentKey {
  static let all = "all"

  /// Months counted from year 0, so that ranges of months are ranges of integers.
  ///
  /// The month of the date's text in store files (``ISO8601/format(_:)``): the whole seconds are
  /// taken before the shift to 1970, which would otherwise round a date a hair before a month's
  /// start into that month, and a fetch bounded by `< start` would have to read it too.
  static func monthIndex(of date: Date) -> Int {
    let seconds = Int64(date.timeIntervalSinceReferenceDate.rounded(.down)) + ISO8601.referenceOffset
    let (year, month, _) = ISO8601.civilFromDays(seconds.floorDivided(by: 86_400))
    return year * 12 + (month - 1)
  }

  static func name(monthIndex: Int) -> String {
    let year = monthIndex >= 0 ? monthIndex / 12 : (monthIndex - 11) / 12
    let month = monthIndex - year * 12 + 1
    guard (0...9999).contains(year) else { return Digits.decimal(year, width: 4) + "-" + Digits.decimal(month, width: 2) }
    // Written in place: a commit names the month of every object it writes.
    return _OutputBytes.string(capacity: 7) { text in
      Digits.write(UInt64(year), width: 4, to: text)
      text[4] = UInt8(ascii: "-")
      Digits.write(UInt64(month), width: 2, to: text, at: 5)
      return 7
    }
  }

  static func month(of date: Date) -> String { name(monthIndex: monthIndex(of: date)) }

  /// The month index of a segment name, nil for "all" or anything else.
  static func monthIndex(of name: String) -> Int? {
    // "YYYY-MM", as `name(monthIndex:)` writes every month of years 0–9999, read by its bytes:
    // every change a catch-up reads names its segment.
    if let index = _ByteView.reading(name, Self.fourDigitMonthIndex) { return index }
    let parts = name.split(separator: "-")
    guard parts.count == 2, let year = Int(parts[0]), let month = Int(parts[1]), (1...12).contains(month) else {
      return nil
    }
    return year * 12 + month - 1
  }

  /// The month index of "YYYY-MM" with a month 01–12; nil for any other text.
  private static func fourDigitMonthIndex(_ bytes: _ByteView) -> Int? {
    guard bytes.count == 7, bytes[4] == UInt8(ascii: "-"), let year = Digits.value(bytes.extracting(0..<4), width: 4),
      let month = Digits.value(bytes.extracting(5..<7), width: 2), (1...12).contains(month)
    else { return nil }
    return Int(year) * 12 + Int(month) - 1
  }

  /// Whether `name` is a segment name the store writes ("all" or "YYYY-MM"): names read from
  /// files become parts of file names, so anything else is refused as damage.
  static func isValid(_ name: String) -> Bool {
    name == all || monthIndex(of: name) != nil
  }

  /// Whether `file` is a segment file name the store writes, `<entity>.<segment>.<8 digits>.json`
  /// with a known entity: a name that could lead outside `segments/` never passes.
  static func isSegmentFileName(_ file: String, entities: Set<String>) -> Bool {
    // By UTF-8 bytes, not Characters: opening checks every name the manifest lists.
    let utf8 = file.utf8
    let dot = UInt8(ascii: ".")
    guard utf8.count > 15, utf8.suffix(5).elementsEqual(".json".utf8) else { return false }
    let stem = utf8.dropLast(5)  // <entity>.<segment>.<8 digits>
    guard stem.suffix(8).allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return false }
    let head = stem.dropLast(8)  // <entity>.<segment>.
    guard head.last == dot, let split = head.firstIndex(of: dot), split != head.startIndex else { return false }
    let entity = String(decoding: head[..<split], as: UTF8.self)
    let segment = String(decoding: head[head.index(after: split)...].dropLast(), as: UTF8.self)
    return entities.contains(entity) && isValid(segment)
  }
}
