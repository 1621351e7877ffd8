import Foundation
import PlainStore

/// The events of one calendar month in the history, by day, newest first.
public struct HistoryMonth: Sendable, Hashable, Identifiable {
  public var year: Int
  public var month: Int
  /// The first instant of the month in the history's calendar and time zone.
  public var start: Date
  /// The days that have events, newest first.
  public var days: [HistoryDay]

  public init(year: Int, month: Int, start: Date, days: [HistoryDay]) {
    self.year = year
    self.month = month
    self.start = start
    self.days = days
  }

  /// "2026-03".
  public var id: String { Digits.decimal(year, width: 4) + "-" + Digits.decimal(month, width: 2) }

  /// All events of the month, newest first.
  public var events: [HistoryEvent] { days.flatMap(\.events) }

  /// Groups events by month, then by day, as `calendar` (with its time zone) counts them.
  ///
  /// The events must be newest first (``HistoryEvent/newestFirst(_:_:)``); months and days come
  /// out newest first, and each day keeps the events' order. Days are taken from calendar
  /// components, so a day with a daylight-saving change is one day of 23 or 25 hours, and an
  /// event just after midnight in the calendar's zone belongs to that new day whatever the UTC
  /// date.
  public static func group(_ events: [HistoryEvent], calendar: Calendar) -> [HistoryMonth] {
    var months: [HistoryMonth] = []
    for event in events {
      let parts = calendar.dateComponents([.year, .month, .day], from: event.date)
      let year = parts.year ?? 0
      let month = parts.month ?? 0
      let day = parts.day ?? 0
      if months.last?.year != year || months.last?.month != month {
        let start = calendar.date(from: DateComponents(year: year, month: month, day: 1)) ?? event.date
        months.append(HistoryMonth(year: year, month: month, start: start, days: []))
      }
      if months[months.count - 1].days.last?.day != day {
        months[months.count - 1].days.append(
          HistoryDay(year: year, month: month, day: day, start: calendar.startOfDay(for: event.date), events: []))
      }
      let last = months[months.count - 1].days.count - 1
      months[months.count - 1].days[last].events.append(event)
    }
    return months
  }
}
