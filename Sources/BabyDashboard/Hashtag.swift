/// Hashtags in a memo: `#` followed by Unicode letters and digits.
///
/// ```swift
/// Hashtag.extract(from: "#Night feed, #밤 then #night again") // ["night", "밤"]
/// ```
public enum Hashtag {
  /// The hashtags in `text`, without the `#`, lowercased, each once, in order of first appearance.
  ///
  /// A tag is a `#` followed by one or more characters that are letters or digits in any script
  /// (`#밤`, `#ночь`, `#2am`); it ends at the first other character (space, punctuation, `_`,
  /// another `#`). Tags compare case-insensitively, so `#Night` and `#night` are one tag. A `#`
  /// with no letter or digit after it is not a tag.
  public static func extract(from text: String) -> [String] {
    var tags: [String] = []
    var seen: Set<String> = []
    var current: String?

    func finish() {
      if let tag = current, !tag.isEmpty {
        let key = normalize(tag)
        if seen.insert(key).inserted { tags.append(key) }
      }
      current = nil
    }

    for character in text {
      if character == "#" {
        finish()
        current = ""
      } else if current != nil, isTagCharacter(character) {
        current!.append(character)
      } else {
        finish()
      }
    }
    finish()
    return tags
  }

  /// The form in which tags compare and are returned: lowercased, independent of any locale.
  ///
  /// Use it on a tag the user types (with or without `#`) before filtering by it.
  public static func normalize(_ tag: String) -> String {
    var tag = Substring(tag)
    while tag.first == "#" { tag = tag.dropFirst() }
    return tag.lowercased()
  }

  static func isTagCharacter(_ character: Character) -> Bool {
    character.isLetter || character.isNumber
  }
}
