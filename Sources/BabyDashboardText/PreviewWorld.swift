import BabyDashboard
import Foundation

/// Everything a preview or a fixture may depend on besides its data: the moment "now", the
/// calendar and time zone that turn instants into days and clock times, the locale, and the id
/// sequence. Nothing in this module reads the machine's clock, zone or locale.
///
/// The catalog renders in ``standard``; the `babydash` tool builds one from the real clock and
/// zone to render live data with the same renderers:
///
/// ```swift
/// let world = PreviewWorld(now: Date(), timeZone: .current)
/// print(DashboardText.render(tiles: model.tiles, world: world), terminator: "")
/// ```
public struct PreviewWorld: Sendable, Hashable {
  /// The moment the preview shows.
  public var now: Date
  /// The zone of every day and clock time shown.
  public var timeZone: TimeZone
  /// A Gregorian calendar in ``timeZone`` and ``locale``.
  public var calendar: Calendar
  /// Recorded for completeness: the renderers write English with our own formatting, so the
  /// locale changes no byte (ICU's formats differ between versions, e.g. the space before "PM").
  public var locale: Locale
  /// Where scenarios take their fixed ids from.
  public var ids: IDSequence

  /// - Parameters:
  ///   - now: the moment shown; fixtures are placed relative to it.
  ///   - timeZone: the zone of days and clock times.
  public init(now: Date, timeZone: TimeZone, locale: Locale = Locale(identifier: "en_US_POSIX"), ids: IDSequence = IDSequence()) {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    calendar.locale = locale
    calendar.firstWeekday = 2
    calendar.minimumDaysInFirstWeek = 4
    self.now = now
    self.timeZone = timeZone
    self.calendar = calendar
    self.locale = locale
    self.ids = ids
  }

  /// The world of the committed previews: Tuesday 10 March 2026, 10:30 in New York, two days
  /// after the clocks went forward there (so the history holds a 23-hour day).
  public static let standard = PreviewWorld(
    now: Date(timeIntervalSince1970: 1_773_153_000),  // 2026-03-10T14:30:00Z
    timeZone: TimeZone(identifier: "America/New_York") ?? TimeZone(secondsFromGMT: -4 * 3600)!)

  /// The same world at another moment.
  public func at(_ moment: Date) -> PreviewWorld {
    var world = self
    world.now = moment
    return world
  }
}
