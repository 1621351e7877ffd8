import Foundation

extension StoreContainer {
  /// A query whose ``LiveQuery/results`` follow the store (see ``LiveQuery``).
  ///
  /// ```swift
  /// let notes = try container.liveQuery(FetchDescriptor<Note>(sortBy: [SortDescriptor(\.text)]))
  /// notes.results  // fetched now, and again after each commit that touches Note
  /// ```
  /// The fetches see the store as committed, not a context's unsaved changes.
  /// - Throws: ``StoreError`` when the first fetch fails.
  @MainActor
  public func liveQuery<E: Entity>(_ descriptor: FetchDescriptor<E>) throws -> LiveQuery<[E]> {
    var descriptor = descriptor
    descriptor.includePendingChanges = false
    return try liveQuery(tracking: [E.self], state: {}) { [descriptor] context, _ in try context.fetch(descriptor) }
  }

  /// A value computed from the store off the main actor, as a screen's model wants it: after a
  /// commit that touches one of `entities`, `state` is read on the main actor (what the value
  /// depends on besides the store: the screen's clock, its settings), then `fetch` computes the
  /// value from that state and a fresh context on the cooperative pool, and the value is
  /// delivered on the main actor. The first fetch and ``LiveQuery/refetch()`` run at once, on
  /// the main actor.
  ///
  /// ```swift
  /// let tiles = try container.liveQuery(tracking: [Baby.self, Feed.self], state: { clock.now }) { context, now in
  ///   try Tiles(context, asOf: now)
  /// }
  /// ```
  @MainActor
  public func liveQuery<State: Sendable, Value: Sendable>(
    tracking entities: [any Entity.Type], state: @escaping @MainActor @Sendable () -> State,
    _ fetch: @escaping @Sendable (StoreContext, State) throws -> Value
  ) throws -> LiveQuery<Value> {
    try LiveQuery(container: self, tracking: Set(entities.map { $0.entityName }), fetch: { try fetch($0, state()) }) { @MainActor container in
      // The state now, on the main actor where the listener runs: no hop before the fetch's.
      let now = state()
      return try await Task.detached { (try fetch(container.newBackgroundContext(), now), onMainThread: Thread.isMainThread) }.value
    }
  }

  /// A value computed from the store that follows it, as GRDB's `ValueObservation.tracking`: the
  /// value is recomputed after each commit that touches one of `entities`.
  ///
  /// ```swift
  /// let summary = try container.liveQuery(tracking: [Owner.self, Event.self]) { context in
  ///   try Summary(owners: context.fetchCount(FetchDescriptor<Owner>()),
  ///               events: context.fetchCount(FetchDescriptor<Event>()))
  /// }
  /// ```
  /// - Parameters:
  ///   - entities: the entities `fetch` reads; commits that touch only others are ignored.
  ///   - fetch: computes the value from a fresh context, on the main actor.
  /// - Throws: what the first `fetch` throws.
  @MainActor
  public func liveQuery<Value>(
    tracking entities: [any Entity.Type], _ fetch: @escaping @MainActor (StoreContext) throws -> Value
  ) throws -> LiveQuery<Value> {
    try LiveQuery(container: self, tracking: Set(entities.map { $0.entityName }), fetch: fetch)
  }

  /// The results of `descriptor` now, then again after each commit that touches its entity, as
  /// an async sequence (coalesced: results not yet read are replaced by newer ones).
  ///
  /// ```swift
  /// for try await notes in container.observe(FetchDescriptor<Note>()) {
  ///   print(notes.count)
  /// }
  /// ```
  /// The sequence ends when the task that iterates it is cancelled.
  public func observe<E: Entity>(_ descriptor: FetchDescriptor<E>) -> StoreObservation<[E]> {
    var descriptor = descriptor
    descriptor.includePendingChanges = false
    return StoreObservation(container: self, entities: [E.entityName]) { [descriptor] context in
      try context.fetch(descriptor)
    }
  }

  /// A value computed from the store, now and after each commit that touches one of `entities`,
  /// as an async sequence (see ``liveQuery(tracking:_:)``).
  public func observe<Value: Sendable>(
    tracking entities: [any Entity.Type], _ fetch: @escaping @Sendable (StoreContext) throws -> Value
  ) -> StoreObservation<Value> {
    StoreObservation(container: self, entities: Set(entities.map { $0.entityName }), fetch: fetch)
  }
}
