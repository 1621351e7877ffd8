import Foundation

/// The figures of one size, in milliseconds and megabytes; NaN (printed `null`) where a figure
/// was not measured.
struct BenchFigures {
  var objects: Int
  var openDashboard: Double = .nan
  var openFetchAll: Double = .nan
  var commitP50: Double = .nan
  var commitP95: Double = .nan
  var bulkInsert: Double = .nan
  var legacyImport: Double = .nan
  var previews: Double = .nan
  var peakRSS: Double = .nan
  var commitP99: Double = .nan
  var commitMax: Double = .nan
  var commitMean: Double = .nan
  /// Open, then one baby's feeds of one month, with `dateRange` (the store reads one month).
  var openFiltered: Double = .nan
  /// The same fetch again on the open store.
  var filteredWarm: Double = .nan
  var filteredRows: Int = 0
  /// Open, then the same query as a plain `#Predicate` on startTime, without `dateRange`.
  var openFilteredPlain: Double = .nan
  var filteredPlainWarm: Double = .nan
  /// The platform's floors on the store's file system, measured in the same run.
  var floor: DurableFileFloor.Figures = .init()

  /// The JSON line: the keys of the first version in their order, then the keys shared with
  /// ../shared/peer-bench (same names, same work), then ours alone.
  var jsonLine: String {
    let fields: [(String, String)] = [
      ("objects", String(objects)),
      ("open_dashboard_ms", BenchNumber.json(openDashboard)),
      ("open_fetch_all_ms", BenchNumber.json(openFetchAll)),
      ("commit_p50_ms", BenchNumber.json(commitP50)),
      ("commit_p95_ms", BenchNumber.json(commitP95)),
      ("bulk_insert_ms", BenchNumber.json(bulkInsert)),
      ("import_ms", BenchNumber.json(legacyImport)),
      ("previews_ms", BenchNumber.json(previews)),
      ("peak_rss_mb", BenchNumber.json(peakRSS)),
      ("engine", "\"plainstore\""),
      ("commit_p99_ms", BenchNumber.json(commitP99)),
      ("commit_max_ms", BenchNumber.json(commitMax)),
      ("commit_mean_ms", BenchNumber.json(commitMean)),
      ("open_filtered_ms", BenchNumber.json(openFiltered)),
      ("filtered_warm_ms", BenchNumber.json(filteredWarm)),
      ("filtered_rows", String(filteredRows)),
      ("open_filtered_plain_ms", BenchNumber.json(openFilteredPlain)),
      ("filtered_plain_warm_ms", BenchNumber.json(filteredPlainWarm)),
      ("floor_create_once_p50_ms", BenchNumber.json(floor.createOnceP50)),
      ("floor_append_fdatasync_p50_ms", BenchNumber.json(floor.appendP50)),
      ("floor_journal_commit_p50_ms", BenchNumber.json(floor.journalCommitP50)),
    ]
    return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
  }

  static let columns = [
    "objects", "open→dashboard", "open+fetch all", "open+month", "open+plain month", "commit p50", "commit p95",
    "commit p99", "floor create-once", "bulk insert", "import", "previews", "peak RSS",
  ]

  var tableRow: [String] {
    [String(objects)]
      + [
        openDashboard, openFetchAll, openFiltered, openFilteredPlain, commitP50, commitP95, commitP99, floor.createOnceP50,
        bulkInsert, legacyImport, previews,
      ].map { BenchNumber.text($0, unit: "ms") }
      + [BenchNumber.text(peakRSS, unit: "MB")]
  }

  static func table(_ all: [BenchFigures]) -> String {
    BenchNumber.alignedTable([columns] + all.map(\.tableRow))
  }
}
