
/// The subscribers of an event, each an unbounded `AsyncStream`: the one registry behind every
/// "from now on, as async sequence" API (a container's transactions and remote changes, and a
/// client's own events). A stream that ends or is dropped leaves the registry by itself.
///
/// ```swift
/// let saves = SubscriberRegistry<Transaction>()
/// for await transaction in saves.subscribe() { … }   // elsewhere: saves.yield(transaction)
/// ```
public final class SubscriberRegistry<Element: Sendable>: Sendable {
  private struct State {
    var nextID = 0
    var continuations: [Int: AsyncStream<Element>.Continuation] = [:]
  }

  private let state = StoreMutex(State())

  public init() {}

  /// A stream of every element yielded from now on, until ``finish()``.
  public func subscribe() -> AsyncStream<Element> {
    let (stream, continuation) = AsyncStream<Element>.makeStream(bufferingPolicy: .unbounded)
    let id = state.withLock { state in
      defer { state.nextID += 1 }
      state.continuations[state.nextID] = continuation
      return state.nextID
    }
    continuation.onTermination = { [weak self] _ in
      _ = self?.state.withLock { $0.continuations.removeValue(forKey: id) }
    }
    return stream
  }

  /// Gives `element` to every subscriber.
  public func yield(_ element: Element) {
    for continuation in state.withLock({ Array($0.continuations.values) }) { continuation.yield(element) }
  }

  /// Ends every subscriber's stream.
  public func finish() {
    let ended = state.withLock { state in
      defer { state.continuations = [:] }
      return Array(state.continuations.values)
    }
    for continuation in ended { continuation.finish() }
  }
}
