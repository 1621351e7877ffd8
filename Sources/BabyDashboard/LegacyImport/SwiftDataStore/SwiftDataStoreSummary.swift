import Foundation

/// What ``SwiftDataStoreReader`` found in a SwiftData store, before anything is imported:
/// the framework that wrote it, its entities with their tables and row counts, and warnings.
///
/// Its ``description`` is what `babydash import` prints above the import report:
///
/// ```
/// SwiftData store 'BabyDashboard.sqlite' (with its -wal and -shm)
/// written by: Core Data framework 1345, model version 1.0.0, store 6C1F…
/// model: from Z_MODELCACHE
/// entity        table          rows
/// BabyProfile   ZBABYPROFILE      4
/// DiaperChange  ZDIAPERCHANGE     7
/// FeedSession   ZFEEDSESSION      9
/// also in the file (not imported): CHANGE, TRANSACTION, TRANSACTIONSTRING
/// warnings: none
/// ```
public struct SwiftDataStoreSummary: Sendable, Hashable, CustomStringConvertible {
  /// One of the app's entities as the file holds it.
  public struct Entity: Sendable, Hashable {
    /// The entity name (`FeedSession`).
    public var name: String
    /// Its table (`ZFEEDSESSION`).
    public var table: String
    /// Rows of this entity in the table (the `-wal` applied).
    public var rows: Int
  }

  /// Where the reader learnt the model's columns.
  public enum ModelSource: Sendable, Hashable {
    /// The archived model in `Z_MODELCACHE`, checked against the tables.
    case modelCache
    /// Core Data's naming rule alone; the reason the model cache was not used.
    case namingRule(String)
  }

  /// The source, as the reader names it.
  public var source: String
  /// Whether a `-wal` / `-shm` file lay beside the store (and was read with it).
  public var hadWAL: Bool
  public var hadSHM: Bool
  /// `NSPersistenceFrameworkVersion` from `Z_METADATA`.
  public var frameworkVersion: Int?
  /// `NSStoreModelVersionIdentifiers`: SwiftData's schema version.
  public var modelVersionIdentifiers: [String]
  /// `Z_METADATA.Z_UUID`.
  public var storeUUID: String?
  public var modelSource: ModelSource
  /// BabyProfile, DiaperChange and FeedSession, by name.
  public var entities: [Entity]
  /// The other entities of `Z_PRIMARYKEY` (history, CloudKit), by name: present, not imported.
  public var otherEntities: [String]
  /// Things the user should know that do not stop the import (pending CloudKit changes…).
  public var warnings: [String]

  public var description: String {
    var lines: [String] = []
    let companions = [hadWAL ? "-wal" : nil, hadSHM ? "-shm" : nil].compactMap { $0 }
    let besideIt = companions.isEmpty ? "no -wal or -shm beside it" : "with its \(companions.joined(separator: " and "))"
    lines.append("SwiftData store '\(source)' (\(besideIt))")
    var writer = ["Core Data framework \(frameworkVersion.map(String.init) ?? "unknown")"]
    if !modelVersionIdentifiers.isEmpty { writer.append("model version \(modelVersionIdentifiers.joined(separator: ", "))") }
    if let storeUUID { writer.append("store \(storeUUID)") }
    lines.append("written by: " + writer.joined(separator: ", "))
    switch modelSource {
    case .modelCache: lines.append("model: from Z_MODELCACHE")
    case .namingRule(let reason): lines.append("model: from Core Data's naming rule (\(reason))")
    }
    let rows = [["entity", "table", "rows"]] + entities.map { [$0.name, $0.table, "\($0.rows)"] }
    let widths = (0..<3).map { column in rows.map { $0[column].count }.max() ?? 0 }
    for row in rows {
      lines.append(
        row[0].padding(toLength: widths[0], withPad: " ", startingAt: 0) + "  "
          + row[1].padding(toLength: widths[1], withPad: " ", startingAt: 0) + "  "
          + String(repeating: " ", count: widths[2] - row[2].count) + row[2])
    }
    if !otherEntities.isEmpty {
      lines.append("also in the file (not imported): \(otherEntities.joined(separator: ", "))")
    }
    if warnings.isEmpty {
      lines.append("warnings: none")
    } else {
      lines.append("warnings: \(warnings.count)")
      lines.append(contentsOf: warnings.map { "  - \($0)" })
    }
    return lines.joined(separator: "\n")
  }
}
