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
    let fixed = descriptor
    return try LiveQuery(container: self, tracking: [E.entityName], fetch: { context in try context.fetch(fixed) }) { container in
      try await Task.detached { (try container.newBackgroundContext().fetch(fixed), onMainThread: Thread.isMainThread) }.value
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
