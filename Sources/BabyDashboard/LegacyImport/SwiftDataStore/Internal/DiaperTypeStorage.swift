import Foundation

/// How the store keeps `DiaperChange.type`, a `String`-raw `Codable` enum.
///
/// Not verified on a real BabyDashboard store (research §1.4, §1.8: SwiftData's storage of such an
/// enum changed with its raw type and was shown only in screenshots), so every plausible shape is
/// read:
/// - one column `ZTYPE` (or `ZTYPE<n>`) holding the raw value as TEXT, or a BLOB holding a
///   binary/XML property list or JSON in which "pee" or "poo" appears (as a string, as the key of a
///   keyed enum encoding `{"pee": {}}`, or nested);
/// - a composite attribute flattened into several `ZTYPE…` columns: element columns holding the
///   raw value (`ZTYPE_RAWVALUE`…), or one column per case (`ZTYPE_PEE`, `ZTYPE_POO`) of which the
///   row sets exactly one.
enum DiaperTypeStorage: Equatable {
  case single(column: String)
  case composite(valueColumns: [String], caseColumns: [DiaperType: String])

  /// Finds the shape among the table's columns, or `nil` when no column can hold the type.
  static func find(among columns: [String]) throws(CoreDataSchema.ColumnAmbiguity) -> DiaperTypeStorage? {
    if let column = try CoreDataSchema.column(for: "type", among: columns) {
      return .single(column: column)
    }
    let base = CoreDataSchema.generatedName("type")
    var valueColumns: [String] = []
    var caseColumns: [DiaperType: String] = [:]
    for column in columns where column.hasPrefix(base) && column.count > base.count {
      let element = column.dropFirst(base.count).drop { $0 == "_" || $0 == "." }
      if let type = DiaperType.allCases.first(where: { $0.rawValue.uppercased() == element.uppercased() }) {
        caseColumns[type] = column
      } else {
        valueColumns.append(column)
      }
    }
    guard !valueColumns.isEmpty || !caseColumns.isEmpty else { return nil }
    return .composite(valueColumns: valueColumns, caseColumns: caseColumns)
  }

  /// The columns this shape reads, for messages.
  var columnsText: String {
    switch self {
    case .single(let column): return column
    case .composite(let values, let cases):
      return (values + DiaperType.allCases.compactMap { cases[$0] }).joined(separator: ", ")
    }
  }

  /// The row's diaper type.
  func type(in row: CoreDataRow) throws(CoreDataRow.RowRefusal) -> DiaperType {
    switch self {
    case .single(let column):
      return try Self.type(from: row[column], column: column)
    case .composite(let valueColumns, let caseColumns):
      let flagged = DiaperType.allCases.filter { type in caseColumns[type].map { Self.isSet(row[$0]) } ?? false }
      if flagged.count == 1 { return flagged[0] }
      if flagged.count > 1 {
        throw CoreDataRow.RowRefusal(
          column: flagged.compactMap { caseColumns[$0] }.joined(separator: ", "),
          detail: "both cases are set; expected exactly one of them")
      }
      for column in valueColumns where row[column] != .null {
        return try Self.type(from: row[column], column: column)
      }
      throw CoreDataRow.RowRefusal(column: columnsText, detail: "all NULL where a diaper type (\"pee\" or \"poo\") is required")
    }
  }

  /// A case column is set when it holds anything but NULL, 0 or empty.
  private static func isSet(_ value: SQLiteValue) -> Bool {
    switch value {
    case .null: return false
    case .integer(let number): return number != 0
    case .real(let number): return number != 0
    case .text(let text): return !text.isEmpty
    case .blob(let data): return !data.isEmpty
    }
  }

  private static func type(from value: SQLiteValue, column: String) throws(CoreDataRow.RowRefusal) -> DiaperType {
    switch value {
    case .text(let text):
      if let type = rawType(text) { return type }
    case .blob(let data):
      if let type = archivedType(data) { return type }
    case .null:
      throw CoreDataRow.RowRefusal(column: column, detail: "NULL where a diaper type (\"pee\" or \"poo\") is required")
    case .integer, .real:
      // A number would be a case index, and nothing says which order the cases were in.
      break
    }
    throw CoreDataRow.RowRefusal(column: column, detail: "\(value.summary) is not a diaper type; expected \"pee\" or \"poo\"")
  }

  /// `"pee"`, `"Poo"`, ` pee ` as the case; anything else as `nil`.
  private static func rawType(_ text: String) -> DiaperType? {
    DiaperType(rawValue: text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased())
  }

  /// The one diaper type a small archive names: a property list (binary or XML), JSON, or the
  /// raw value's UTF-8 bytes. `nil` when it names none, or both.
  private static func archivedType(_ data: Data) -> DiaperType? {
    // The candidates are tried in turn; a failure of one format is the cue to try the next.
    var object: Any?
    if let plist = try? PropertyListSerialization.propertyList(from: data, options: [], format: nil) {
      object = plist
    } else if let json = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) {
      object = json
    } else if let text = String(data: data, encoding: .utf8) {
      object = text
    }
    var found = Set<DiaperType>()
    collect(object, into: &found)
    return found.count == 1 ? found.first : nil
  }

  private static func collect(_ object: Any?, into found: inout Set<DiaperType>) {
    switch object {
    case let text as String:
      if let type = rawType(text) { found.insert(type) }
    case let dictionary as [String: Any]:
      for (key, value) in dictionary {
        if let type = rawType(key) { found.insert(type) }
        collect(value, into: &found)
      }
    case let array as [Any]:
      for element in array { collect(element, into: &found) }
    default:
      break
    }
  }
}
