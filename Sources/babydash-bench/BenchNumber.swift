import Foundation

/// How the benchmark prints numbers: fixed notation in JSON (`null` when not measured), three
/// decimals under 10 and one above in tables, so columns stay short and comparable.
enum BenchNumber {
  static func json(_ value: Double) -> String {
    value.isFinite ? String(format: "%.3f", value) : "null"
  }

  /// A dash alone when not measured.
  static func text(_ value: Double, unit: String) -> String {
    guard value.isFinite else { return "–" }
    return (abs(value) < 10 ? String(format: "%.3f", value) : String(format: "%.1f", value)) + " " + unit
  }

  /// Right-aligned columns under a ruled header row.
  static func alignedTable(_ rows: [[String]]) -> String {
    guard let header = rows.first else { return "" }
    let widths = header.indices.map { column in rows.map { $0[column].count }.max()! }
    return rows.enumerated().map { index, row in
      let line = zip(row, widths).map { cell, width in String(repeating: " ", count: width - cell.count) + cell }
        .joined(separator: "  ")
      return index == 0 ? line + "\n" + String(repeating: "-", count: line.count) : line
    }.joined(separator: "\n")
  }
}
