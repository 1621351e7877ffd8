import Foundation

/// Runs ours and the peer interleaved, pair after pair, and prints the side-by-side table.
///
/// Each side's turn is two programs: the figures at the sizes (ours with `--shared-only`, so
/// both do the same work), then the several-writers figure. The order inside a pair alternates
/// (ours first, then the peer first, …) so that a machine slowly getting busier does not always
/// fall on the same side.
///
/// Our runs keep their stores in `scratch` until every pair is done: deleting one run's files
/// would slow the next run's file creations (see FiguresRun).
struct PairRunner {
  let options: BenchOptions
  let peer: URL
  let scratch: URL

  func run() throws -> String {
    var pairs: [PeerComparison.Pair] = []
    var raw: [String] = []
    for number in 1...options.pairs {
      var pair = PeerComparison.Pair(ours: [], peer: [])
      let oursFirst = number % 2 == 1
      for side in oursFirst ? ["ours", "peer"] : ["peer", "ours"] {
        progress("pair \(number)/\(options.pairs): \(side)")
        let output = try side == "ours" ? runOurs(pair: number) : runPeer()
        let lines = try BenchLine.all(in: output)
        guard lines.count == options.sizes.count + 1 else {
          throw BenchRunError("\(side) printed \(lines.count) JSON lines, expected \(options.sizes.count + 1)")
        }
        if side == "ours" { pair.ours = lines } else { pair.peer = lines }
        raw += output.split(separator: "\n").filter { $0.hasPrefix("{") }.map { "pair \(number) \(side): \($0)" }
      }
      pairs.append(pair)
    }
    return report(PeerComparison(pairs: pairs), raw: raw)
  }

  private var sizeArguments: [String] {
    ["--sizes", options.sizes.map(String.init).joined(separator: ",")] + (options.quick ? ["--quick"] : [])
  }

  private var multiProcessArguments: [String] {
    ["--mp", String(options.multiProcessSize), "--procs", String(options.procs), "--commits", String(options.commitsPerProcess)]
  }

  private func runOurs(pair: Int) throws -> String {
    let sizes = ["--scratch", scratch.appendingPathComponent("pair-\(pair)-sizes").path]
    let writers = ["--scratch", scratch.appendingPathComponent("pair-\(pair)-writers").path]
    return try ChildProcess.run(sizeArguments + ["--shared-only"] + sizes) + ChildProcess.run(multiProcessArguments + writers)
  }

  private func runPeer() throws -> String {
    try ChildProcess.run(sizeArguments, executable: peer) + ChildProcess.run(multiProcessArguments, executable: peer)
  }

  private func report(_ comparison: PeerComparison, raw: [String]) -> String {
    let objectCounts = options.sizes.map { BenchHistory(objects: $0).objectCount }
    var figures = zip(options.sizes, objectCounts).flatMap { size, objects in
      PeerComparison.figures(objects: objects, label: Self.label(size))
    }
    figures += PeerComparison.multiProcessFigures(procs: options.procs, commits: options.commitsPerProcess)
    let rows = figures.map(comparison.row)
    var text = [
      "ours / GRDB, medians of \(options.pairs) interleaved pairs (ratio: median of the per-pair ratios)\(options.quick ? ", --quick" : ""):",
      "",
      PeerComparison.markdown(rows),
      "",
      "Floors on this disk, measured in our runs (medians of the pairs' p50):",
    ]
    for (size, objects) in zip(options.sizes, objectCounts) {
      let createOnce = comparison.oursMedian("floor_create_once_p50_ms", objects: objects)
      let append = comparison.oursMedian("floor_append_fdatasync_p50_ms", objects: objects)
      let journal = comparison.oursMedian("floor_journal_commit_p50_ms", objects: objects)
      let overFloor = comparison.oursRatio("commit_p50_ms", over: "floor_create_once_p50_ms", objects: objects)
      let overJournal = comparison.oursRatio("commit_p50_ms", over: "floor_journal_commit_p50_ms", objects: objects)
      text.append(
        "- \(Self.label(size)) run: create-once file \(PeerComparison.quantity(createOnce, "ms")), append + fdatasync "
          + "\(PeerComparison.quantity(append, "ms")), journal commit (append + fdatasync, unflushed create-once) "
          + "\(PeerComparison.quantity(journal, "ms")); our commit p50 ÷ create-once floor \(PeerComparison.ratio(overFloor)), "
          + "÷ journal-commit floor \(PeerComparison.ratio(overJournal))")
    }
    // The peer is only a fair durable peer with synchronous = FULL (2) really in force.
    let synchronous = Set(comparison.pairs.flatMap { $0.peer.compactMap { $0.values["synchronous"] } }).sorted()
    text.append("- the peer's SQLite ran with PRAGMA synchronous = \(synchronous.map { String(Int($0)) }.joined(separator: ", ")) (2 is FULL)")
    text += ["", "Raw lines:"] + raw
    return text.joined(separator: "\n")
  }

  /// "20k" for 20000, the number itself otherwise.
  static func label(_ size: Int) -> String {
    size % 1_000 == 0 ? "\(size / 1_000)k" : String(size)
  }
}
