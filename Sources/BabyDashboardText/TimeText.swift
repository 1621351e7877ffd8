import Foundation

/// Dates, clock times and durations as the previews write them, built from calendar components
/// by our own code: no `DateFormatter`, no ICU pattern, so neither the host's zone and locale nor
/// the ICU version can change a byte. English, 24-hour clock.
///
/// ```swift
/// TimeText.clock(date, in: world)         // "07:05"
/// TimeText.dateTime(date, in: world)      // "Tue 10 Mar 2026 07:05"
/// TimeText.duration(9_300)                // "2h 35m"
/// TimeText.relative(date, in: world)      // "2h 35m ago" or "in 2h 35m"
/// ```
public enum TimeText {
  static let monthNames = [
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
  ]
  static let weekdayNames = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

  /// The wall-clock parts of `date` in the world's zone.
  public struct Parts: Sendable, Hashable {
    public var year: Int
    public var month: Int
    public var day: Int
    public var hour: Int
    public var minute: Int
    /// 1 = Sunday … 7 = Saturday, as Gregorian calendars number them.
    public var weekday: Int
    /// Seconds east of UTC at that instant.
    public var utcOffset: Int
  }

  /// The wall-clock parts of `date` in the world's calendar and zone.
  public static func parts(_ date: Date, in world: PreviewWorld) -> Parts {
    let c = world.calendar.dateComponents([.year, .month, .day, .hour, .minute, .weekday], from: date)
    return Parts(
      year: c.year ?? 0, month: c.month ?? 1, day: c.day ?? 1, hour: c.hour ?? 0, minute: c.minute ?? 0,
      weekday: c.weekday ?? 1, utcOffset: world.timeZone.secondsFromGMT(for: date))
  }

  /// "07:05".
  public static func clock(_ date: Date, in world: PreviewWorld) -> String {
    clock(date, in: world.timeZone)
  }

  /// Whether the clock shows `date`'s time twice that day (the hour the clocks go back), so that
  /// the clock alone cannot tell which of the two is meant.
  public static func isRepeated(_ date: Date, in world: PreviewWorld) -> Bool {
    let zone = world.timeZone
    let here = zone.secondsFromGMT(for: date)
    let around = Set([zone.secondsFromGMT(for: date.addingTimeInterval(-86_400)), zone.secondsFromGMT(for: date.addingTimeInterval(86_400))])
    return around.contains { other in
      other != here && zone.secondsFromGMT(for: date.addingTimeInterval(TimeInterval(here - other))) == other
    }
  }

  /// "Tue 10 Mar 2026 07:05".
  public static func dateTime(_ date: Date, in world: PreviewWorld) -> String {
    let p = parts(date, in: world)
    return "\(shortWeekday(p.weekday)) \(p.day) \(shortMonth(p.month)) \(p.year) \(pad(p.hour)):\(pad(p.minute))"
  }

  /// A moment near now, as short as it stays clear: "07:05" today, "yesterday 22:10",
  /// "Sun 8 Mar 22:10" this year, "Sun 8 Mar 2025 22:10" before.
  public static func moment(_ date: Date, in world: PreviewWorld) -> String {
    let p = parts(date, in: world)
    let today = parts(world.now, in: world)
    let time = pad(p.hour) + ":" + pad(p.minute)
    if p.year == today.year, p.month == today.month, p.day == today.day { return time }
    let yesterday = world.calendar.date(byAdding: .day, value: -1, to: world.calendar.startOfDay(for: world.now))
    if let yesterday, world.calendar.isDate(date, inSameDayAs: yesterday) { return "yesterday " + time }
    let tomorrow = world.calendar.date(byAdding: .day, value: 1, to: world.calendar.startOfDay(for: world.now))
    if let tomorrow, world.calendar.isDate(date, inSameDayAs: tomorrow) { return "tomorrow " + time }
    let year = p.year == today.year ? "" : " \(p.year)"
    return "\(shortWeekday(p.weekday)) \(p.day) \(shortMonth(p.month))\(year) \(time)"
  }

  /// "March 2026".
  public static func month(year: Int, month: Int) -> String {
    monthName(month) + " " + String(year)
  }

  /// "Sunday 8 March 2026".
  public static func day(year: Int, month: Int, day: Int, in world: PreviewWorld) -> String {
    var wanted = DateComponents(year: year, month: month, day: day, hour: 12)
    wanted.timeZone = world.timeZone
    let weekday = world.calendar.date(from: wanted).map { parts($0, in: world).weekday } ?? 1
    return "\(weekdayNames[weekday - 1]) \(day) \(monthName(month)) \(year)"
  }

  /// A length of time, rounded down to the minute: "<1m", "25m", "3h", "3h 20m", "2d 4h".
  public static func duration(_ seconds: TimeInterval) -> String {
    // Checked: a feed term of 1e300 seconds from a script or an old store must not trap.
    guard let minutes = Int(exactly: (max(0, seconds) / 60).rounded(.down)) else { return "∞" }
    if minutes < 1 { return "<1m" }
    let days = minutes / 1440
    let hours = (minutes % 1440) / 60
    let rest = minutes % 60
    if days > 0 { return hours > 0 ? "\(days)d \(hours)h" : "\(days)d" }
    if hours > 0 { return rest > 0 ? "\(hours)h \(rest)m" : "\(hours)h" }
    return "\(rest)m"
  }

  /// "2h 35m ago", "in 2h 35m", or "now" (under a minute either way); real elapsed time, so
  /// an interval across a daylight-saving change counts the hours that passed.
  public static func relative(_ date: Date, in world: PreviewWorld) -> String {
    let delta = date.timeIntervalSince(world.now)
    if abs(delta) < 60 { return "now" }
    return delta < 0 ? duration(-delta) + " ago" : "in " + duration(delta)
  }

  /// "UTC-05:00", "UTC+14:00", "UTC".
  public static func utcOffset(_ seconds: Int) -> String {
    seconds == 0 ? "UTC" : "UTC" + isoOffset(seconds)
  }

  /// "January" … "December".
  public static func monthName(_ month: Int) -> String {
    (1...12).contains(month) ? monthNames[month - 1] : "Month\(month)"
  }

  static func shortMonth(_ month: Int) -> String { String(monthName(month).prefix(3)) }

  static func shortWeekday(_ weekday: Int) -> String {
    (1...7).contains(weekday) ? String(weekdayNames[weekday - 1].prefix(3)) : "Day"
  }

  static func pad(_ value: Int) -> String { zeroPadded(value) }
}
