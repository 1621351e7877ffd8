import ArgumentParsing
import Foundation
import Testing

@testable import babydash

@Suite struct ArgumentValueTests {
  let now = Date(timeIntervalSince1970: 1_768_460_400)  // 2026-01-15T07:00:00Z

  @Test func timesWithAnOffsetWithoutOneAndClockTimes() throws {
    let berlin = TimeZone(identifier: "Europe/Berlin")!
    #expect(try TimeArgument.parse("2026-01-15T09:30:00+09:00", now: now, timeZone: berlin) == Date(timeIntervalSince1970: 1_768_437_000))
    #expect(try TimeArgument.parse("2026-01-15T09:30", now: now, timeZone: berlin) == Date(timeIntervalSince1970: 1_768_465_800))
    // 07:00Z is 08:00 in Berlin: 9:30 has not come yet today, and is not taken for yesterday's.
    #expect(throws: AheadOfNow.self) { try TimeArgument.parse("9:30", now: now, timeZone: berlin) }
    #expect(try TimeArgument.parse("7:30", now: now, timeZone: berlin) == Date(timeIntervalSince1970: 1_768_458_600))
    #expect(throws: ArgumentValueError.self) { try TimeArgument.parse("25:00", now: now, timeZone: berlin) }
    #expect(throws: ArgumentValueError.self) { try TimeArgument.parse("2026-02-30T10:00", now: now, timeZone: berlin) }
  }

  @Test func clockTimesAreTodayInTheZoneNotInUTC() throws {
    // 07:00Z is already 20:00 on the 15th in Auckland (UTC+13 in January).
    let auckland = TimeZone(identifier: "Pacific/Auckland")!
    #expect(try TimeArgument.parse("08:00", now: now, timeZone: auckland) == Date(timeIntervalSince1970: 1_768_417_200))
  }

  @Test func aClockTimeJustAfterMidnightIsRefusedNamingLastNight() throws {
    let utc = TimeZone(identifier: "UTC")!
    let twentyPastMidnight = Date(timeIntervalSince1970: 1_768_436_400)  // 2026-01-15T00:20:00Z
    #expect {
      try TimeArgument.parse("23:50", now: twentyPastMidnight, timeZone: utc)
    } throws: { error in
      (error as? AheadOfNow)?.reason == "23:50 today is in 23h 30m, and a time in the future is refused; for yesterday give 2026-01-14T23:50"
    }
    #expect(try TimeArgument.parse("00:10", now: twentyPastMidnight, timeZone: utc) == ISO8601Date("2026-01-15T00:10:00Z"))
  }

  @Test func aLocalTimeTheClocksSkipIsRefusedNamingTheTimesAroundIt() throws {
    let newYork = TimeZone(identifier: "America/New_York")!
    #expect {
      try TimeArgument.parse("2026-03-08T02:30", now: now, timeZone: newYork)
    } throws: { error in
      (error as? ArgumentValueError)?.reason
        == "2026-03-08T02:30 does not exist in America/New_York (the clocks jump forward there): give 01:59 or earlier, or 03:00 or later"
    }
    #expect(try TimeArgument.parse("2026-07-01T12:00", now: now, timeZone: newYork) == ISO8601Date("2026-07-01T16:00:00Z"))
  }

  @Test func aLocalTimeInTheRepeatedHourNeedsAnOffset() throws {
    let newYork = TimeZone(identifier: "America/New_York")!
    #expect {
      try TimeArgument.parse("2026-11-01T01:30", now: now, timeZone: newYork)
    } throws: { error in
      (error as? ArgumentValueError)?.reason
        == "2026-11-01T01:30 happens twice in America/New_York (the clocks go back): give the offset, 2026-11-01T01:30-04:00 for the first or 2026-11-01T01:30-05:00 for the second"
    }
    #expect(try TimeArgument.parse("2026-11-01T01:30-05:00", now: now, timeZone: newYork) == ISO8601Date("2026-11-01T06:30:00Z"))
  }

  @Test func durations() throws {
    #expect(try DurationArgument.parse("3h") == 10_800)
    #expect(try DurationArgument.parse("2h30m") == 9_000)
    #expect(try DurationArgument.parse("90m") == 5_400)
    // What the tool prints can be typed back.
    #expect(try DurationArgument.parse("2h 30m") == 9_000)
    #expect(try DurationArgument.parse("1d 2h") == 93_600)
    for bad in ["", "0", "90", "10800", "3x", "30m2h", "h", "-3h", "2h30"] {
      #expect(throws: ArgumentValueError.self, "\(bad)") { try DurationArgument.parse(bad) }
    }
  }

  @Test func amountsInEveryCommonSpelling() throws {
    for (text, value, unit) in [
      ("120ml", 120.0, "mL"), ("120 mL", 120, "mL"), ("4oz", 4, "fl oz"), ("4 fl oz", 4, "fl oz"),
      ("4.5 floz", 4.5, "fl oz"), ("4.5 fl. oz", 4.5, "fl oz"), ("0ml", 0, "mL"),
    ] {
      let amount = try AmountArgument.parse(text)
      #expect(amount.amountValue == value && amount.amountUnitSymbol == unit, "\(text)")
    }
  }

  @Test(arguments: [
    ("1,000ml", "a comma is ambiguous in an amount: write 1000ml (no thousands separator), or use a point for decimals, e.g. 4.5oz"),
    ("4,5 fl oz", "a comma is not read in an amount: for decimals use a point, 4.5 fl oz"),
  ])
  func anAmountWithACommaIsRefusedWithAHint(text: String, reason: String) throws {
    #expect {
      try AmountArgument.parse(text)
    } throws: { error in
      (error as? ArgumentValueError)?.reason == reason
    }
  }

  private func ISO8601Date(_ text: String) -> Date {
    let parts = text.dropLast().split(whereSeparator: { "-T:".contains($0) }).map { Int($0)! }
    var components = DateComponents(year: parts[0], month: parts[1], day: parts[2], hour: parts[3], minute: parts[4], second: parts[5])
    components.timeZone = TimeZone(identifier: "UTC")
    return Calendar(identifier: .gregorian).date(from: components)!
  }
}
