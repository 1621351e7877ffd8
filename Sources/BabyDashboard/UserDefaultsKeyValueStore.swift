import Foundation
import PlainStore

/// A ``KeyValueStore`` on a `UserDefaults` suite: what the app uses on Apple platforms.
///
/// The suite is named after the app group, so the widget reads the same values. Values are
/// stored as `Data` (property-list safe; Linux `UserDefaults` crashes on other Codable values).
/// On Linux `UserDefaults` is not `Sendable` and writes only on `synchronize()`: it is confined
/// behind a mutex here and synchronized after each change. It does not guard against two
/// processes writing at once there; ``FileKeyValueStore`` does.
public final class UserDefaultsKeyValueStore: @unchecked Sendable, KeyValueStore {
  // @unchecked: `defaults` is only touched inside `lock`.
  private let defaults: UserDefaults
  private let lock = StoreMutex(())

  /// The suite's name.
  public let suiteName: String

  /// A store on the suite `suiteName`.
  ///
  /// - Throws: ``KeyValueStoreError`` if `UserDefaults` refuses the name (e.g. the app's own
  ///   bundle identifier, or `NSGlobalDomain`).
  public init(suiteName: String) throws {
    guard let defaults = UserDefaults(suiteName: suiteName) else {
      throw KeyValueStoreError(
        code: .io, path: suiteName,
        detail: "UserDefaults refused this suite name; use the app group's identifier")
    }
    self.defaults = defaults
    self.suiteName = suiteName
  }

  /// A store on the app group's suite.
  public convenience init(appGroup: AppGroup) throws {
    try self.init(suiteName: appGroup.identifier)
  }

  public func data(forKey key: String) throws -> Data? {
    try lock.withLock { _ in
      guard let object = defaults.object(forKey: key) else { return nil }
      guard let data = object as? Data else {
        throw KeyValueStoreError(
          code: .damaged, path: "\(suiteName) / \(key)",
          detail: "holds a \(type(of: object)), not data; remove the key to start over")
      }
      return data
    }
  }

  public func set(_ data: Data, forKey key: String) {
    lock.withLock { _ in
      defaults.set(data, forKey: key)
      synchronizeIfNeeded()
    }
  }

  public func remove(forKey key: String) {
    lock.withLock { _ in
      defaults.removeObject(forKey: key)
      synchronizeIfNeeded()
    }
  }

  public func allKeys() -> [String] {
    lock.withLock { _ in
      // Only the suite's own domain: `dictionaryRepresentation()` also holds global defaults.
      (defaults.persistentDomain(forName: suiteName) ?? [:]).keys.sorted()
    }
  }

  public func moveValue(fromKey oldKey: String, toKey newKey: String) {
    lock.withLock { _ in
      guard oldKey != newKey, let value = defaults.object(forKey: oldKey) else { return }
      defaults.set(value, forKey: newKey)
      defaults.removeObject(forKey: oldKey)
      synchronizeIfNeeded()
    }
  }

  /// Removes every key of the suite (tests call it to clean up their unique suite).
  public func removeAll() {
    lock.withLock { _ in
      defaults.removePersistentDomain(forName: suiteName)
      synchronizeIfNeeded()
    }
  }

  private func synchronizeIfNeeded() {
    #if !canImport(Darwin)
      // Linux UserDefaults writes its plist only here; Apple platforms persist by themselves.
      defaults.synchronize()
    #endif
  }
}
