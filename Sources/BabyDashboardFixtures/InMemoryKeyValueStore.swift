import BabyDashboard
import Foundation
import PlainStore

/// A ``KeyValueStore`` in memory, for tests and previews; it never touches the disk.
///
/// A real part of the API, not a test hack: it behaves like the other stores, and a preview can
/// seed it with the last-feed amounts it shows.
public final class InMemoryKeyValueStore: KeyValueStore {
  private let values: StoreMutex<[String: Data]>

  /// An empty store, or one holding `values`.
  public init(_ values: [String: Data] = [:]) {
    self.values = StoreMutex(values)
  }

  public func data(forKey key: String) -> Data? {
    values.withLock { $0[key] }
  }

  public func set(_ data: Data, forKey key: String) {
    values.withLock { $0[key] = data }
  }

  public func remove(forKey key: String) {
    values.withLock { $0[key] = nil }
  }

  public func allKeys() -> [String] {
    values.withLock { $0.keys.sorted() }
  }

  public func moveValue(fromKey oldKey: String, toKey newKey: String) {
    values.withLock { values in
      guard oldKey != newKey, let value = values.removeValue(forKey: oldKey) else { return }
      values[newKey] = value
    }
  }
}
