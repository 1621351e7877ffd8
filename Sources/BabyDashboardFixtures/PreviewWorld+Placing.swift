import BabyDashboardText
import Foundation

/// Placing fixtures in a world: moments relative to its `now`, wall-clock times on its days.
extension PreviewWorld {
  /// `now` minus a duration.
  public func ago(days: Int = 0, hours: Int = 0, minutes: Int = 0) -> Date {
    now.addingTimeInterval(-TimeInterval(((days * 24 + hours) * 60 + minutes) * 60))
  }

  /// The wall-clock time `hour:minute` on the calendar day `daysAgo` days before today.
  ///
  /// A time that the clocks skip on that day (02:30 on a spring-forward day) moves forward by
  /// the gap, as Calendar does it.
  public func date(daysAgo: Int, hour: Int, minute: Int) -> Date {
    let today = calendar.startOfDay(for: now)
    let day = calendar.date(byAdding: .day, value: -daysAgo, to: today) ?? today
    let parts = calendar.dateComponents([.year, .month, .day], from: day)
    var wanted = DateComponents(year: parts.year, month: parts.month, day: parts.day, hour: hour, minute: minute)
    wanted.timeZone = timeZone
    return calendar.date(from: wanted) ?? day
  }

  /// The last daylight-saving transition in the year before `now`, if the zone has one.
  public var lastDaylightSavingTransition: Date? {
    var cursor = now.addingTimeInterval(-366 * 86_400)
    var last: Date?
    while let next = timeZone.nextDaylightSavingTimeTransition(after: cursor), next <= now {
      last = next
      cursor = next
    }
    return last
  }
}
