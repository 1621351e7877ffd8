import Foundation

/// The values of a ``KeyValueStore`` as read at one moment, read-only: the launch step decides
/// on one read of the preferences file instead of one per value.
struct KeyValueSnapshot: KeyValueStore {
  let values: [String: Data]

  init(of store: any KeyValueStore) throws {
    values = try store.allValues()
  }

  func data(forKey key: String) throws -> Data? { values[key] }
  func allKeys() throws -> [String] { values.keys.sorted() }
  func allValues() throws -> [String: Data] { values }

  func set(_ data: Data, forKey key: String) throws { throw readOnly(key) }
  func remove(forKey key: String) throws { throw readOnly(key) }
  func moveValue(fromKey oldKey: String, toKey newKey: String) throws { throw readOnly(oldKey) }

  private func readOnly(_ key: String) -> KeyValueStoreError {
    KeyValueStoreError(code: .io, path: key, detail: "a snapshot of the preferences is read-only (a bug: write to the store itself)")
  }
}
