import BabyDashboardText
import Testing

/// Columns as a terminal draws them, so that names and memos of any script line up.
@Suite struct TextLayoutTests {
  @Test(arguments: [
    ("Mia", 3), ("Zoe\u{301}", 3), ("Zoé", 3), ("민서", 4), ("ＭＩＡ", 6),
    ("🍼", 2), ("👶🏻", 2), ("👩‍👧", 2), ("🇫🇷", 2), ("❤️", 2), ("🚀", 2), ("🫶", 2),
    ("\u{301}", 0), ("a\u{200B}b", 2),
  ])
  func aStringTakesTheColumnsATerminalGivesIt(text: String, columns: Int) {
    #expect(TextLayout.width(text) == columns, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
  }

  @Test func aMemoOnSeveralLinesIsShownOnOne() {
    #expect(TextLayout.singleLine("sleepy\nthen #gas\r\n\n\tburped") == "sleepy ↵ then #gas ↵ burped")
    #expect(TextLayout.singleLine("one line") == "one line")
  }
}
