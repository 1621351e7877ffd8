/// A unified diff of two texts, line by line, as `diff -u` writes it: `---` / `+++` headers,
/// `@@ -a,b +c,d @@` hunks with context lines. A longest common subsequence decides which lines
/// stayed; preview files are a few hundred lines, so the quadratic table is small.
///
/// ```swift
/// LineDiff.unified(old: "a\nb\n", new: "a\nc\n", oldLabel: "recorded", newLabel: "now")
/// ```
public enum LineDiff {
  /// One line of an edit script.
  enum Step: Equatable {
    case same(String)
    case removed(String)
    case added(String)
  }

  /// The unified diff from `old` to `new`, or "" when they are equal.
  ///
  /// - Parameter context: unchanged lines shown around each change.
  public static func unified(old: String, new: String, oldLabel: String, newLabel: String, context: Int = 3) -> String {
    guard old != new else { return "" }
    let steps = script(lines(old), lines(new))
    var out = ["--- " + oldLabel, "+++ " + newLabel]
    // Positions of the changed steps; hunks are runs of changes closer than 2 * context.
    let changed = steps.indices.filter { if case .same = steps[$0] { return false } else { return true } }
    var hunkStart = 0
    while hunkStart < changed.count {
      var hunkEnd = hunkStart
      while hunkEnd + 1 < changed.count, changed[hunkEnd + 1] - changed[hunkEnd] <= 2 * context + 1 { hunkEnd += 1 }
      let from = max(0, changed[hunkStart] - context)
      let to = min(steps.count - 1, changed[hunkEnd] + context)
      var oldLine = 1
      var newLine = 1
      for step in steps[..<from] {
        if case .added = step {} else { oldLine += 1 }
        if case .removed = step {} else { newLine += 1 }
      }
      var body: [String] = []
      var oldCount = 0
      var newCount = 0
      for step in steps[from...to] {
        switch step {
        case .same(let line): body.append(" " + line); oldCount += 1; newCount += 1
        case .removed(let line): body.append("-" + line); oldCount += 1
        case .added(let line): body.append("+" + line); newCount += 1
        }
      }
      out.append("@@ -\(range(oldLine, oldCount)) +\(range(newLine, newCount)) @@")
      out += body
      hunkStart = hunkEnd + 1
    }
    if old.last != new.last, old.last == "\n" || new.last == "\n" {
      out.append("\\ The texts differ in their final newline")
    }
    return out.joined(separator: "\n") + "\n"
  }

  /// "3,7", or "3" for one line, or "2,0" for none (after line 2), as `diff -u` writes them.
  static func range(_ start: Int, _ count: Int) -> String {
    if count == 1 { return String(start) }
    return "\(count == 0 ? start - 1 : start),\(count)"
  }

  /// The lines of `text`, without a final empty line after a trailing newline.
  static func lines(_ text: String) -> [String] {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if lines.last == "" { lines.removeLast() }
    return lines
  }

  /// The edit script from `a` to `b` by a longest common subsequence (removals before
  /// additions within a change, as `diff` shows them).
  static func script(_ a: [String], _ b: [String]) -> [Step] {
    let n = a.count
    let m = b.count
    // lcs[i][j]: length of the LCS of a[i...] and b[j...].
    var lcs = [[Int]](repeating: [Int](repeating: 0, count: m + 1), count: n + 1)
    for i in stride(from: n - 1, through: 0, by: -1) {
      for j in stride(from: m - 1, through: 0, by: -1) {
        lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1 : max(lcs[i + 1][j], lcs[i][j + 1])
      }
    }
    var steps: [Step] = []
    var i = 0
    var j = 0
    while i < n || j < m {
      if i < n, j < m, a[i] == b[j] {
        steps.append(.same(a[i])); i += 1; j += 1
      } else if i < n, j == m || lcs[i + 1][j] >= lcs[i][j + 1] {
        steps.append(.removed(a[i])); i += 1
      } else {
        steps.append(.added(b[j])); j += 1
      }
    }
    return steps
  }
}
