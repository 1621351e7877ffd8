import Observation

/// Waits, without sleeping, until `condition` holds: it re-checks whenever an observable
/// property it read changes, and gives up at `timeout` (a ``ResponsiveDeadline``).
/// - Returns: whether the condition held in time.
@MainActor
public func waitUntil(within timeout: Duration = .seconds(30), _ condition: @MainActor () -> Bool) async -> Bool {
  let deadline = ResponsiveDeadline(timeout)
  while true {
    let (changed, continuation) = AsyncStream<Bool>.makeStream()
    // Registered by reading the condition itself, so that no change after the check is lost.
    let holds = withObservationTracking(condition) {
      continuation.yield(true)
      continuation.finish()
    }
    if holds { return true }
    guard !deadline.hasExpired else { return false }
    let woke = await withTaskGroup(of: Bool.self) { group in
      group.addTask { await changed.first { _ in true } ?? false }
      group.addTask {
        await deadline.expire()
        return false
      }
      let first = await group.next() ?? false
      group.cancelAll()
      return first
    }
    if !woke { return condition() }
  }
}
