import Foundation
import PlainStore

/// The `migrationCompleted` record: the legacy import finished, for which schema version, when.
///
/// Kept in the app group's ``KeyValueStore`` under `migrationCompleted`, with the schema version
/// (<doc:Importer>). The importer writes it last; while it
/// is missing or older than the current schema, the importer runs (if ``FeatureFlags`` allow).
public struct MigrationRecord: Codable, Sendable, Hashable {
  /// The key in the key-value store.
  public static let key = "migrationCompleted"

  /// The store schema version the import completed for.
  public var schemaVersion: Int
  /// When it completed.
  public var completedAt: Date

  public init(schemaVersion: Int, completedAt: Date) {
    self.schemaVersion = schemaVersion
    self.completedAt = completedAt
  }

  private enum CodingKeys: String, CodingKey {
    case schemaVersion, completedAt
  }

  /// Reads `completedAt` as ISO 8601 text, or as the seconds since 2001 that earlier versions
  /// wrote (Foundation's default).
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    schemaVersion = try container.decode(Int.self, forKey: .schemaVersion)
    if let text = try? container.decode(String.self, forKey: .completedAt) {
      guard let date = ISO8601.parse(text) else {
        throw DecodingError.dataCorruptedError(forKey: .completedAt, in: container, debugDescription: "'\(text)' is not an ISO 8601 time")
      }
      completedAt = date
    } else {
      completedAt = Date(timeIntervalSinceReferenceDate: try container.decode(Double.self, forKey: .completedAt))
    }
  }

  /// Writes `completedAt` as exact ISO 8601 UTC text, readable in the preferences file.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(schemaVersion, forKey: .schemaVersion)
    try container.encode(ISO8601.format(completedAt), forKey: .completedAt)
  }

  /// The record in `store`, or `nil` if no import has completed.
  ///
  /// - Throws: ``KeyValueStoreError`` if the store cannot be read or the value is damaged.
  public static func load(from store: any KeyValueStore) throws -> MigrationRecord? {
    guard let data = try store.data(forKey: key) else { return nil }
    do {
      return try JSONDecoder().decode(MigrationRecord.self, from: data)
    } catch {
      throw KeyValueStoreError(
        code: .damaged, path: key,
        detail: "not a migration record (\(FileKeyValueStore.reason(error))); remove it and the "
          + "importer runs again, which changes nothing already imported")
    }
  }

  /// Writes this record to `store`.
  ///
  /// The date is kept as exact ISO 8601 text (`2026-01-15T09:30:01.25Z`), which round-trips exactly.
  public func save(to store: any KeyValueStore) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    try store.set(try encoder.encode(self), forKey: Self.key)
  }

  /// Removes the record, so that the importer runs again.
  public static func remove(from store: any KeyValueStore) throws {
    try store.remove(forKey: key)
  }

  /// Whether the importer should run: the flag is on and no import completed for `schemaVersion`
  /// or later.
  public static func importerShouldRun(
    flags: FeatureFlags, record: MigrationRecord?, schemaVersion: Int
  ) -> Bool {
    guard flags.legacyImporter else { return false }
    guard let record else { return true }
    return record.schemaVersion < schemaVersion
  }
}
