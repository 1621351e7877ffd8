/// An async sequence of a query's results: the first element at once, then one after each
/// commit that touches the query's entities (see ``StoreContainer/observe(_:)``).
///
/// Nothing is fetched until it is iterated, and each element is fetched when it is asked for, so
/// commits made while the consumer is busy are coalesced into one element. Each iterator listens
/// on its own; the sequence ends when the iterating task is cancelled.
public struct StoreObservation<Value: Sendable>: AsyncSequence, Sendable {
  public typealias Element = Value

  let container: StoreContainer
  let entities: Set<String>
  let fetch: @Sendable (StoreContext) throws -> Value

  public func makeAsyncIterator() -> Iterator {
    Iterator(observation: self)
  }

  /// Fetches when asked for the next element, once the store has changed.
  public struct Iterator: AsyncIteratorProtocol {
    private let observation: StoreObservation
    private var monitor: StoreChangeMonitor?

    init(observation: StoreObservation) {
      self.observation = observation
    }

    /// The results now (first call), else after the next relevant commit; nil once cancelled.
    /// - Throws: the fetch's error.
    public mutating func next() async throws -> Value? {
      if let monitor {
        guard await monitor.wait() else {
          monitor.stop()
          return nil
        }
        _ = monitor.takeChange()
      } else {
        // Listen before the first fetch, so that no commit falls between the two.
        monitor = StoreChangeMonitor(container: observation.container, entities: observation.entities)
      }
      if Task.isCancelled {
        monitor?.stop()
        return nil
      }
      return try observation.fetch(observation.container.newBackgroundContext())
    }
  }
}
