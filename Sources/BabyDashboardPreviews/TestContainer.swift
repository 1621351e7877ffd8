import BabyDashboard
import Foundation
import PlainStore

/// A seeded store in a fresh temporary folder, for one test: SEED-SPEC.md's
/// TestPersistentContainer. It runs the same file code as the app's store; ``tearDown()``
/// removes the folder.
///
/// ```swift
/// let store = try PreviewContainers.test(scenario: .twoBabies, world: .standard)
/// defer { try? store.tearDown() }
/// ```
public final class TestContainer: Sendable {
  public let container: StoreContainer
  public let cache: LastFeedAmountCache

  init(container: StoreContainer, cache: LastFeedAmountCache) {
    self.container = container
    self.cache = cache
  }

  /// The store's folder (gone after ``tearDown()``).
  public var directory: URL? { container.directory }

  /// Removes the store's folder. Idempotent.
  ///
  /// - Throws: the file system's error if the folder cannot be removed.
  public func tearDown() throws {
    guard let directory = container.directory,
      FileManager.default.fileExists(atPath: directory.deletingLastPathComponent().path)
    else { return }
    try container.destroy()
  }
}
