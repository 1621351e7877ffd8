import BabyDashboard
import Foundation
import PlainStore

/// Several writer processes at once, as ../shared/peer-bench `--mp` does: the history stored
/// once, then `procs` copies of this program (`--mp-writer`) each open the store, wait for a
/// common start time and commit `commits` feeds, one save each. Prints one JSON line with the
/// peer's keys: commits per second over the span from the first commit's start to the last one's
/// end in any process, the percentiles of every commit's latency, and (ours only) the writers'
/// CPU time per commit, which a busy machine's drift moves far less than the wall clock.
@MainActor
struct MultiProcessBench {
  let size: Int
  let procs: Int
  let commits: Int
  let scratch: URL

  /// Head start for the writers to open the store before the first commit, as the peer gives.
  static let startDelayMilliseconds = 1_500.0

  func run() throws -> String {
    let history = BenchHistory(objects: size)
    let folder = scratch.appendingPathComponent("mp-\(size)")
    _ = try StoreBench(history: history, runs: 1, commits: 0).bulkInsert(into: folder)
    let startAt = Timing.wallMilliseconds() + Self.startDelayMilliseconds
    let children = try (0..<procs).map { index in
      try ChildProcess.start(["--mp-writer", folder.path, String(index), String(commits), String(startAt)])
    }
    var reports: [MultiProcessWriter.Report] = []
    for child in children {
      let output = try child.finish()
      reports.append(try MultiProcessWriter.Report(parsing: output))
    }
    let container = try StoreContainer.babyDashboard(inAppGroup: folder)
    let count = try container.newBackgroundContext().fetchCount(FetchDescriptor<FeedSession>())
    precondition(count == history.feeds.count + procs * commits, "lost commits: \(count) feeds")
    let samples = reports.flatMap(\.samples)
    let span = reports.map(\.last).max()! - reports.map(\.first).min()!
    let fields: [(String, String)] = [
      ("engine", "\"plainstore\""),
      ("objects", String(history.objectCount)),
      ("procs", String(procs)),
      ("commits_each", String(commits)),
      ("span_ms", BenchNumber.json(span)),
      ("commits_per_s", BenchNumber.json(Double(procs * commits) / span * 1_000)),
      ("mp_commit_p50_ms", BenchNumber.json(Timing.percentile(samples, 0.5))),
      ("mp_commit_p95_ms", BenchNumber.json(Timing.percentile(samples, 0.95))),
      ("mp_commit_p99_ms", BenchNumber.json(Timing.percentile(samples, 0.99))),
      ("mp_commit_max_ms", BenchNumber.json(samples.max() ?? .nan)),
      ("mp_cpu_per_commit_ms", BenchNumber.json(reports.map(\.cpu).reduce(0, +) / Double(samples.count))),
    ]
    return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
  }
}
