import Foundation
import BabyDashboardPreviews
import PlainStore

/// Times as the tool prints them in messages: `09:30` today, `2026-01-14 09:30` another day,
/// in the session's zone. Computed from the zone's offset, never from the host's locale.
enum LocalTimeText {
  static func format(_ date: Date, now: Date, in zone: TimeZone) -> String {
    let day = TimeArgument.civilDay(of: date, in: zone)
    let clock = clockText(date, in: zone)
    guard day != TimeArgument.civilDay(of: now, in: zone) else { return clock }
    return dayText(day) + " " + clock
  }

  static func dayText(_ day: (year: Int, month: Int, day: Int)) -> String {
    pad(day.year, 4) + "-" + pad(day.month, 2) + "-" + pad(day.day, 2)
  }

  static func clockText(_ date: Date, in zone: TimeZone) -> String {
    let local = Int64((date.timeIntervalSince1970 + Double(zone.secondsFromGMT(for: date))).rounded(.down))
    let seconds = ((local % 86_400) + 86_400) % 86_400
    return pad(Int(seconds / 3600), 2) + ":" + pad(Int(seconds % 3600 / 60), 2)
  }

  /// `3h`, `2h30m`, `45m`: how the tool shows a feed term.
  static func duration(_ interval: TimeInterval) -> String {
    let minutes = Int((interval / 60).rounded())
    let (hours, rest) = (minutes / 60, minutes % 60)
    if hours == 0 { return "\(rest)m" }
    return rest == 0 ? "\(hours)h" : "\(hours)h\(pad(rest, 2))m"
  }

  /// `120 mL`, `4.5 fl oz`: as every screen shows an amount (one format, in AmountText).
  static func amount(_ value: Double, _ unit: String) -> String {
    AmountText.format(value, unitSymbol: unit)
  }

  private static func pad(_ value: Int, _ width: Int) -> String {
    let digits = String(value)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
  }
}
