import Foundation

/// The figures of one size, in milliseconds and megabytes; nil where a figure was not measured.
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

  /// The JSON line the issue fixes: exactly these keys, in this order.
  var jsonLine: String {
    let fields: [(String, String)] = [
      ("objects", String(objects)),
      ("open_dashboard_ms", Self.number(openDashboard)),
      ("open_fetch_all_ms", Self.number(openFetchAll)),
      ("commit_p50_ms", Self.number(commitP50)),
      ("commit_p95_ms", Self.number(commitP95)),
      ("bulk_insert_ms", Self.number(bulkInsert)),
      ("import_ms", Self.number(legacyImport)),
      ("previews_ms", Self.number(previews)),
      ("peak_rss_mb", Self.number(peakRSS)),
    ]
    return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
  }

  static let columns = ["objects", "open→dashboard", "open+fetch all", "commit p50", "commit p95", "bulk insert", "import", "previews", "peak RSS"]

  var tableRow: [String] {
    [String(objects)] + [openDashboard, openFetchAll, commitP50, commitP95, bulkInsert, legacyImport, previews].map { Self.text($0) + " ms" }
      + [Self.text(peakRSS) + " MB"]
  }

  static func table(_ all: [BenchFigures]) -> String {
    let rows = [columns] + all.map(\.tableRow)
    let widths = columns.indices.map { column in rows.map { $0[column].count }.max()! }
    return rows.enumerated().map { index, row in
      let line = zip(row, widths).map { cell, width in String(repeating: " ", count: width - cell.count) + cell }
        .joined(separator: "  ")
      return index == 0 ? line + "\n" + String(repeating: "-", count: line.count) : line
    }.joined(separator: "\n")
  }

  /// Three significant decimals, fixed notation, `null` when not measured.
  private static func number(_ value: Double) -> String {
    value.isNaN ? "null" : String(format: "%.3f", value)
  }

  private static func text(_ value: Double) -> String {
    if value.isNaN { return "–" }
    return value < 10 ? String(format: "%.3f", value) : String(format: "%.1f", value)
  }
}
