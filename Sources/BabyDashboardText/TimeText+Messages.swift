import Foundation
import PlainStore

/// Times as the tool's messages echo them, in the TIME syntax it reads back: `09:30` today,
/// `2026-01-14 09:30` another day, in a zone. Computed from the zone's offset, never from the
/// host's locale, with the same digits as every screen.
extension TimeText {
  /// `09:30` when `date` falls on `now`'s day in `zone`, else `2026-01-14 09:30`.
  public static func typable(_ date: Date, now: Date, in zone: TimeZone) -> String {
    let day = civilDay(of: date, in: zone)
    let clock = clock(date, in: zone)
    guard day != civilDay(of: now, in: zone) else { return clock }
    return isoDay(day) + " " + clock
  }

  /// `2026-01-14`.
  public static func isoDay(_ day: (year: Int, month: Int, day: Int)) -> String {
    zeroPadded(day.year, width: 4) + "-" + zeroPadded(day.month) + "-" + zeroPadded(day.day)
  }

  /// `09:30`: the wall-clock time of `date` in `zone`.
  public static func clock(_ date: Date, in zone: TimeZone) -> String {
    let local = Int64((date.timeIntervalSince1970 + Double(zone.secondsFromGMT(for: date))).rounded(.down))
    let seconds = ((local % 86_400) + 86_400) % 86_400
    return zeroPadded(Int(seconds / 3600)) + ":" + zeroPadded(Int(seconds % 3600 / 60))
  }

  /// The calendar day of `date` in `zone`.
  public static func civilDay(of date: Date, in zone: TimeZone) -> (year: Int, month: Int, day: Int) {
    let local = Int64((date.timeIntervalSince1970 + Double(zone.secondsFromGMT(for: date))).rounded(.down))
    let days = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
    return ISO8601.civilFromDays(days)
  }

  /// `+09:00`, `-04:00`: an offset as ISO 8601 writes it (``utcOffset(_:)`` is the screens').
  public static func isoOffset(_ seconds: Int) -> String {
    let minutes = abs(seconds) / 60
    return (seconds < 0 ? "-" : "+") + zeroPadded(minutes / 60) + ":" + zeroPadded(minutes % 60)
  }

  /// `7` → `07`, `-3` → `-03`, `2026` (width 4) → `2026`: the one zero-padding of every time.
  public static func zeroPadded(_ value: Int, width: Int = 2) -> String { Digits.decimal(value, width: width) }
}
