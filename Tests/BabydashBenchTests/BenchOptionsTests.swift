import Testing

@testable import babydash_bench

@Suite struct BenchOptionsTests {
  @Test func thePeerModeComparesTheIssuesSizesUnlessToldOtherwise() throws {
    let options = try BenchOptions(["--peer", "/x/PeerBench", "--pairs", "7", "--quick"])
    #expect(options.mode == .peer(executable: "/x/PeerBench"))
    #expect(options.pairs == 7)
    #expect(options.sizes == [20_000, 100_000])
    #expect(options.commitsPerProcess == 50)
    #expect(try BenchOptions(["--peer", "p", "--sizes", "500"]).sizes == [500])
  }

  @Test func theWriterModeReadsItsFourValues() throws {
    let options = try BenchOptions(["--mp-writer", "/tmp/s", "2", "200", "1790000000000.5"])
    #expect(options.mode == .multiProcessWriter(store: "/tmp/s", index: 2, commits: 200, startAt: 1_790_000_000_000.5))
    #expect(try BenchOptions(["--mp", "20000", "--procs", "4"]).commitsPerProcess == 200)
  }

  @Test func aScratchFolderIsTheCallersToRemove() throws {
    #expect(try BenchOptions(["--sizes", "1000", "--scratch", "/tmp/pairs/pair-1-sizes"]).scratch == "/tmp/pairs/pair-1-sizes")
    #expect(try BenchOptions(["--sizes", "1000"]).scratch == nil)
  }

  @Test(arguments: [
    (["--sizes", "5"], "bad value '5' for --sizes: comma-separated object counts, each at least 10"),
    (["--pairs", "0"], "bad value '0' for --pairs: a whole number, at least 1"),
    (["--procs"], "option --procs needs a value (N)"),
    (["--mp-writer", "/s", "0", "10", "soon"], "bad value 'soon' for --mp-writer START: a number"),
    (["--fast"], "unknown option '--fast'"),
  ])
  func badArgumentsAreNamed(arguments: [String], message: String) {
    #expect(throws: BenchUsageError(message: message)) { try BenchOptions(arguments) }
  }
}
