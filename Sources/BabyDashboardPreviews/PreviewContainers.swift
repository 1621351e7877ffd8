import BabyDashboard
import Foundation
import PlainStore

/// In-memory stores for previews (SEED-SPEC.md's `PreviewContainers.default(seed:)`) and
/// throw-away file stores for tests, seeded the same way from the same fixtures.
///
/// ```swift
/// let container = try PreviewContainers.default { context in
///   try Scenario.twoBabies.seed(into: context, cache: nil, world: .standard)
/// }
/// let store = try PreviewContainers.default(scenario: .twoBabies, world: .standard)
/// ```
public enum PreviewContainers {
  /// An in-memory container (no file I/O) with the app's schema, seeded by `seed` on a
  /// background context and saved before it is returned.
  ///
  /// - Parameters:
  ///   - options: transaction author and clock; pass a fixed clock for identical histories.
  ///   - seed: inserts objects; it need not save.
  /// - Throws: what `seed` throws, or `StoreError` from the save.
  public static func `default`(
    options: StoreOptions = StoreOptions(author: "preview"),
    seed: (StoreContext) throws -> Void
  ) throws -> StoreContainer {
    let container = StoreContainer.inMemory(schema: BabyDashboardSchema.current, options: options)
    try seedAndSave(container, seed)
    return container
  }

  /// An in-memory container and cache holding `scenario` in `world`; transactions are stamped
  /// with `world.now`.
  public static func `default`(scenario: Scenario, world: PreviewWorld) throws -> PreviewStore {
    let cache = LastFeedAmountCache(store: InMemoryKeyValueStore())
    let now = world.now
    let container = try `default`(options: StoreOptions(author: "preview", clock: { now })) { context in
      try scenario.seed(into: context, cache: cache, world: world)
    }
    return PreviewStore(container: container, cache: cache)
  }

  /// A file store in a fresh temporary folder, seeded by `seed` on a background context and
  /// saved; call ``TestContainer/tearDown()`` when the test ends.
  public static func test(
    options: StoreOptions = StoreOptions(author: "test"),
    seed: (StoreContext) throws -> Void = { _ in }
  ) throws -> TestContainer {
    let container = try StoreContainer.temporary(schema: BabyDashboardSchema.current, options: options)
    do {
      try seedAndSave(container, seed)
    } catch {
      try? container.destroy()  // the seed's error is the one to report; the folder must not stay
      throw error
    }
    return TestContainer(container: container, cache: LastFeedAmountCache(store: InMemoryKeyValueStore()))
  }

  /// A temporary file store and an in-memory cache holding `scenario` in `world`.
  public static func test(scenario: Scenario, world: PreviewWorld) throws -> TestContainer {
    let cache = LastFeedAmountCache(store: InMemoryKeyValueStore())
    let now = world.now
    let container = try StoreContainer.temporary(
      schema: BabyDashboardSchema.current, options: StoreOptions(author: "test", clock: { now }))
    do {
      try seedAndSave(container) { try scenario.seed(into: $0, cache: cache, world: world) }
    } catch {
      try? container.destroy()  // the seed's error is the one to report; the folder must not stay
      throw error
    }
    return TestContainer(container: container, cache: cache)
  }

  private static func seedAndSave(_ container: StoreContainer, _ seed: (StoreContext) throws -> Void) throws {
    let context = container.newBackgroundContext()
    try seed(context)
    try context.save()
  }
}
