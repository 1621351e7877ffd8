import Foundation

/// One row of a Core Data entity table, read by column name, with Core Data's value encodings.
///
/// Every accessor that cannot read its value throws a ``RowRefusal`` naming the column and what
/// it found; the reader adds the table, the row's `Z_PK` and what to do.
struct CoreDataRow {
  /// Why one value of the row cannot be read.
  struct RowRefusal: Error {
    var column: String
    var detail: String
  }

  let values: [SQLiteValue]
  let columnIndex: [String: Int]

  /// The row's `Z_PK`, for messages and links.
  var primaryKey: Int64? {
    if case .integer(let key) = self["Z_PK"] { return key }
    return nil
  }

  /// The value of `column`, or NULL when the table has no such column.
  subscript(column: String) -> SQLiteValue {
    columnIndex[column].map { values[$0] } ?? .null
  }

  /// A date stored as seconds since 2001-01-01 UTC (`REAL`, or `INTEGER` when whole), or `nil`
  /// for NULL.
  func optionalDate(_ column: String?) throws(RowRefusal) -> Date? {
    guard let column else { return nil }
    switch self[column] {
    case .null: return nil
    case .real(let seconds) where seconds.isFinite: return Date(timeIntervalSinceReferenceDate: seconds)
    case .integer(let seconds): return Date(timeIntervalSinceReferenceDate: Double(seconds))
    case let other:
      throw RowRefusal(column: column, detail: "\(other.summary) is not a Core Data date; expected seconds since 2001-01-01 (REAL)")
    }
  }

  /// A date that must be there.
  func date(_ column: String) throws(RowRefusal) -> Date {
    guard let date = try optionalDate(column) else {
      throw RowRefusal(column: column, detail: "NULL where a date is required")
    }
    return date
  }

  /// A UUID stored as 16 bytes in RFC 4122 order, or defensively as its 36-character text; `nil`
  /// for NULL.
  func optionalUUID(_ column: String) throws(RowRefusal) -> UUID? {
    switch self[column] {
    case .null:
      return nil
    case .blob(let bytes) where bytes.count == 16:
      let b = Array(bytes)
      return UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
    case .text(let text):
      guard let uuid = UUID(uuidString: text.trimmingCharacters(in: .whitespaces)) else {
        throw RowRefusal(column: column, detail: "TEXT \(text.debugDescription) is not a UUID")
      }
      return uuid
    case let other:
      throw RowRefusal(column: column, detail: "\(other.summary) is not a UUID; expected a BLOB of 16 bytes")
    }
  }

  /// A number (`REAL` or `INTEGER`), or `nil` for NULL or a table without the column.
  func optionalDouble(_ column: String?) throws(RowRefusal) -> Double? {
    guard let column else { return nil }
    switch self[column] {
    case .null: return nil
    case .real(let value): return value
    case .integer(let value): return Double(value)
    case let other: throw RowRefusal(column: column, detail: "\(other.summary) is not a number")
    }
  }

  /// Text, or `nil` for NULL or a table without the column.
  func optionalString(_ column: String?) throws(RowRefusal) -> String? {
    guard let column else { return nil }
    switch self[column] {
    case .null: return nil
    case .text(let text): return text
    case let other: throw RowRefusal(column: column, detail: "\(other.summary) is not text")
    }
  }

  /// A to-one relationship: the target's `Z_PK`, or `nil` for NULL.
  func optionalPrimaryKey(_ column: String?) throws(RowRefusal) -> Int64? {
    guard let column else { return nil }
    switch self[column] {
    case .null: return nil
    case .integer(let key): return key
    case let other: throw RowRefusal(column: column, detail: "\(other.summary) is not a row reference; expected the INTEGER Z_PK of a row")
    }
  }
}
