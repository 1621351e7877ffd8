import Foundation
import Testing

@testable import PlainStore

/// `Digits` reads back exactly what it writes — the fixed-width hex and decimal fields of
/// record headers, change stamps, file names and segment names — and nothing else.
@Suite struct DigitsTests {
  @Test(arguments: [UInt64(0), 1, 9, 10, 0xf, 0x10, 0xabc, 1 << 63, .max - 1, .max])
  func sixteenHexDigitsReadBackAsTheirValue(_ value: UInt64) {
    let text = Digits.hex16(value)
    #expect(text.utf8.count == 16)
    #expect(text == text.lowercased())
    #expect(Digits.hex16Value(text.utf8) == value)
    var appended: [UInt8] = [7]
    Digits.appendHex16(value, to: &appended)
    #expect(appended == [7] + Array(text.utf8), "appends after the bytes already there")
  }

  @Test(arguments: [(0, 12), (1, 12), (999_999_999_999, 12), (7, 2), (12, 2), (2026, 4), (0, 4)])
  func paddedDecimalsReadBackAsTheirValue(_ value: Int, _ width: Int) {
    let text = Digits.decimal(value, width: width)
    #expect(text.utf8.count == width)
    #expect(Digits.value(text.utf8, width: width) == UInt64(value))
  }

  @Test func theLargestValuesOfEachRadixReadBack() {
    #expect(Digits.value("9999999999999999999".utf8, width: 19) == 9_999_999_999_999_999_999)
    #expect(Digits.value("ffffffffffffffff".utf8, radix: 16, width: 16) == .max)
    #expect(Digits.value("99999999999999999999".utf8, width: 20) == nil, "20 decimal digits may overflow")
    #expect(Digits.value("10000000000000000".utf8, radix: 16, width: 17) == nil, "17 hex digits overflow")
  }

  @Test(arguments: [
    ("000000000000000A", "uppercase"), ("00000000000000g0", "not a digit"), ("000000000000000", "15 digits"),
    ("00000000000000000", "17 digits"), ("-000000000000001", "a sign"), (" 000000000000001", "a space"), ("", "empty"),
  ])
  func anythingHex16DidNotWriteIsRefused(_ text: String, _ why: String) {
    #expect(Digits.hex16Value(text.utf8) == nil, "\(why)")
  }

  @Test(arguments: ["00000000000a", "0000000000-1", "+00000000001", "00000000001", "0000000000001", "00000000000/", "00000000000:"])
  func aSequenceIsExactlyTwelveDecimalDigits(_ text: String) {
    #expect(ChangeFileName.parseSequence(text) == nil, "\(text)")
    #expect(Digits.value(text.utf8, width: 12) == nil, "\(text)")
  }

  @Test func decimalDigitsAreNotHexDigitsAndHexNeedsItsRadix() {
    #expect(Digits.value("ff".utf8, width: 2) == nil)
    #expect(Digits.value("ff".utf8, radix: 16, width: 2) == 255)
    #expect(Digits.value("09".utf8, radix: 16, width: 2) == 9)
  }

  /// The JSON writer escapes a control character with the digit writer: `\u` and four
  /// lowercase hex digits, as it always has.
  @Test func controlCharactersAreEscapedWithFourLowercaseHexDigits() throws {
    let text = String(decoding: [0x01, 0x1f, 0x41, 0x7f], as: UTF8.self)
    let json = String(decoding: try StoreCoding.makeEncoder().encode([text]), as: UTF8.self)
    #expect(json == #"["\u0001\u001fA\#u{7f}"]"#)
  }

  @Test func segmentNamesAreFourAndTwoDigitsAndReadBack() {
    for (index, name) in [(0, "0000-01"), (2026 * 12, "2026-01"), (2026 * 12 + 11, "2026-12"), (9999 * 12 + 11, "9999-12")] {
      #expect(SegmentKey.name(monthIndex: index) == name)
      #expect(SegmentKey.monthIndex(of: name) == index)
    }
    for wrong in ["2026-00", "2026-13", "2026-1a", "202a-01", "2026_01", "all"] {
      #expect(SegmentKey.monthIndex(of: wrong) == nil, "\(wrong)")
    }
  }
}
