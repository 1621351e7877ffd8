import BabyDashboard
import BabyDashboardFixtures
import BabyDashboardText
import Foundation
import PlainStore

/// A store in a fresh temporary folder with an in-memory last-feed-amount cache, for one test:
/// the package's one temporary container. It runs the same file code as the app's store;
/// ``tearDown()`` removes the folder.
///
/// ```swift
/// let store = try PreviewContainers.test(scenario: .twoBabies, world: .standard)
/// defer { try? store.tearDown() }
/// ```
public final class TestContainer: Sendable {
  public let container: StoreContainer
  /// The in-memory key-value store under ``cache``, seen as the app's code sees any store.
  public let keyValues: any KeyValueStore
  public let cache: LastFeedAmountCache

  init(container: StoreContainer, keyValues: InMemoryKeyValueStore) {
    self.container = container
    self.keyValues = keyValues
    self.cache = LastFeedAmountCache(store: keyValues)
  }

  /// An empty store whose transactions are stamped by `clock`.
  ///
  /// - Throws: `StoreError` if the temporary folder cannot be made.
  public convenience init(author: String = "test", clock: @escaping @Sendable () -> Date = { Date() }) throws {
    let container = try StoreContainer.temporary(
      schema: BabyDashboardSchema.current, options: StoreOptions(author: author, clock: clock))
    self.init(container: container, keyValues: InMemoryKeyValueStore())
  }

  /// The store's folder (gone after ``tearDown()``).
  public var directory: URL? { container.directory }

  /// A fresh context, so that reads see only what was saved.
  public var reader: StoreContext { container.newBackgroundContext() }

  /// Inserts and saves `babies`, `feeds` and `diapers` on a background context.
  ///
  /// - Throws: `StoreError` from the save.
  public func seed(_ babies: [BabyProfile] = [], feeds: [FeedSession] = [], diapers: [DiaperChange] = []) throws {
    let context = container.newBackgroundContext(author: "seed")
    try FixtureSet(babies: babies, feeds: feeds, diapers: diapers).insert(into: context, cache: nil)
    try context.save()
  }

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

extension PreviewContainers {
  /// A file store in a fresh temporary folder, seeded by `seed` on a background context and
  /// saved; call ``TestContainer/tearDown()`` when the test ends.
  ///
  /// - Throws: what `seed` throws (the folder is removed first), or `StoreError`.
  public static func test(
    options: StoreOptions = StoreOptions(author: "test"),
    seed: (StoreContext) throws -> Void = { _ in }
  ) throws -> TestContainer {
    let container = try StoreContainer.temporary(schema: BabyDashboardSchema.current, options: options)
    let store = TestContainer(container: container, keyValues: InMemoryKeyValueStore())
    try seedAndSave(store, seed)
    return store
  }

  /// A temporary file store and an in-memory cache holding `scenario` in `world`; transactions
  /// are stamped with `world.now`.
  public static func test(scenario: Scenario, world: PreviewWorld) throws -> TestContainer {
    let now = world.now
    let store = try TestContainer(clock: { now })
    try seedAndSave(store) { try scenario.seed(into: $0, cache: store.cache, world: world) }
    return store
  }

  private static func seedAndSave(_ store: TestContainer, _ seed: (StoreContext) throws -> Void) throws {
    do {
      let context = store.container.newBackgroundContext()
      try seed(context)
      try context.save()
    } catch {
      try? store.tearDown()  // the seed's error is the one to report; the folder must not stay
      throw error
    }
  }
}
