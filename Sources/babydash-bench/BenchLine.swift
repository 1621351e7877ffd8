import Foundation

/// One JSON line printed by this benchmark or by ../shared/peer-bench: a flat object of numbers
/// (and `null`s, and the `engine` name), read back for the side-by-side table.
struct BenchLine: Equatable {
  var engine: String?
  /// Every numeric field; a `null` field is absent.
  var values: [String: Double]

  /// Object count of the store the line measured.
  var objects: Int? { values["objects"].map { Int($0) } }
  /// A line of the several-writers figure rather than of one size's figures.
  var isMultiProcess: Bool { values["procs"] != nil }

  init(engine: String?, values: [String: Double]) {
    self.engine = engine
    self.values = values
  }

  /// Reads one line; throws for one that is not a flat JSON object.
  init(parsing line: String) throws {
    guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
      throw BenchRunError("not a JSON object: '\(line.prefix(120))'")
    }
    var values: [String: Double] = [:]
    var engine: String?
    for (key, value) in object {
      switch value {
      case let text as String where key == "engine": engine = text
      case let number as NSNumber: values[key] = number.doubleValue
      case is NSNull: continue
      default: throw BenchRunError("field '\(key)' is neither a number nor null in '\(line.prefix(120))'")
      }
    }
    self.init(engine: engine, values: values)
  }

  /// The JSON lines in a program's output (the lines that start with `{`); other lines, such
  /// as our table, are skipped.
  static func all(in output: String) throws -> [BenchLine] {
    try output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.hasPrefix("{") }
      .map { try BenchLine(parsing: $0) }
  }
}
