import Foundation

extension ISO8601 {
  /// The first instant store files can hold: 0000-01-01T00:00:00Z.
  static let firstStorableInterval: TimeInterval =
    Double(daysFromCivil(year: 0, month: 1, day: 1) * 86_400 - referenceOffset)
  /// The instant after the last one store files can hold: 10000-01-01T00:00:00Z.
  static let endOfStorableIntervals: TimeInterval =
    Double(daysFromCivil(year: 10_000, month: 1, day: 1) * 86_400 - referenceOffset)

  /// The range `isStorable` accepts, as messages state it.
  public static let storableRangeText = "years 0000 to 9999 in UTC (from 0000-01-01T00:00:00Z, before 10000-01-01T00:00:00Z)"

  /// Whether a date can be written to a store file and read back: years 0000 to 9999 in UTC,
  /// the four-digit years of `YYYY-MM-DDTHH:MM:SSZ`.
  ///
  /// The one rule for dates: the store's encoder refuses what this refuses (so nothing is ever
  /// written that the reader would call damaged), and its decoder refuses the same dates when a
  /// file holds one in another form (`0000-01-01T00:00:00+01:00`). Check typed input with it too.
  public static func isStorable(_ date: Date) -> Bool {
    let interval = date.timeIntervalSinceReferenceDate
    // NaN fails both comparisons.
    return interval >= firstStorableInterval && interval < endOfStorableIntervals
  }

  /// A date for a message, whatever it is: ISO 8601 for a storable date, the expanded form
  /// (`+10000-01-01T13:00:00Z`, `-0001-12-31T00:00:00Z`) outside that range, and the raw
  /// interval when no calendar date fits (NaN, ±1e19 s).
  public static func describe(_ date: Date) -> String {
    if isStorable(date) { return format(date) }
    let interval = date.timeIntervalSinceReferenceDate
    // 1e15 s is some 30 million years: the calendar arithmetic below cannot overflow.
    guard interval.isFinite, abs(interval) < 1e15 else {
      return "\(interval) seconds from 2001-01-01T00:00:00Z"
    }
    let unixSeconds = Int64(interval.rounded(.down)) + referenceOffset
    let days = unixSeconds.floorDivided(by: 86_400)
    let secondOfDay = Int(unixSeconds - days * 86_400)
    let (year, month, day) = civilFromDays(days)
    return (year < 0 ? "-" : "+") + Digits.decimal(abs(year), width: 4) + "-" + Digits.decimal(month, width: 2) + "-" + Digits.decimal(day, width: 2) + "T"
      + Digits.decimal(secondOfDay / 3600, width: 2) + ":" + Digits.decimal(secondOfDay / 60 % 60, width: 2) + ":" + Digits.decimal(secondOfDay % 60, width: 2) + "Z"
  }
}
