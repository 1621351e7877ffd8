import Foundation
import Observation
import PlainStore

/// Waits, without sleeping, until a live query's results satisfy `condition`: it wakes on each
/// change Observation reports and gives up at `timeout`.
/// - Returns: whether the condition held in time.
@MainActor
func waitUntil<Value>(
  _ query: LiveQuery<Value>, within timeout: Duration = .seconds(30), _ condition: (Value) -> Bool
) async -> Bool {
  let clock = ContinuousClock()
  let deadline = clock.now.advanced(by: timeout)
  while true {
    let (changed, continuation) = AsyncStream<Void>.makeStream()
    withObservationTracking {
      _ = query.results
    } onChange: {
      continuation.yield()
      continuation.finish()
    }
    // Checked after registering, so that a change between the check and the wait is not lost.
    if condition(query.results) { return true }
    let remaining = clock.now.duration(to: deadline)
    guard remaining > .zero, await firstElement(of: changed, within: remaining) != nil else {
      return condition(query.results)
    }
  }
}

/// The first element of `sequence` that satisfies `condition`, or nil after `timeout`.
func firstElement<S: AsyncSequence & Sendable>(
  of sequence: S, within timeout: Duration, where condition: @escaping @Sendable (S.Element) -> Bool
) async throws -> S.Element? where S.Element: Sendable {
  try await withThrowingTaskGroup(of: S.Element?.self) { group in
    group.addTask {
      for try await element in sequence where condition(element) { return element }
      return nil
    }
    group.addTask {
      try? await Task.sleep(for: timeout)
      return nil
    }
    let result = try await group.next() ?? nil
    group.cancelAll()
    return result
  }
}
