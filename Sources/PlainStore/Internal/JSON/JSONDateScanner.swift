import Foundation

/// Reads the dates `ISO8601.format` writes (`2026-01-15T09:30:00Z`, `…:00.25Z`) straight from
/// JSON bytes, giving exactly the Date `ISO8601.parse` gives; nil for any other form, which the
/// decoder then hands to `ISO8601.parse`.
enum JSONDateScanner {
  static func date(_ raw: _ByteView) -> Date? {
    guard raw.count >= 20, raw[4] == UInt8(ascii: "-"), raw[7] == UInt8(ascii: "-"), raw[10] == UInt8(ascii: "T"),
      raw[13] == UInt8(ascii: ":"), raw[16] == UInt8(ascii: ":"), raw[raw.count - 1] == UInt8(ascii: "Z"),
      let year = number(raw, 0, 4), let month = number(raw, 5, 2), let day = number(raw, 8, 2),
      let hour = number(raw, 11, 2), let minute = number(raw, 14, 2), let second = number(raw, 17, 2),
      (1...12).contains(month), day >= 1, day <= ISO8601.daysInMonth(year: year, month: month),
      hour < 24, minute < 60, second < 60
    else { return nil }
    let days = ISO8601.daysFromCivil(year: year, month: month, day: day)
    let unix = days * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    let whole = Double(unix - ISO8601.referenceOffset)
    if raw.count == 20 { return Date(timeIntervalSinceReferenceDate: whole) }
    // A fraction: `.` and digits, read exactly as Double("0.<digits>") reads them.
    let digitCount = raw.count - 21
    guard raw[19] == UInt8(ascii: "."), digitCount >= 1 else { return nil }
    var mantissa: UInt64 = 0
    for index in 20..<raw.count - 1 {
      let digit = raw[index] &- UInt8(ascii: "0")
      guard digit < 10 else { return nil }
      if digitCount <= 15 { mantissa = mantissa * 10 + UInt64(digit) }
    }
    guard digitCount <= 15 else {
      // Past 15 digits the mantissa is no longer exact as a Double: the parse of the text itself.
      // A clock's full-precision time (a log entry's, a change file's) has 16 or 17.
      guard let fraction = Double("0." + raw.string(20..<raw.count - 1)) else { return nil }
      return Date(timeIntervalSinceReferenceDate: whole + fraction)
    }
    // Both exact, so the division rounds once, as a correctly rounded parse does.
    let fraction = Double(mantissa) / powersOfTen[digitCount]
    return Date(timeIntervalSinceReferenceDate: whole + fraction)
  }

  private static let powersOfTen: [Double] = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15]

  private static func number(_ raw: _ByteView, _ start: Int, _ width: Int) -> Int? {
    Digits.value(raw.extracting(start..<start + width), width: width).map(Int.init)
  }
}
