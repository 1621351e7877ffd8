import Foundation

/// Column arithmetic for fixed-width text: how many terminal columns a string takes, padding,
/// truncating and wrapping by those columns rather than by characters.
public enum TextLayout {
  /// Terminal columns of `text`: 2 for East Asian wide characters (Hangul, CJK, kana, fullwidth
  /// forms) and emoji (emoji presentation, an emoji variation selector, flags, ZWJ sequences: one
  /// character each), 0 for a lone combining mark or an invisible format character, 1 for the
  /// others; combining marks after a base ride in its character.
  public static func width(_ text: some StringProtocol) -> Int {
    text.reduce(0) { $0 + width(of: $1) }
  }

  static func width(of character: Character) -> Int {
    let scalars = character.unicodeScalars
    guard let scalar = scalars.first else { return 0 }
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format, .control: return 0
    default: break
    }
    if scalar.properties.isEmojiPresentation || scalars.contains("\u{FE0F}") { return 2 }
    switch scalar.value {
    case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
      0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
      0xFFE0...0xFFE6, 0x1F1E6...0x1F1FF, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
      return 2
    default:
      return 1
    }
  }

  /// `text` on one line: each line break (and the blank around it) shown as " ↵ ", a tab as a
  /// space, so a memo typed on several lines cannot break a fixed-width layout.
  public static func singleLine(_ text: String) -> String {
    guard text.contains(where: { $0.isNewline || $0 == "\t" }) else { return text }
    let lines = text.split(whereSeparator: \.isNewline).map { $0.replacingOccurrences(of: "\t", with: " ").trimmingCharacters(in: .whitespaces) }
    return lines.filter { !$0.isEmpty }.joined(separator: " ↵ ")
  }

  /// `text` cut to `columns`, ending in "…" when it was cut.
  static func truncate(_ text: String, to columns: Int) -> String {
    guard width(text) > columns else { return text }
    guard columns > 0 else { return "" }
    var result = ""
    var used = 0
    for character in text {
      let w = width(of: character)
      if used + w > columns - 1 { break }
      result.append(character)
      used += w
    }
    return result + "…"
  }

  /// `text` cut to `columns` and padded with spaces to exactly `columns`.
  public static func pad(_ text: String, to columns: Int) -> String {
    let cut = truncate(text, to: columns)
    return cut + String(repeating: " ", count: max(0, columns - width(cut)))
  }

  /// `text` padded on the left to `columns`.
  static func padLeft(_ text: String, to columns: Int) -> String {
    String(repeating: " ", count: max(0, columns - width(text))) + text
  }

  /// `text` broken at spaces into lines of at most `columns` (a longer word stands alone), the
  /// first prefixed with `first`, the others with `rest`.
  static func wrap(_ text: String, columns: Int, first: String = "", rest: String = "") -> [String] {
    var lines: [String] = []
    var line = first
    var lineHasWord = false
    for word in text.split(separator: " ", omittingEmptySubsequences: true) {
      let candidate = lineHasWord ? line + " " + word : line + word
      if lineHasWord && width(candidate) > columns {
        lines.append(line)
        line = rest + word
      } else {
        line = candidate
      }
      lineHasWord = true
    }
    lines.append(line)
    return lines
  }

  /// A line of `count` copies of `character`.
  static func rule(_ character: Character = "-", _ count: Int) -> String {
    String(repeating: String(character), count: count)
  }

  /// Lines joined with "\n", trailing spaces removed, one trailing newline.
  static func document(_ lines: [String]) -> String {
    lines.map { line in
      var line = Substring(line)
      while line.last == " " { line = line.dropLast() }
      return String(line)
    }.joined(separator: "\n") + "\n"
  }
}
