import Observation

/// Results that follow the store: what SwiftUI's `@Query` and `@FetchRequest`,
/// `NSFetchedResultsController` and GRDB's `ValueObservation` are to their stores.
///
/// A live query fetches once when it is made, then again after every commit that touches one of
/// its entities: a save in any context of this process, another process's commit (file
/// containers watch their folder; see ``StoreOptions/watchesOtherProcesses``), and a reload after
/// another process compacted away commits this one had not read yet. Changes that arrive while
/// the main actor is busy are coalesced: a burst of saves, one refetch. It is `@Observable`, so
/// a view (or a view model) that reads ``results`` is updated when they change.
///
/// ```swift
/// @MainActor @Observable final class NotesModel {
///   let notes: LiveQuery<[Note]>
///   init(container: StoreContainer) throws {
///     notes = try container.liveQuery(FetchDescriptor<Note>(sortBy: [SortDescriptor(\.text)]))
///   }
///   var titles: [String] { notes.results.map(\.text) }  // follows the store
/// }
/// ```
///
/// A query of a descriptor, and a value computed from a snapshot of a screen's state
/// (``StoreContainer/liveQuery(tracking:state:_:)``), refetch off the main actor and deliver
/// their results on it, so a long list decodes on the cooperative pool, not on the UI's thread;
/// a value tracked by ``StoreContainer/liveQuery(tracking:_:)`` is computed on the main actor,
/// where it may read the screen itself. The first fetch and ``refetch()`` run at once, on the
/// main actor. Releasing the query stops it: its listening task holds it weakly, stops
/// listening and ends.
@MainActor @Observable
public final class LiveQuery<Value> {
  /// The latest results; they change after a commit that touches the query's entities.
  public private(set) var results: Value
  /// The error of the latest refetch, nil once one succeeds; ``results`` keep the last good value.
  public private(set) var error: (any Error)?
  /// Told the new results on the main actor each time a refetch delivers them (not the first
  /// fetch's): for a model whose own state derives from them (a screen's filters over the list).
  @ObservationIgnored public var onChange: (@MainActor (Value) -> Void)?

  @ObservationIgnored private let fetch: (StoreContext) throws -> Value
  /// The fetch made off the main actor: begun on it (a screen's state read there, no hop before the
  /// fetch's), run detached, with whether it ran on the main thread (for tests);
  /// nil when `fetch` must run on the main actor.
  @ObservationIgnored private let fetchOffMain: (@MainActor (StoreContainer) async throws -> sending (Value, onMainThread: Bool))?
  /// Counts fetches begun: a fetch off the main actor whose results come back after a later
  /// one began (a ``refetch()`` meanwhile) is dropped, never shown over newer results.
  @ObservationIgnored private var generation = 0
  /// Whether the latest fetch after a change ran on the main thread: for tests.
  @ObservationIgnored private(set) var lastFetchRanOnMainThread = true
  @ObservationIgnored private let container: StoreContainer
  @ObservationIgnored let monitor: StoreChangeMonitor
  /// How many times the results were fetched, the first fetch included: for tests.
  @ObservationIgnored private(set) var fetchCount = 1
  /// The task that waits for changes: for tests that prove it ends with the query.
  @ObservationIgnored private(set) var listener: Task<Void, Never>?

  init(
    container: StoreContainer, tracking entities: Set<String>, fetch: @escaping (StoreContext) throws -> Value,
    offMain fetchOffMain: (@MainActor (StoreContainer) async throws -> sending (Value, onMainThread: Bool))? = nil
  ) throws {
    // Listen before the first fetch, so that no commit falls between the two.
    let monitor = StoreChangeMonitor(container: container, entities: entities)
    _ = monitor.takeChange()
    self.results = try fetch(container.newBackgroundContext())
    self.fetch = fetch
    self.fetchOffMain = fetchOffMain
    self.container = container
    self.monitor = monitor
    let listener = Task { [weak self] in
      while await monitor.wait() {
        guard let self else { return }
        await self.refetchIfChanged()
      }
    }
    monitor.attach(listener)
    self.listener = listener
  }

  deinit {
    monitor.stop()
  }

  /// Fetches now, whether or not the store changed (e.g. after a change the query cannot see:
  /// a clock that moved on, a preference outside the store).
  /// - Throws: the fetch's error; it is also kept in ``error``.
  public func refetch() throws {
    _ = monitor.takeChange()
    fetchCount += 1
    generation += 1
    do {
      results = try fetch(container.newBackgroundContext())
      error = nil
      onChange?(results)
    } catch {
      self.error = error
      throw error
    }
  }

  private func refetchIfChanged() async {
    guard monitor.takeChange() else { return }  // a refetch() already covered it
    guard let fetchOffMain else {
      try? refetch()  // kept in `error` for the UI; the results stay as they were
      return
    }
    fetchCount += 1
    generation += 1
    let started = generation
    do {
      let (value, onMainThread) = try await fetchOffMain(container)
      guard generation == started else { return }
      results = value
      error = nil
      lastFetchRanOnMainThread = onMainThread
      onChange?(value)
    } catch {
      if generation == started { self.error = error }
    }
  }
}
