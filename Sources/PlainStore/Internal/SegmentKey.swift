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
    return ISO8601.pad(year, 4) + "-" + ISO8601.pad(month, 2)
  }

  static func month(of date: Date) -> String { name(monthIndex: monthIndex(of: date)) }

  /// The month index of a segment name, nil for "all" or anything else.
  static func monthIndex(of name: String) -> Int? {
    let parts = name.split(separator: "-")
    guard parts.count == 2, let year = Int(parts[0]), let month = Int(parts[1]), (1...12).contains(month) else {
      return nil
    }
    return year * 12 + month - 1
  }

  /// Whether `name` is a segment name the store writes ("all" or "YYYY-MM"): names read from
  /// files become parts of file names, so anything else is refused as damage.
  static func isValid(_ name: String) -> Bool {
    name == all || monthIndex(of: name) != nil
  }

  /// Whether `file` is a segment file name the store writes, `<entity>.<segment>.<8 digits>.json`
  /// with a known entity: a name that could lead outside `segments/` never passes.
  static func isSegmentFileName(_ file: String, entities: Set<String>) -> Bool {
    let parts = file.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 4, parts[3] == "json", entities.contains(String(parts[0])), isValid(String(parts[1])),
      parts[2].count == 8, parts[2].allSatisfy({ $0.isASCII && $0.isNumber })
    else { return false }
    return true
  }
}
