import Testing

@testable import babydash_bench

@Suite struct PeerComparisonTests {
  @Test func linesAreReadWithTheirNullsLeftOutAndOtherOutputSkipped() throws {
    let output = """
      objects  open→dashboard
      -----------------------
      {"objects":20002,"open_dashboard_ms":18.400,"import_ms":null,"engine":"plainstore"}
      {"engine":"grdb","objects":20002,"procs":4,"commits_per_s":1462.000}
      """
    let lines = try BenchLine.all(in: output)
    #expect(lines == [
      BenchLine(engine: "plainstore", values: ["objects": 20_002, "open_dashboard_ms": 18.4]),
      BenchLine(engine: "grdb", values: ["objects": 20_002, "procs": 4, "commits_per_s": 1_462]),
    ])
    #expect(!lines[0].isMultiProcess && lines[1].isMultiProcess)
    #expect(throws: BenchRunError.self) { try BenchLine(parsing: "{\"objects\":[1]}") }
  }

  @Test func theRatioIsTheMedianOfPerPairRatiosNotTheRatioOfMedians() {
    // The machine slows down between pairs; each pair's ratio is 2, 3 or 4.
    let pairs = [(10.0, 5.0), (60.0, 20.0), (8.0, 2.0)].map { ours, peer in
      PeerComparison.Pair(
        ours: [BenchLine(engine: "plainstore", values: ["objects": 100, "commit_p50_ms": ours])],
        peer: [BenchLine(engine: "grdb", values: ["objects": 100, "commit_p50_ms": peer])])
    }
    let figure = PeerComparison.Figure(label: "commit", oursKey: "commit_p50_ms", peerKey: "commit_p50_ms", unit: "ms", objects: 100)
    let row = PeerComparison(pairs: pairs).row(figure)
    #expect(row.ours == 10 && row.peer == 5 && row.ratio == 3 && row.pairs == 3)
  }

  @Test func aPairWhereEitherSideLacksTheFigureIsLeftOut() {
    let pairs = [
      PeerComparison.Pair(
        ours: [BenchLine(engine: nil, values: ["objects": 100, "open_filtered_plain_ms": 30])],
        peer: [BenchLine(engine: nil, values: ["objects": 100, "open_filtered_ms": 10])]),
      PeerComparison.Pair(
        ours: [BenchLine(engine: nil, values: ["objects": 100])],
        peer: [BenchLine(engine: nil, values: ["objects": 100, "open_filtered_ms": 10])]),
    ]
    let plain = PeerComparison.figures(objects: 100, label: "100").first { $0.oursKey == "open_filtered_plain_ms" }!
    let row = PeerComparison(pairs: pairs).row(plain)
    #expect(row.ratio == 3 && row.pairs == 1)
    #expect(Timing.median([4, 1, 3, 2]) == 2.5)
    #expect(Timing.median([]).isNaN)
  }

  @Test func theTableIsMarkdownWithUnitsAndRatios() {
    let figure = PeerComparison.Figure(label: "open → dashboard, 100k", oursKey: "a", peerKey: "a", unit: "ms", objects: 1)
    let multi = PeerComparison.Figure(label: "4 processes", oursKey: "b", peerKey: "b", unit: "/s", objects: nil)
    let table = PeerComparison.markdown([
      PeerComparison.Row(figure: figure, ours: 18.44, peer: 0.561, ratio: 32.87, pairs: 5),
      PeerComparison.Row(figure: multi, ours: 311.2, peer: 1462, ratio: 0.2129, pairs: 5),
      PeerComparison.Row(figure: figure, ours: .nan, peer: 474, ratio: .nan, pairs: 0),
    ])
    #expect(table == """
      | figure | ours | GRDB | ratio |
      |---|---|---|---|
      | open → dashboard, 100k | 18.4 ms | 0.56 ms | 32.9× |
      | 4 processes | 311/s | 1462/s | 0.21× |
      | open → dashboard, 100k | – | 474 ms | – |
      """)
  }
}
