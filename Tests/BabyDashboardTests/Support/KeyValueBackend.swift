import BabyDashboard
import BabyDashboardFixtures
import BabyDashboardTesting
import Foundation

/// The key-value stores that must pass the same tests, each made fresh for one test.
enum KeyValueBackend: String, CaseIterable, Sendable {
  case userDefaults
  case file
  case inMemory

  /// A fresh, empty store, and how to clean it up.
  func make() throws -> (store: any KeyValueStore, cleanUp: @Sendable () -> Void) {
    switch self {
    case .userDefaults:
      // A unique suite per test, so tests never see each other's keys.
      let store = try UserDefaultsKeyValueStore(suiteName: "BabyDashboardTests.\(UUID().uuidString)")
      return (store, { store.removeAll() })
    case .file:
      let directory = try TemporaryDirectory()
      let store = FileKeyValueStore(appGroup: AppGroup(identifier: "group.test"), directory: directory.url)
      return (store, { directory.remove() })
    case .inMemory:
      return (InMemoryKeyValueStore(), {})
    }
  }
}
