import Foundation
import Testing

@testable import babydash

@Suite struct ArgumentValueTests {
  let now = Date(timeIntervalSince1970: 1_768_460_400)  // 2026-01-15T07:00:00Z

  @Test func timesWithAnOffsetWithoutOneAndClockTimes() throws {
    let berlin = TimeZone(identifier: "Europe/Berlin")!
    #expect(try TimeArgument.parse("2026-01-15T09:30:00+09:00", now: now, timeZone: berlin) == Date(timeIntervalSince1970: 1_768_437_000))
    #expect(try TimeArgument.parse("2026-01-15T09:30", now: now, timeZone: berlin) == Date(timeIntervalSince1970: 1_768_465_800))
    #expect(try TimeArgument.parse("9:30", now: now, timeZone: berlin) == Date(timeIntervalSince1970: 1_768_465_800))
    #expect(throws: ArgumentValueError.self) { try TimeArgument.parse("25:00", now: now, timeZone: berlin) }
    #expect(throws: ArgumentValueError.self) { try TimeArgument.parse("2026-02-30T10:00", now: now, timeZone: berlin) }
  }

  @Test func clockTimesAreTodayInTheZoneNotInUTC() throws {
    // 07:00Z is already 20:00 on the 15th in Auckland (UTC+13 in January).
    let auckland = TimeZone(identifier: "Pacific/Auckland")!
    #expect(try TimeArgument.parse("08:00", now: now, timeZone: auckland) == Date(timeIntervalSince1970: 1_768_417_200))
  }

  @Test func localTimesAcrossDaylightSavingChanges() throws {
    let newYork = TimeZone(identifier: "America/New_York")!
    // 2026-03-08 02:30 does not exist in New York: the offset from before the change applies.
    #expect(try TimeArgument.parse("2026-03-08T02:30", now: now, timeZone: newYork) == ISO8601Date("2026-03-08T07:30:00Z"))
    // 2026-11-01 01:30 happens twice: the earlier one (EDT) is meant.
    #expect(try TimeArgument.parse("2026-11-01T01:30", now: now, timeZone: newYork) == ISO8601Date("2026-11-01T05:30:00Z"))
    #expect(try TimeArgument.parse("2026-07-01T12:00", now: now, timeZone: newYork) == ISO8601Date("2026-07-01T16:00:00Z"))
  }

  @Test func durations() throws {
    #expect(try DurationArgument.parse("3h") == 10_800)
    #expect(try DurationArgument.parse("2h30m") == 9_000)
    #expect(try DurationArgument.parse("90m") == 5_400)
    #expect(try DurationArgument.parse("10800") == 10_800)
    for bad in ["", "0", "3x", "30m2h", "h", "-3h", "2h30"] {
      #expect(throws: ArgumentValueError.self, "\(bad)") { try DurationArgument.parse(bad) }
    }
  }

  @Test func amountsInEveryCommonSpelling() throws {
    for (text, value, unit) in [
      ("120ml", 120.0, "mL"), ("120 mL", 120, "mL"), ("4oz", 4, "fl oz"), ("4 fl oz", 4, "fl oz"),
      ("4.5 floz", 4.5, "fl oz"), ("4,5 fl. oz", 4.5, "fl oz"), ("0ml", 0, "mL"),
    ] {
      let amount = try AmountArgument.parse(text)
      #expect(amount.amountValue == value && amount.amountUnitSymbol == unit, "\(text)")
    }
  }

  private func ISO8601Date(_ text: String) -> Date {
    let parts = text.dropLast().split(whereSeparator: { "-T:".contains($0) }).map { Int($0)! }
    var components = DateComponents(year: parts[0], month: parts[1], day: parts[2], hour: parts[3], minute: parts[4], second: parts[5])
    components.timeZone = TimeZone(identifier: "UTC")
    return Calendar(identifier: .gregorian).date(from: components)!
  }
}
