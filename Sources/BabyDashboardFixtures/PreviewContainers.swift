import BabyDashboard
import BabyDashboardText
import PlainStore

/// In-memory stores for previews, seeded from the fixtures; the testing product adds
/// `PreviewContainers.test`, throw-away file stores seeded the same way.
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

  private static func seedAndSave(_ container: StoreContainer, _ seed: (StoreContext) throws -> Void) throws {
    let context = container.newBackgroundContext()
    try seed(context)
    try context.save()
  }
}
