import Foundation

/// A small store of keyed values shared by the app, its widget and the `babydash` tool.
///
/// ``LastFeedAmountCache``, ``FeatureFlags`` and ``MigrationRecord`` sit on it. Three
/// implementations pass the same tests: ``UserDefaultsKeyValueStore`` (a suite named after the
/// app group; what the app uses on Apple platforms), ``FileKeyValueStore`` (an atomic JSON file
/// in the app-group folder under a lock; the default on Linux) and ``InMemoryKeyValueStore``
/// (tests and previews).
///
/// Values are opaque bytes; callers encode them (JSON for the cache). A store that cannot read
/// its data throws rather than answering as if it were empty.
public protocol KeyValueStore: Sendable {
  /// The value for `key`, or `nil` if there is none.
  func data(forKey key: String) throws -> Data?
  /// Stores `data` under `key`, replacing any value.
  func set(_ data: Data, forKey key: String) throws
  /// Removes the value for `key`; removing a missing key does nothing.
  func remove(forKey key: String) throws
  /// All keys that have a value, sorted.
  func allKeys() throws -> [String]
  /// Moves the value of `oldKey` to `newKey` in one step, replacing any value at `newKey`.
  ///
  /// Does nothing if `oldKey` has no value (and then leaves `newKey` alone).
  func moveValue(fromKey oldKey: String, toKey newKey: String) throws
  /// Every value by key, read at once (one read of a file store): for a step that decides on
  /// several values, as the launch step does.
  func allValues() throws -> [String: Data]
}

extension KeyValueStore {
  /// Every value by key, key by key.
  public func allValues() throws -> [String: Data] {
    var values: [String: Data] = [:]
    for key in try allKeys() { values[key] = try data(forKey: key) }
    return values
  }

  /// The keys that start with `prefix`, sorted.
  public func keys(withPrefix prefix: String) throws -> [String] {
    try allKeys().filter { $0.hasPrefix(prefix) }
  }
}
