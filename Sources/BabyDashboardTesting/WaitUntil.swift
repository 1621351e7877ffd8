import Observation

/// Waits, without sleeping, until `condition` holds: it re-checks whenever an observable
/// property it read changes, and gives up at `timeout`.
/// - Returns: whether the condition held in time.
@MainActor
public func waitUntil(within timeout: Duration = .seconds(30), _ condition: @MainActor () -> Bool) async -> Bool {
  let clock = ContinuousClock()
  let deadline = clock.now.advanced(by: timeout)
  while true {
    let (changed, continuation) = AsyncStream<Bool>.makeStream()
    // Registered by reading the condition itself, so that no change after the check is lost.
    let holds = withObservationTracking(condition) {
      continuation.yield(true)
      continuation.finish()
    }
    if holds { return true }
    let remaining = clock.now.duration(to: deadline)
    guard remaining > .zero else { return false }
    let woke = await withTaskGroup(of: Bool.self) { group in
      group.addTask { await changed.first { _ in true } ?? false }
      group.addTask {
        try? await Task.sleep(for: remaining)
        return false
      }
      let first = await group.next() ?? false
      group.cancelAll()
      return first
    }
    if !woke { return condition() }
  }
}
