import Foundation
import PlainStore

/// The log of the last legacy import that wrote to the store (or failed), kept for
/// `babydash stats`: the spec's migration telemetry (start, end, duration, per-entity counts,
/// errors). `babydash import` and the launch step (``BabyDashboardLaunch``) write it.
///
/// Stored in the app group's ``KeyValueStore`` under `migrationLog` as readable JSON: the report's
/// lines as `babydash import` printed them.
public struct MigrationLog: Codable, Sendable, Hashable {
  /// The key in the key-value store.
  public static let key = "migrationLog"

  /// The report, one line per element.
  public var lines: [String]

  public init(lines: [String]) {
    self.lines = lines
  }

  /// The log of `report`.
  public init(_ report: LegacyImportReport) {
    self.init(lines: report.description.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
  }

  /// The log of an import that failed: its report so far if it has one, else its times, and the
  /// error.
  public init(failed error: any Error, report: LegacyImportReport?, startedAt: Date, finishedAt: Date) {
    var lines = report.map { MigrationLog($0).lines } ?? [
      "legacy import: failed",
      "started:  \(ISO8601.formatMilliseconds(startedAt))",
      "finished: \(ISO8601.formatMilliseconds(finishedAt))",
      "duration: \(LegacyImportReport.seconds(finishedAt.timeIntervalSince(startedAt)))",
    ]
    lines.append("failed: \(error)")
    self.init(lines: lines)
  }

  /// The log in `store`, or nil if no import was logged.
  ///
  /// - Throws: ``KeyValueStoreError`` if the store cannot be read or the value is damaged.
  public static func load(from store: any KeyValueStore) throws -> MigrationLog? {
    guard let data = try store.data(forKey: key) else { return nil }
    do {
      return try JSONDecoder().decode(MigrationLog.self, from: data)
    } catch {
      throw KeyValueStoreError(
        code: .damaged, path: key,
        detail: "not a migration log (\(FileKeyValueStore.reason(error))); remove it, the next import writes it again")
    }
  }

  /// Writes this log to `store`, replacing the previous one.
  public func save(to store: any KeyValueStore) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    try store.set(try encoder.encode(self), forKey: Self.key)
  }
}
