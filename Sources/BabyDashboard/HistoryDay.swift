import Foundation
import PlainStore

/// The events of one calendar day in the history, newest first.
public struct HistoryDay: Sendable, Hashable, Identifiable {
  public var year: Int
  public var month: Int
  public var day: Int
  /// The first instant of the day in the history's calendar and time zone (not always midnight
  /// on a daylight-saving day, and not always 24 hours before the next).
  public var start: Date
  public var events: [HistoryEvent]

  public init(year: Int, month: Int, day: Int, start: Date, events: [HistoryEvent]) {
    self.year = year
    self.month = month
    self.day = day
    self.start = start
    self.events = events
  }

  /// "2026-03-08".
  public var id: String { Digits.decimal(year, width: 4) + "-" + Digits.decimal(month, width: 2) + "-" + Digits.decimal(day, width: 2) }
}
