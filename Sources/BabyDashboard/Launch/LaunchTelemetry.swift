import Foundation
import PlainStore

/// What the launch step counted, kept in the app group's ``KeyValueStore`` under `launchTelemetry`
/// for the app to send: the rollout's figures, beside this device's cohort and its group under
/// each flag.
///
/// The counts add up over launches (until the app sends them and calls ``reset(in:)``). A
/// failure is counted, never thrown: validation errors (the SwiftData store refused as bad
/// data), import failures (the store or the file system refused), divergences (the store does
/// not hold what the SwiftData store does after an import), backfill errors, refused flags
/// documents, and crashes (a launch that started its work and never finished, counted at the
/// next launch). Comparing the enabled group's figures with the control group's, across
/// devices, is the server's part; each report carries the groups it belongs to.
public struct LaunchTelemetry: Codable, Sendable, Hashable {
  /// The key in the key-value store.
  public static let key = "launchTelemetry"
  /// The format this code writes.
  public static let formatVersion = 1

  // Field names never differ only by case at the same place (backfillErrors, backfilledBabies):
  // the preferences file keeps a value readable only when Foundation's key order is JSONEncoder's.
  public var formatVersion = LaunchTelemetry.formatVersion
  /// This device's cohort, 0–99, or `nil` without a device id.
  public var cohort: Int?
  /// This device's group under each flag, by flag name, at the last launch.
  public var groups: [String: DeviceCohort.Group] = [:]
  /// The app version of the last launch, if the app gave it.
  public var appVersion: String?
  /// Launches that had work to do and ran to their end (a launch with nothing to do writes
  /// nothing; a killed one is counted in ``crashes`` by the next).
  public var launches = 0
  /// Launches that started their work and did not finish it (killed, crashed).
  public var crashes = 0
  /// Imports refused because the SwiftData store is not valid data.
  public var validationErrors = 0
  /// Imports that failed for the store or the file system (resumed at the next launch).
  public var importFailures = 0
  /// Imports after which the store did not hold what the SwiftData store does.
  public var divergences = 0
  /// Phase A backfills that failed.
  public var backfillErrors = 0
  /// Launches that found the flags document damaged (and used the other sources).
  public var flagDocumentRefusals = 0
  /// Objects the imports wrote.
  public var objectsImported = 0
  /// The last Phase A backfill's babies and how many of them received a value.
  public var babiesAtBackfill = 0
  public var babiesBackfilled = 0
  /// The last error, in words.
  public var lastError: String?
  /// When it was last written, as ISO 8601 text.
  public var updatedAt = ""

  public init() {}

  /// The telemetry in `store`, or an empty one.
  ///
  /// - Throws: ``KeyValueStoreError`` when it cannot be read or is damaged.
  public static func load(from store: any KeyValueStore) throws -> LaunchTelemetry {
    guard let data = try store.data(forKey: key) else { return LaunchTelemetry() }
    do {
      return try JSONDecoder().decode(LaunchTelemetry.self, from: data)
    } catch {
      throw KeyValueStoreError(
        code: .damaged, path: key,
        detail: "not a launch telemetry report (\(FileKeyValueStore.reason(error))); remove it, the next launch starts counting again")
    }
  }

  /// Writes it to `store`, replacing the previous one.
  public func save(to store: any KeyValueStore) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    try store.set(try encoder.encode(self), forKey: Self.key)
  }

  /// Removes it, once the app has sent it.
  public static func reset(in store: any KeyValueStore) throws {
    try store.remove(forKey: key)
  }
}
