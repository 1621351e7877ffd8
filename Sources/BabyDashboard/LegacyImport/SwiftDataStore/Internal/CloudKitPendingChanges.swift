import Foundation

/// What CloudKit mirroring had not finished when the store was copied, from
/// `ANSCKRECORDMETADATA` (research §1.6): rows never uploaded, and deletions iCloud has not had.
///
/// Only counted, for warnings: the rows themselves are in the store and are imported; a pending
/// cloud delete means iCloud may still hold a record this device deleted.
struct CloudKitPendingChanges: Equatable {
  /// Rows with `ZNEEDSUPLOAD` set, by entity name.
  var uploads: [String: Int] = [:]
  /// Rows with `ZNEEDSCLOUDDELETE` set, by entity name.
  var cloudDeletes: [String: Int] = [:]
  /// Why the table could not be read, when it is there but not in the expected shape.
  var problem: String?

  static let table = "ANSCKRECORDMETADATA"

  /// Counts pending changes of `entities`; an empty result when the store has no CloudKit table.
  init(reading connection: SQLiteConnection, schema: inout CoreDataSchema, entities: [CoreDataSchema.Entity]) throws {
    guard schema.tables.contains(Self.table) else { return }
    let columns = try schema.columns(of: Self.table, in: connection)
    let needed = ["ZENTITYID", "ZNEEDSUPLOAD", "ZNEEDSCLOUDDELETE"]
    let missing = needed.filter { !columns.contains($0) }
    guard missing.isEmpty else {
      problem = "\(Self.table) has no \(missing.joined(separator: ", ")) column, so pending CloudKit changes cannot be counted"
      return
    }
    let names = Dictionary(entities.map { ($0.number, $0.name) }, uniquingKeysWith: { first, _ in first })
    let sql = """
      SELECT ZENTITYID, SUM(ZNEEDSUPLOAD = 1), SUM(ZNEEDSCLOUDDELETE = 1) FROM \(Self.table)
      GROUP BY ZENTITYID ORDER BY ZENTITYID
      """
    for row in try connection.rows(sql).rows {
      guard case .integer(let entity) = row[0], let name = names[entity] else { continue }
      if case .integer(let count) = row[1], count > 0 { uploads[name, default: 0] += Int(count) }
      if case .integer(let count) = row[2], count > 0 { cloudDeletes[name, default: 0] += Int(count) }
    }
  }

  /// One warning per entity and kind, in entity-name order.
  var warnings: [String] {
    var lines: [String] = []
    for (name, count) in uploads.sorted(by: { $0.key < $1.key }) {
      lines.append(
        "\(count) \(name) row\(count == 1 ? "" : "s") never reached iCloud (\(Self.table).ZNEEDSUPLOAD): "
          + "imported from this file, but another device of the family does not have \(count == 1 ? "it" : "them")")
    }
    for (name, count) in cloudDeletes.sorted(by: { $0.key < $1.key }) {
      lines.append(
        "\(count) \(name) deletion\(count == 1 ? "" : "s") never reached iCloud (\(Self.table).ZNEEDSCLOUDDELETE): "
          + "iCloud may still hold \(count == 1 ? "that record" : "those records"); "
          + "this file does not, so \(count == 1 ? "it is" : "they are") not imported")
    }
    if let problem { lines.append(problem) }
    return lines
  }
}
