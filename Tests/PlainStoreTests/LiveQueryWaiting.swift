import BabyDashboardTesting
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
