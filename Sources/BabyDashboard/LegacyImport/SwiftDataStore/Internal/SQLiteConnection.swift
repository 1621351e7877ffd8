import CSQLite
import Foundation

/// One value of one column of one row, by its storage class (SQLite's, not the declared type:
/// Core Data declares a date `FLOAT` in one table and `TIMESTAMP` in another).
enum SQLiteValue: Equatable, Sendable {
  case null
  case integer(Int64)
  case real(Double)
  case text(String)
  case blob(Data)

  /// What the value is, for messages: `REAL 12.5`, `TEXT "pee"`, `BLOB of 16 bytes`, `NULL`.
  var summary: String {
    switch self {
    case .null: return "NULL"
    case .integer(let value): return "INTEGER \(value)"
    case .real(let value): return "REAL \(value)"
    case .text(let value): return "TEXT \(value.debugDescription)"
    case .blob(let data): return "BLOB of \(data.count) bytes"
    }
  }
}

/// A failure of the SQLite library, with its message and result code.
struct SQLiteFailure: Error, CustomStringConvertible {
  var code: Int32
  var message: String
  var description: String { "\(message) (SQLite result code \(code))" }
}

/// A read-only connection to one SQLite file, through the system library.
///
/// Deliberately tiny: the importer only ever reads a private copy, so there is no binding, no
/// transaction and no writing here. Not `Sendable`: one is opened, read and closed inside one call.
final class SQLiteConnection {
  private var handle: OpaquePointer?

  /// Opens `url` read-only. With `ignoringWAL`, only the main file is read (SQLite's
  /// `immutable` URI parameter): what the store said before its `-wal` is applied.
  init(readOnly url: URL, ignoringWAL: Bool = false) throws {
    let flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX
    var allowed = CharacterSet.urlPathAllowed
    allowed.remove(charactersIn: "?#%")
    let path = url.path.addingPercentEncoding(withAllowedCharacters: allowed) ?? url.path
    let uri = "file:\(path)" + (ignoringWAL ? "?immutable=1" : "")
    var opened: OpaquePointer?
    let status = sqlite3_open_v2(uri, &opened, flags, nil)
    guard status == SQLITE_OK, let opened else {
      let message = opened.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
      sqlite3_close(opened)
      throw SQLiteFailure(code: status, message: message)
    }
    handle = opened
  }

  deinit {
    sqlite3_close(handle)
  }

  /// Runs `sql` and returns every row, each as its column values in select order, with the
  /// column names.
  func rows(_ sql: String) throws -> (columns: [String], rows: [[SQLiteValue]]) {
    var columns: [String] = []
    var rows: [[SQLiteValue]] = []
    try forEachRow(sql, columns: { columns = $0 }) { rows.append($0) }
    return (columns, rows)
  }

  /// Runs `sql`, handing over the column names once and then each row in turn, so a large table
  /// never sits twice in memory.
  func forEachRow(_ sql: String, columns: ([String]) throws -> Void, _ body: ([SQLiteValue]) throws -> Void) throws {
    var statement: OpaquePointer?
    let prepared = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
    guard prepared == SQLITE_OK, let statement else {
      throw failure(prepared)
    }
    defer { sqlite3_finalize(statement) }
    let count = Int(sqlite3_column_count(statement))
    try columns((0..<count).map { String(cString: sqlite3_column_name(statement, Int32($0))) })
    while true {
      let stepped = sqlite3_step(statement)
      if stepped == SQLITE_DONE { return }
      guard stepped == SQLITE_ROW else { throw failure(stepped) }
      try body((0..<count).map { value(statement, Int32($0)) })
    }
  }

  /// The first column of the first row, or `nil` when there is no row.
  func scalar(_ sql: String) throws -> SQLiteValue? {
    try rows(sql).rows.first?.first
  }

  private func value(_ statement: OpaquePointer, _ index: Int32) -> SQLiteValue {
    switch sqlite3_column_type(statement, index) {
    case SQLITE_INTEGER:
      return .integer(sqlite3_column_int64(statement, index))
    case SQLITE_FLOAT:
      return .real(sqlite3_column_double(statement, index))
    case SQLITE_TEXT:
      guard let text = sqlite3_column_text(statement, index) else { return .text("") }
      let length = Int(sqlite3_column_bytes(statement, index))
      return .text(String(decoding: UnsafeBufferPointer(start: text, count: length), as: UTF8.self))
    case SQLITE_BLOB:
      let length = Int(sqlite3_column_bytes(statement, index))
      guard length > 0, let bytes = sqlite3_column_blob(statement, index) else { return .blob(Data()) }
      return .blob(Data(bytes: bytes, count: length))
    default:
      return .null
    }
  }

  private func failure(_ status: Int32) -> SQLiteFailure {
    SQLiteFailure(code: status, message: String(cString: sqlite3_errmsg(handle)))
  }

  /// `"name"` quoted as an SQL identifier.
  static func quoted(_ identifier: String) -> String {
    "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }
}
