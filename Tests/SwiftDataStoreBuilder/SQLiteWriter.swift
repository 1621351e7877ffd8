import CSQLite
import Foundation

/// A read-write SQLite connection for building test stores: statements, inserts with bound
/// values, and nothing else.
final class SQLiteWriter {
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// A value to bind.
  enum Value {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)
  }

  private var handle: OpaquePointer?

  init(creating url: URL) throws {
    var opened: OpaquePointer?
    let status = sqlite3_open_v2(url.path, &opened, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil)
    guard status == SQLITE_OK, let opened else {
      sqlite3_close(opened)
      throw Failure(description: "cannot create \(url.path): SQLite status \(status)")
    }
    handle = opened
  }

  deinit {
    sqlite3_close(handle)
  }

  /// Closes now (checkpointing the WAL into the main file, as the last connection does).
  func close() {
    sqlite3_close(handle)
    handle = nil
  }

  func execute(_ sql: String) throws {
    var message: UnsafeMutablePointer<CChar>?
    guard sqlite3_exec(handle, sql, nil, nil, &message) == SQLITE_OK else {
      let text = message.map { String(cString: $0) } ?? "unknown error"
      sqlite3_free(message)
      throw Failure(description: "\(text) in: \(sql)")
    }
  }

  /// Inserts one row of `values` into `table`'s `columns`.
  func insert(into table: String, _ row: [(column: String, value: Value)]) throws {
    let sql = "INSERT INTO \(table) (\(row.map(\.column).joined(separator: ", "))) VALUES (\(row.map { _ in "?" }.joined(separator: ", ")))"
    var statement: OpaquePointer?
    guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
      throw Failure(description: "\(String(cString: sqlite3_errmsg(handle))) in: \(sql)")
    }
    defer { sqlite3_finalize(statement) }
    // SQLITE_TRANSIENT: SQLite copies the bytes before the call returns.
    let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
    for (offset, entry) in row.enumerated() {
      let index = Int32(offset + 1)
      switch entry.value {
      case .null: sqlite3_bind_null(statement, index)
      case .integer(let value): sqlite3_bind_int64(statement, index, value)
      case .real(let value): sqlite3_bind_double(statement, index, value)
      case .text(let value): sqlite3_bind_text(statement, index, value, -1, transient)
      case .blob(let data):
        let status =
          data.isEmpty
          ? sqlite3_bind_zeroblob(statement, index, 0)
          : data.withUnsafeBytes { sqlite3_bind_blob(statement, index, $0.baseAddress, Int32($0.count), transient) }
        guard status == SQLITE_OK else { throw Failure(description: "cannot bind a blob: SQLite status \(status)") }
      }
    }
    guard sqlite3_step(statement) == SQLITE_DONE else {
      throw Failure(description: "\(String(cString: sqlite3_errmsg(handle))) in: \(sql)")
    }
  }
}
