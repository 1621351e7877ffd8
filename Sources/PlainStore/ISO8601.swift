import Foundation

/// ISO 8601 dates written and read by our own code: exact, deterministic, and free of ICU and of
/// the host's time zone and locale.
///
/// `format` writes UTC with as many fraction digits as the date needs to come back bit for bit
/// (Foundation's `.iso8601` strategy drops fractions; ISO8601DateFormatter keeps milliseconds).
public enum ISO8601 {
  /// Seconds between 1970-01-01 and 2001-01-01, Foundation's reference date.
  static let referenceOffset: Int64 = 978_307_200

  /// `2026-01-15T09:30:00Z`, or `2026-01-15T09:30:00.25Z`: the shortest text that parses back to
  /// exactly this date.
  ///
  /// A date outside `isStorable` has no such text: it gets `describe`'s form, which `parse`
  /// refuses, rather than a trap.
  public static func format(_ date: Date) -> String {
    guard isStorable(date) else { return describe(date) }
    let interval = date.timeIntervalSinceReferenceDate
    let whole = interval.rounded(.down)
    let fraction = interval - whole  // exact: both are doubles of the same magnitude
    var text = civilText(unixSeconds: Int64(whole) + referenceOffset)
    if fraction > 0 { text += "." + fractionDigits(fraction) }
    return text + "Z"
  }

  /// `2026-01-15T09:30:00.123457Z`: UTC rounded to the nearest microsecond, with only the
  /// fraction digits that carry it (none for a whole second, at most six): what a person reads
  /// and a backup keeps, where ``format(_:)``'s exact double needs up to seventeen.
  /// A date outside `isStorable` gets `describe`'s form.
  public static func formatMicroseconds(_ date: Date) -> String {
    guard isStorable(date) else { return describe(date) }
    let interval = date.timeIntervalSinceReferenceDate
    var whole = interval.rounded(.down)
    var micros = Int(((interval - whole) * 1_000_000).rounded())
    if micros == 1_000_000 { (whole, micros) = (whole + 1, 0) }
    var text = civilText(unixSeconds: Int64(whole) + referenceOffset)
    if micros > 0 {
      var digits = Digits.decimal(micros, width: 6)
      while digits.hasSuffix("0") { digits.removeLast() }
      text += "." + digits
    }
    return text + "Z"
  }

  /// `2026-01-15T09:30:00.000Z`: UTC with milliseconds, rounded to the nearest one.
  /// A date outside `isStorable` gets `describe`'s form.
  public static func formatMilliseconds(_ date: Date) -> String {
    guard isStorable(date) else { return describe(date) }
    let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
    let seconds = milliseconds.floorDivided(by: 1000)
    let rest = milliseconds - seconds * 1000
    return civilText(unixSeconds: seconds) + "." + Digits.decimal(Int(rest), width: 3) + "Z"
  }

  /// Reads `YYYY-MM-DDTHH:MM[:SS[.fraction]]` followed by `Z` or an offset (`+09:00`, `+0900`).
  /// Returns nil for anything else, including a date without a zone.
  public static func parse(_ text: String) -> Date? {
    guard let parts = parseParts(text), let offset = parts.offsetSeconds else { return nil }
    return parts.date(offsetSeconds: offset)
  }

  /// The calendar fields of an ISO 8601 text, with or without a zone: for reading times that a
  /// person typed without an offset, in a time zone the caller chooses.
  public struct Parts: Sendable, Equatable {
    public var year, month, day, hour, minute, second: Int
    /// Digits after the decimal point, as written.
    public var fractionDigits: String
    /// Seconds east of UTC, or nil when the text has no zone.
    public var offsetSeconds: Int?

    /// The date these fields name at the given offset from UTC.
    public func date(offsetSeconds offset: Int) -> Date {
      let days = daysFromCivil(year: year, month: month, day: day)
      let unix = days * 86_400 + Int64(hour * 3600 + minute * 60 + second) - Int64(offset)
      let whole = Double(unix - referenceOffset)
      guard !fractionDigits.isEmpty, let fraction = Double("0." + fractionDigits) else {
        return Date(timeIntervalSinceReferenceDate: whole)
      }
      return Date(timeIntervalSinceReferenceDate: whole + fraction)
    }
  }

  /// Splits ISO 8601 text into its fields; nil if it is not ISO 8601.
  public static func parseParts(_ text: String) -> Parts? {
    var scanner = DigitScanner(Array(text.utf8))
    guard let year = scanner.number(4), scanner.skip("-"),
      let month = scanner.number(2), scanner.skip("-"),
      let day = scanner.number(2), scanner.skip("T") || scanner.skip("t") || scanner.skip(" "),
      let hour = scanner.number(2), scanner.skip(":"), let minute = scanner.number(2)
    else { return nil }
    var second = 0
    var digits = ""
    if scanner.skip(":") {
      guard let value = scanner.number(2) else { return nil }
      second = value
      if scanner.skip(".") || scanner.skip(",") {
        digits = scanner.digitRun()
        if digits.isEmpty { return nil }
      }
    }
    var offset: Int?
    if scanner.skip("Z") || scanner.skip("z") {
      offset = 0
    } else if let sign = scanner.sign() {
      guard let hours = scanner.number(2) else { return nil }
      _ = scanner.skip(":")
      guard let minutes = scanner.number(2), hours < 24, minutes < 60 else { return nil }
      offset = sign * (hours * 3600 + minutes * 60)
    }
    guard scanner.atEnd, (1...12).contains(month), day >= 1,
      day <= daysInMonth(year: year, month: month),
      hour < 24, minute < 60, second < 60
    else { return nil }
    return Parts(
      year: year, month: month, day: day, hour: hour, minute: minute, second: second,
      fractionDigits: digits, offsetSeconds: offset)
  }

  // MARK: Civil calendar arithmetic (proleptic Gregorian, after Howard Hinnant)

  /// Days since 1970-01-01 for a Gregorian date.
  public static func daysFromCivil(year: Int, month: Int, day: Int) -> Int64 {
    let y = Int64(month <= 2 ? year - 1 : year)
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let m = Int64(month)
    let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The Gregorian date of a day counted from 1970-01-01.
  public static func civilFromDays(_ days: Int64) -> (year: Int, month: Int, day: Int) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let mp = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    return (Int(year), Int(month), Int(day))
  }

  public static func daysInMonth(year: Int, month: Int) -> Int {
    switch month {
    case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  static func civilText(unixSeconds: Int64) -> String {
    _OutputBytes.string(capacity: 19) { text in
      writeCivil(unixSeconds: unixSeconds, to: text)
      return 19
    }
  }

  /// Writes `YYYY-MM-DDTHH:MM:SS` (19 bytes) of a second in years 0000–9999, a storable
  /// date's: the one writer of a store date's text, for `format` and the JSON writer.
  static func writeCivil(unixSeconds: Int64, to out: _OutputBytes) {
    let days = unixSeconds.floorDivided(by: 86_400)
    let secondOfDay = Int(unixSeconds - days * 86_400)
    let (year, month, day) = civilFromDays(days)
    Digits.write(UInt64(year), width: 4, to: out)
    Digits.write(UInt64(month), width: 2, to: out, at: 5)
    Digits.write(UInt64(day), width: 2, to: out, at: 8)
    Digits.write(UInt64(secondOfDay / 3600), width: 2, to: out, at: 11)
    Digits.write(UInt64(secondOfDay / 60 % 60), width: 2, to: out, at: 14)
    Digits.write(UInt64(secondOfDay % 60), width: 2, to: out, at: 17)
    (out[4], out[7], out[10], out[13], out[16]) = (UInt8(ascii: "-"), UInt8(ascii: "-"), UInt8(ascii: "T"), UInt8(ascii: ":"), UInt8(ascii: ":"))
  }

  /// The decimal digits after "0." of a fraction in (0, 1), shortest round trip, never exponent form.
  static func fractionDigits(_ fraction: Double) -> String {
    let text = fraction.description  // "0.25", "1.5e-05"
    if let e = text.utf8.firstIndex(of: UInt8(ascii: "e")) {  // by byte: a search by Character costs thousands of instructions
      let mantissa = text[..<e].replacingOccurrences(of: ".", with: "")
      let exponent = Int(text[text.index(after: e)...])!  // negative: the fraction is below 1e-4
      return String(repeating: "0", count: -exponent - 1) + mantissa
    }
    return String(text.dropFirst(2))
  }
}

extension Int64 {
  func floorDivided(by divisor: Int64) -> Int64 {
    let quotient = self / divisor
    return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
  }
}

/// Reads fixed-width numbers and separators from UTF-8 bytes.
private struct DigitScanner {
  let bytes: [UInt8]
  var index = 0
  init(_ bytes: [UInt8]) { self.bytes = bytes }
  var atEnd: Bool { index == bytes.count }

  mutating func number(_ width: Int) -> Int? {
    guard index + width <= bytes.count, let value = Digits.value(bytes[index..<index + width], width: width) else { return nil }
    index += width
    return Int(value)
  }

  mutating func digitRun() -> String {
    let start = index
    while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 { index += 1 }
    return String(decoding: bytes[start..<index], as: UTF8.self)
  }

  mutating func skip(_ character: Character) -> Bool {
    guard index < bytes.count, bytes[index] == character.asciiValue! else { return false }
    index += 1
    return true
  }

  mutating func sign() -> Int? {
    if skip("+") { return 1 }
    if skip("-") { return -1 }
    return nil
  }
}
