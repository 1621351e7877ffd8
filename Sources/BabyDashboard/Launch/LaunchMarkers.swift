import Foundation
import PlainStore

/// Phase A's "done" marker: the one-time backfill of ``LastFeedAmountCache`` ran to its end,
/// when, and what it found. Kept in the app group's ``KeyValueStore`` under
/// `lastFeedAmountBackfillCompleted`; while it is missing, the launch step runs the backfill
/// (which never replaces a value, so a run cut short is simply run again).
public struct LastFeedAmountBackfillRecord: Codable, Sendable, Hashable {
  /// The key in the key-value store.
  public static let key = "lastFeedAmountBackfillCompleted"

  /// When it completed, as exact ISO 8601 text.
  public var completedAt: String
  public var babies: Int
  public var backfilled: Int

  public init(completedAt: Date, report: LastFeedAmountBackfillReport) {
    self.completedAt = ISO8601.formatMilliseconds(completedAt)
    babies = report.babies
    backfilled = report.backfilled
  }

  /// The record in `store`, or `nil` while the backfill has not completed.
  ///
  /// - Throws: ``KeyValueStoreError`` when it cannot be read or is damaged.
  public static func load(from store: any KeyValueStore) throws -> LastFeedAmountBackfillRecord? {
    guard let data = try store.data(forKey: key) else { return nil }
    do {
      return try JSONDecoder().decode(LastFeedAmountBackfillRecord.self, from: data)
    } catch {
      throw KeyValueStoreError(
        code: .damaged, path: key,
        detail: "not a backfill record (\(FileKeyValueStore.reason(error))); remove it, the next launch backfills again, which replaces no value")
    }
  }

  public func save(to store: any KeyValueStore) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    try store.set(try encoder.encode(self), forKey: Self.key)
  }
}

/// Written when a launch starts its work and removed when it ends: found by the next launch, it
/// says the last one was killed or crashed part-way (counted in ``LaunchTelemetry/crashes``).
struct LaunchInProgress: Codable, Sendable, Hashable {
  static let key = "launchInProgress"

  var startedAt: String

  static func isSet(in store: any KeyValueStore) throws -> Bool {
    try store.data(forKey: key) != nil
  }

  static func set(startedAt: Date, in store: any KeyValueStore) throws {
    try store.set(try JSONEncoder().encode(LaunchInProgress(startedAt: ISO8601.formatMilliseconds(startedAt))), forKey: key)
  }

  static func clear(in store: any KeyValueStore) throws {
    try store.remove(forKey: key)
  }
}
