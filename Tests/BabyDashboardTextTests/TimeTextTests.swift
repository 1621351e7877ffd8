import BabyDashboardFixtures
import BabyDashboardText
import Foundation
import Testing

@Suite struct TimeTextTests {
  static let newYork = PreviewWorld(now: Date(timeIntervalSince1970: 1_773_153_000), timeZone: TimeZone(identifier: "America/New_York")!)
  static let berlin = PreviewWorld(now: Date(timeIntervalSince1970: 1_773_153_000), timeZone: TimeZone(identifier: "Europe/Berlin")!)

  static func utc(_ text: String) -> Date {
    ISO8601DateFormatter().date(from: text)!
  }

  @Test(arguments: [
    // Spring forward in New York, 2026-03-08: 01:59 EST is followed by 03:00 EDT.
    ("2026-03-08T06:59:00Z", "America/New_York", "01:59", "Sun 8 Mar 2026 01:59", -18_000),
    ("2026-03-08T07:00:00Z", "America/New_York", "03:00", "Sun 8 Mar 2026 03:00", -14_400),
    // Fall back, 2026-11-01: 01:30 happens twice, an hour apart.
    ("2026-11-01T05:30:00Z", "America/New_York", "01:30", "Sun 1 Nov 2026 01:30", -14_400),
    ("2026-11-01T06:30:00Z", "America/New_York", "01:30", "Sun 1 Nov 2026 01:30", -18_000),
    // Berlin moves on 2026-03-29 at 01:00 UTC.
    ("2026-03-29T00:59:00Z", "Europe/Berlin", "01:59", "Sun 29 Mar 2026 01:59", 3_600),
    ("2026-03-29T01:00:00Z", "Europe/Berlin", "03:00", "Sun 29 Mar 2026 03:00", 7_200),
    // Kiritimati is 14 hours ahead: already the next day.
    ("2026-03-10T14:30:00Z", "Pacific/Kiritimati", "04:30", "Wed 11 Mar 2026 04:30", 50_400),
    ("2026-03-10T14:30:00Z", "Asia/Kathmandu", "20:15", "Tue 10 Mar 2026 20:15", 20_700),
  ])
  func clockTimesFollowTheWorldsZoneAcrossDaylightSaving(
    instant: String, zone: String, clock: String, dateTime: String, offset: Int
  ) throws {
    let world = PreviewWorld(now: Self.utc(instant), timeZone: try #require(TimeZone(identifier: zone)))
    let date = Self.utc(instant)
    #expect(TimeText.clock(date, in: world) == clock)
    #expect(TimeText.dateTime(date, in: world) == dateTime)
    #expect(TimeText.parts(date, in: world).utcOffset == offset)
  }

  @Test func durationsAcrossAClockChangeCountRealTime() {
    let world = Self.newYork.at(Self.utc("2026-03-08T07:30:00Z"))  // 03:30 EDT
    let start = Self.utc("2026-03-08T06:30:00Z")  // 01:30 EST: one real hour earlier
    #expect(TimeText.clock(start, in: world) == "01:30")
    #expect(TimeText.relative(start, in: world) == "1h ago")
    #expect(TimeText.moment(start, in: world) == "01:30")
  }

  @Test func placingAtAWallClockTimeUsesTheDayOfTheWorld() {
    // 2 days before Tue 10 Mar is the 23-hour Sunday; 01:30 is before the change, 05:40 after.
    #expect(TimeText.dateTime(Self.newYork.date(daysAgo: 2, hour: 1, minute: 30), in: Self.newYork) == "Sun 8 Mar 2026 01:30")
    #expect(Self.newYork.date(daysAgo: 2, hour: 5, minute: 40) == Self.utc("2026-03-08T09:40:00Z"))
    #expect(Self.newYork.lastDaylightSavingTransition == Self.utc("2026-03-08T07:00:00Z"))
    #expect(Self.berlin.lastDaylightSavingTransition == Self.utc("2025-10-26T01:00:00Z"))
    let utc = PreviewWorld(now: Self.newYork.now, timeZone: TimeZone(identifier: "UTC")!)
    #expect(utc.lastDaylightSavingTransition == nil)
  }

  @Test func daysAndMonthsAreWrittenInEnglishByHand() {
    #expect(TimeText.day(year: 2026, month: 3, day: 8, in: Self.newYork) == "Sunday 8 March 2026")
    #expect(TimeText.day(year: 2025, month: 12, day: 31, in: Self.berlin) == "Wednesday 31 December 2025")
    #expect(TimeText.month(year: 2026, month: 2) == "February 2026")
    let world = Self.newYork
    #expect(TimeText.moment(world.ago(hours: 3), in: world) == "07:30")
    #expect(TimeText.moment(world.ago(hours: 12), in: world) == "yesterday 22:30")
    #expect(TimeText.moment(world.ago(days: 3), in: world) == "Sat 7 Mar 09:30")  // 72 real hours back crosses the clock change
    #expect(TimeText.moment(world.ago(days: 400), in: world) == "Mon 3 Feb 2025 09:30")
  }

  @Test(arguments: [
    (0.0, "<1m"), (59, "<1m"), (60, "1m"), (3_599, "59m"), (3_600, "1h"), (9_300, "2h 35m"),
    (86_400, "1d"), (90_000, "1d 1h"), (-5, "<1m"),
  ])
  func durationsRoundDownToTheMinute(seconds: Double, text: String) {
    #expect(TimeText.duration(seconds) == text)
  }

  @Test func relativeTimesSayWhichWay() {
    let world = Self.newYork
    #expect(TimeText.relative(world.ago(minutes: 25), in: world) == "25m ago")
    #expect(TimeText.relative(world.now.addingTimeInterval(9_300), in: world) == "in 2h 35m")
    #expect(TimeText.relative(world.now.addingTimeInterval(30), in: world) == "now")
    #expect(TimeText.utcOffset(-12_600) == "UTC-03:30")
    #expect(TimeText.utcOffset(0) == "UTC")
  }

  @Test(arguments: [
    (120.0, "120"), (4.5, "4.5"), (0.25, "0.25"), (0.1 + 0.2, "0.3"), (-5, "-5"), (3.005, "3.01"), (0, "0"),
  ])
  func amountsHaveNoLocaleAndNoTrailingZeros(value: Double, text: String) {
    #expect(AmountText.number(value) == text)
  }
}
