import ArgumentParsing
import BabyDashboard
import BabyDashboardText
import Foundation
import PlainStore

/// Reads the TIME values people type: ISO 8601 with an offset, ISO 8601 without one (read in
/// the session's zone), or `HH:mm` (that time today, in the session's zone).
///
/// An `HH:mm` ahead of now (``TrackerRules/isAhead(_:of:)``), by any amount, is refused as
/// ``AheadOfNow``, naming both readings: at 17:47, `17:50` is as likely today's time mistyped as
/// yesterday's feed ("17:50 today is in 3m, …; for yesterday give 2026-11-25T17:50").
///
/// A local time the zone skips (a daylight-saving gap) is refused, naming the valid times around
/// it; one the zone repeats (the hour the clocks go back) is refused unless given with an offset.
struct TimeArgument: ExpressibleByArgument {
  /// The text as typed: what it means depends on the session's now and zone (``parse(_:now:timeZone:)``).
  var text: String

  init(argument: String) {
    text = argument
  }

  static func parse(_ text: String, now: Date, timeZone: TimeZone) throws -> Date {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    if let parts = ISO8601.parseParts(trimmed) {
      if let offset = parts.offsetSeconds { return parts.date(offsetSeconds: offset) }
      return try localDate(parts, in: timeZone, text: trimmed)
    }
    if let ago = try relative(trimmed) { return now.addingTimeInterval(-ago) }
    if let (hour, minute) = clockTime(trimmed) {
      let today = TimeText.civilDay(of: now, in: timeZone)
      let todayNumber = ISO8601.daysFromCivil(year: today.year, month: today.month, day: today.day)
      func reading(daysBack: Int64) throws -> Date {
        let day = ISO8601.civilFromDays(todayNumber - daysBack)
        // A day before the year 0000 has no four-digit text: no time the store could hold.
        guard let parts = ISO8601.parseParts(TimeText.isoDay(day) + "T" + TimeText.zeroPadded(hour) + ":" + TimeText.zeroPadded(minute)) else {
          throw ArgumentValueError(reason: "that day is outside the dates the store holds: \(ISO8601.storableRangeText)")
        }
        return try localDate(parts, in: timeZone, text: trimmed)
      }
      let date = try reading(daysBack: 0)
      guard TrackerRules.isAhead(date, of: now) else { return date }
      // Ahead of now by any amount: a slip of today's time or yesterday's feed, never guessed.
      let yesterday = TimeText.isoDay(ISO8601.civilFromDays(todayNumber - 1)) + "T" + trimmed.leftPadded()
      let other = ISO8601.parseParts(yesterday) == nil
        ? "yesterday is outside the dates the store holds: \(ISO8601.storableRangeText)" : "for yesterday give \(yesterday)"
      throw AheadOfNow(
        reason: "\(trimmed) today is in \(TimeText.duration(date.timeIntervalSince(now))), and a time in the future is refused; \(other)")
    }
    throw ArgumentValueError(
      reason: "expected a time like 2026-01-15T09:30:00+09:00, 2026-01-15T09:30, 09:30, -10m or 10m ago")
  }

  /// The instant a wall-clock time names in `zone`.
  ///
  /// - Throws: ``ArgumentValueError`` when the zone skips that time or shows it twice.
  static func localDate(_ parts: ISO8601.Parts, in zone: TimeZone, text: String) throws -> Date {
    let asUTC = parts.date(offsetSeconds: 0)
    let before = zone.secondsFromGMT(for: asUTC.addingTimeInterval(-86_400))
    let after = zone.secondsFromGMT(for: asUTC.addingTimeInterval(86_400))
    let candidates = Set([before, after]).sorted(by: >).map { parts.date(offsetSeconds: $0) }
      .filter { zone.secondsFromGMT(for: $0) == Int(asUTC.timeIntervalSince($0)) }
    let wall = TimeText.isoDay((parts.year, parts.month, parts.day)) + "T" + TimeText.zeroPadded(parts.hour) + ":" + TimeText.zeroPadded(parts.minute)
    switch candidates.count {
    case 1:
      return candidates[0]
    case 0:
      // The clocks jumped over it: name the last minute before the jump and the first after.
      let transition = zone.nextDaylightSavingTimeTransition(after: parts.date(offsetSeconds: before).addingTimeInterval(-86_400))
        ?? parts.date(offsetSeconds: before)
      let last = TimeText.clock(transition.addingTimeInterval(-60), in: zone)
      let first = TimeText.clock(transition, in: zone)
      throw ArgumentValueError(
        reason: "\(wall) does not exist in \(zone.identifier) (the clocks jump forward there): give \(last) or earlier, or \(first) or later")
    default:
      let (first, second) = (candidates[0], candidates[1])
      throw ArgumentValueError(
        reason: "\(wall) happens twice in \(zone.identifier) (the clocks go back): give the offset, "
          + "\(wall)\(TimeText.isoOffset(zone.secondsFromGMT(for: first))) for the first or "
          + "\(wall)\(TimeText.isoOffset(zone.secondsFromGMT(for: second))) for the second")
    }
  }

  /// How long ago a relative time says: `-10m`, `-1h30m`, `10m ago`, `10 min ago`, `2 hours ago`
  /// (a DURATION, ``DurationArgument``); nil when the text is not one.
  static func relative(_ text: String) throws -> TimeInterval? {
    let lowered = text.lowercased()
    let duration: String
    if lowered.hasPrefix("-") {
      duration = String(lowered.dropFirst())
    } else if lowered.hasSuffix(" ago") {
      duration = String(lowered.dropLast(4))
    } else {
      return nil
    }
    var words = duration
    for (long, short) in [("minutes", "m"), ("minute", "m"), ("mins", "m"), ("min", "m"), ("hours", "h"), ("hour", "h"), ("hrs", "h"), ("hr", "h")] {
      words = words.replacingOccurrences(of: long, with: short)
    }
    do {
      return try DurationArgument.parse(words)
    } catch {
      throw ArgumentValueError(reason: "expected a time ago like -10m, 10m ago or 1h30m ago")
    }
  }

  static func clockTime(_ text: String) -> (Int, Int)? {
    let fields = text.split(separator: ":", omittingEmptySubsequences: false)
    guard fields.count == 2, (1...2).contains(fields[0].count), fields[1].count == 2,
      fields.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
      let hour = Int(fields[0]), let minute = Int(fields[1]), hour < 24, minute < 60
    else { return nil }
    return (hour, minute)
  }
}

/// A clock time that today is ahead of now: refused data (a time in the future, exit 65), as an
/// ISO time in the future is, not a value that cannot be read.
struct AheadOfNow: Error {
  var reason: String
}

extension String {
  /// `7:05` as `07:05`: a clock time as ISO 8601 writes it.
  fileprivate func leftPadded() -> String { count == 4 ? "0" + self : self }
}
