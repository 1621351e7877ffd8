import BabyDashboard
import BabyDashboardText
import Foundation
import PlainStore

/// A named set of fixtures, placed relative to a world's `now`: what previews render, tests
/// seed, and `babydash fixtures` writes into a store.
///
/// ```swift
/// let container = StoreContainer.inMemory(schema: BabyDashboardSchema.current)
/// let cache = LastFeedAmountCache(store: InMemoryKeyValueStore())
/// try Scenario.twoBabies.seed(container, cache: cache, world: .standard)
/// ```
public struct Scenario: Sendable, Identifiable, CustomStringConvertible {
  /// Stable, lowercase, dash-separated: the scenario part of preview file names.
  public let name: String
  /// One line saying what it holds.
  public let summary: String
  private let build: @Sendable (PreviewWorld) -> FixtureSet

  /// - Parameter build: the fixtures for a world; must depend on nothing else.
  public init(name: String, summary: String, build: @escaping @Sendable (PreviewWorld) -> FixtureSet) {
    self.name = name
    self.summary = summary
    self.build = build
  }

  public var id: String { name }
  public var description: String { name }

  /// Every scenario, in the catalog's order.
  public static let all: [Scenario] = [.empty, .twoBabies, .monthsOfHistory, .edgeCases]

  /// The scenario called `name`, or `nil`.
  public static func named(_ name: String) -> Scenario? {
    all.first { $0.name == name }
  }

  /// The scenario's objects in `world`.
  public func fixtures(in world: PreviewWorld) -> FixtureSet {
    build(world)
  }

  /// Inserts the scenario into `context` and its cached amounts into `cache`; does not save.
  public func seed(into context: StoreContext, cache: LastFeedAmountCache?, world: PreviewWorld) throws {
    try fixtures(in: world).insert(into: context, cache: cache)
  }

  /// Seeds `container` on a background context and saves before returning; writes the cached
  /// amounts into `cache` when one is given.
  ///
  /// - Throws: `StoreError` from the save (e.g. seeding twice into one store merges by the
  ///   uniqueness constraints rather than failing), ``KeyValueStoreError`` from the cache.
  public func seed(_ container: StoreContainer, cache: LastFeedAmountCache? = nil, world: PreviewWorld) throws {
    let context = container.newBackgroundContext(author: "fixtures")
    try seed(into: context, cache: cache, world: world)
    try context.save()
  }

  /// ``seed(_:cache:world:)`` in a world made of `now` and `timeZone` (what `babydash fixtures`
  /// calls with the real clock).
  public func seed(_ container: StoreContainer, cache: LastFeedAmountCache? = nil, now: Date, timeZone: TimeZone) throws {
    try seed(container, cache: cache, world: PreviewWorld(now: now, timeZone: timeZone))
  }
}

extension Scenario {
  /// No babies, no events: the first launch.
  public static let empty = Scenario(name: "empty", summary: "No babies and no events: the first launch.") { _ in
    FixtureSet()
  }
}
