import Foundation
import PlainStore

/// Reads the TIME values people type: ISO 8601 with an offset, ISO 8601 without one (read in
/// the session's zone), or `HH:mm` (that time today, in the session's zone).
enum TimeArgument {
  static func parse(_ text: String, now: Date, timeZone: TimeZone) throws -> Date {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    if let parts = ISO8601.parseParts(trimmed) {
      if let offset = parts.offsetSeconds { return parts.date(offsetSeconds: offset) }
      return localDate(parts, in: timeZone)
    }
    if let (hour, minute) = clockTime(trimmed) {
      let today = civilDay(of: now, in: timeZone)
      let text = LocalTimeText.dayText(today) + "T" + pad(hour) + ":" + pad(minute)
      return localDate(ISO8601.parseParts(text)!, in: timeZone)
    }
    throw ArgumentValueError(
      reason: "expected a time like 2026-01-15T09:30:00+09:00, 2026-01-15T09:30 or 09:30")
  }

  /// The instant a wall-clock time names in `zone`. In a daylight-saving gap the offset from
  /// before the change applies; in an overlap, the earlier of the two instants.
  static func localDate(_ parts: ISO8601.Parts, in zone: TimeZone) -> Date {
    let asUTC = parts.date(offsetSeconds: 0)
    let before = zone.secondsFromGMT(for: asUTC.addingTimeInterval(-86_400))
    let after = zone.secondsFromGMT(for: asUTC.addingTimeInterval(86_400))
    let candidates = Set([before, after]).map { parts.date(offsetSeconds: $0) }
      .filter { zone.secondsFromGMT(for: $0) == Int(asUTC.timeIntervalSince($0)) }
    return candidates.min() ?? parts.date(offsetSeconds: before)
  }

  /// The calendar day of `date` in `zone`.
  static func civilDay(of date: Date, in zone: TimeZone) -> (year: Int, month: Int, day: Int) {
    let local = Int64((date.timeIntervalSince1970 + Double(zone.secondsFromGMT(for: date))).rounded(.down))
    let days = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
    return ISO8601.civilFromDays(days)
  }

  private static func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

  private static func clockTime(_ text: String) -> (Int, Int)? {
    let fields = text.split(separator: ":", omittingEmptySubsequences: false)
    guard fields.count == 2, (1...2).contains(fields[0].count), fields[1].count == 2,
      fields.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
      let hour = Int(fields[0]), let minute = Int(fields[1]), hour < 24, minute < 60
    else { return nil }
    return (hour, minute)
  }
}
