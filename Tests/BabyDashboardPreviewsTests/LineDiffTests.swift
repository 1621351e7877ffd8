import BabyDashboardPreviews
import Testing

@Suite struct LineDiffTests {
  @Test func equalTextsHaveNoDiff() {
    #expect(LineDiff.unified(old: "a\nb\n", new: "a\nb\n", oldLabel: "x", newLabel: "y") == "")
  }

  @Test func aChangedLineShowsAsRemovedThenAddedWithContext() {
    let old = (1...10).map { "line \($0)" }.joined(separator: "\n") + "\n"
    let new = old.replacingOccurrences(of: "line 6\n", with: "line six\n")
    let diff = LineDiff.unified(old: old, new: new, oldLabel: "a.txt", newLabel: "b.txt")
    #expect(diff == """
      --- a.txt
      +++ b.txt
      @@ -3,7 +3,7 @@
       line 3
       line 4
       line 5
      -line 6
      +line six
       line 7
       line 8
       line 9

      """)
  }

  @Test func distantChangesMakeSeparateHunksAndInsertionsCountRight() {
    let old = (1...20).map { "l\($0)" }.joined(separator: "\n") + "\n"
    let new = "l0\n" + old.replacingOccurrences(of: "l20\n", with: "")
    let diff = LineDiff.unified(old: old, new: new, oldLabel: "a", newLabel: "b")
    #expect(diff.contains("@@ -1,3 +1,4 @@\n+l0\n l1\n l2\n l3\n"))
    #expect(diff.contains("@@ -17,4 +18,3 @@\n l17\n l18\n l19\n-l20\n"))
  }

  @Test func aMissingFinalNewlineIsNamed() {
    let diff = LineDiff.unified(old: "a\n", new: "a", oldLabel: "a", newLabel: "b")
    #expect(diff.contains("final newline"))
  }
}
