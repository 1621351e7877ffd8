import Foundation

/// Ours beside the peer's, from interleaved pairs of runs: for every figure both print, the
/// median of ours, the median of the peer's, and the median of the per-pair ratios ours / peer
/// (each pair ran minutes apart at most, so its ratio cancels the machine's drift, which moves
/// absolute figures by up to 2× within an hour on a shared machine).
struct PeerComparison {
  /// One pair: every JSON line each side printed.
  struct Pair {
    var ours: [BenchLine]
    var peer: [BenchLine]
  }

  /// A row: what it is, which line and key on each side.
  struct Figure: Equatable {
    var label: String
    var oursKey: String
    var peerKey: String
    var unit: String
    /// Nil: the several-writers line; else the object count of the size's line.
    var objects: Int?
  }

  /// A row's numbers.
  struct Row: Equatable {
    var figure: Figure
    var ours: Double
    var peer: Double
    var ratio: Double
    var pairs: Int
  }

  var pairs: [Pair]

  /// The rows of one size, in the order. The plain predicate has no SQL counterpart of
  /// its own: SQLite answers the same WHERE from its startTime index whatever the hint, so ours
  /// without `dateRange` is set against the peer's one baby's month.
  static func figures(objects: Int, label size: String) -> [Figure] {
    [
      Figure(label: "open → dashboard, \(size)", oursKey: "open_dashboard_ms", peerKey: "open_dashboard_ms", unit: "ms", objects: objects),
      Figure(label: "open + fetch all sorted, \(size)", oursKey: "open_fetch_all_ms", peerKey: "open_fetch_all_ms", unit: "ms", objects: objects),
      Figure(label: "open + one baby's month, \(size)", oursKey: "open_filtered_ms", peerKey: "open_filtered_ms", unit: "ms", objects: objects),
      Figure(label: "one baby's month on an open store, \(size)", oursKey: "filtered_warm_ms", peerKey: "filtered_warm_ms", unit: "ms", objects: objects),
      Figure(
        label: "open + a predicate on startTime without `dateRange`, \(size)", oursKey: "open_filtered_plain_ms",
        peerKey: "open_filtered_ms", unit: "ms", objects: objects),
      Figure(label: "durable commit p50, \(size)", oursKey: "commit_p50_ms", peerKey: "commit_p50_ms", unit: "ms", objects: objects),
      Figure(label: "durable commit p95, \(size)", oursKey: "commit_p95_ms", peerKey: "commit_p95_ms", unit: "ms", objects: objects),
      Figure(label: "durable commit p99, \(size)", oursKey: "commit_p99_ms", peerKey: "commit_p99_ms", unit: "ms", objects: objects),
      Figure(label: "bulk insert \(size) in one save", oursKey: "bulk_insert_ms", peerKey: "bulk_insert_ms", unit: "ms", objects: objects),
      Figure(label: "peak RSS, open + fetch all \(size)", oursKey: "peak_rss_mb", peerKey: "peak_rss_mb", unit: "MB", objects: objects),
    ]
  }

  static func multiProcessFigures(procs: Int, commits: Int) -> [Figure] {
    let what = "\(procs) processes × \(commits) commits"
    return [
      Figure(label: "\(what): commits per second (higher is better)", oursKey: "commits_per_s", peerKey: "commits_per_s", unit: "/s", objects: nil),
      Figure(label: "\(what): commit p50", oursKey: "mp_commit_p50_ms", peerKey: "mp_commit_p50_ms", unit: "ms", objects: nil),
      Figure(label: "\(what): commit p95", oursKey: "mp_commit_p95_ms", peerKey: "mp_commit_p95_ms", unit: "ms", objects: nil),
      Figure(label: "\(what): commit p99", oursKey: "mp_commit_p99_ms", peerKey: "mp_commit_p99_ms", unit: "ms", objects: nil),
    ]
  }

  /// The line of one side that a figure reads.
  static func line(_ lines: [BenchLine], for figure: Figure) -> BenchLine? {
    lines.first { line in
      guard let objects = figure.objects else { return line.isMultiProcess }
      return !line.isMultiProcess && line.objects == objects
    }
  }

  /// Medians over the pairs where both sides measured the figure (NaN where none did).
  func row(_ figure: Figure) -> Row {
    var ours: [Double] = [], peer: [Double] = [], ratios: [Double] = []
    for pair in pairs {
      guard let mine = Self.line(pair.ours, for: figure)?.values[figure.oursKey],
        let theirs = Self.line(pair.peer, for: figure)?.values[figure.peerKey], mine.isFinite, theirs.isFinite
      else { continue }
      ours.append(mine)
      peer.append(theirs)
      if theirs > 0 { ratios.append(mine / theirs) }
    }
    return Row(figure: figure, ours: Timing.median(ours), peer: Timing.median(peer), ratio: Timing.median(ratios), pairs: ours.count)
  }

  /// Median over the pairs of a ratio of two of our own keys on one line (e.g. commit ÷ floor).
  func oursRatio(_ numerator: String, over denominator: String, objects: Int) -> Double {
    Timing.median(pairs.compactMap { pair in
      let line = pair.ours.first { !$0.isMultiProcess && $0.objects == objects }
      guard let top = line?.values[numerator], let bottom = line?.values[denominator], bottom > 0 else { return nil }
      return top / bottom
    })
  }

  /// Median over the pairs of one of our own keys.
  func oursMedian(_ key: String, objects: Int) -> Double {
    Timing.median(pairs.compactMap { pair in pair.ours.first { !$0.isMultiProcess && $0.objects == objects }?.values[key] })
  }

  /// The markdown table: figure | ours | GRDB | ratio.
  static func markdown(_ rows: [Row]) -> String {
    var lines = ["| figure | ours | GRDB | ratio |", "|---|---|---|---|"]
    for row in rows {
      lines.append(
        "| \(row.figure.label) | \(quantity(row.ours, row.figure.unit)) | \(quantity(row.peer, row.figure.unit)) | \(ratio(row.ratio)) |")
    }
    return lines.joined(separator: "\n")
  }

  static func quantity(_ value: Double, _ unit: String) -> String {
    guard value.isFinite else { return "–" }
    switch unit {
    case "/s": return String(format: "%.0f/s", value)
    case "MB": return String(format: "%.1f MB", value)
    default:
      let digits = value >= 100 ? "%.0f" : value >= 1 ? "%.1f" : "%.2f"
      return String(format: digits, value) + " " + unit
    }
  }

  static func ratio(_ value: Double) -> String {
    guard value.isFinite else { return "–" }
    if value >= 100 { return String(format: "%.0f×", value) }
    return value >= 10 ? String(format: "%.1f×", value) : String(format: "%.2f×", value)
  }
}
