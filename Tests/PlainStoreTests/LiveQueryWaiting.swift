import BabyDashboardTesting
import PlainStore

/// Waits, without sleeping, until a live query's results satisfy `condition`: it wakes on each
/// change Observation reports and gives up at `timeout` (a ``ResponsiveDeadline``).
/// - Returns: whether the condition held in time.
@MainActor
func waitUntil<Value>(
  _ query: LiveQuery<Value>, within timeout: Duration = .seconds(30), _ condition: (Value) -> Bool
) async -> Bool {
  await waitUntil(within: timeout) { condition(query.results) }
}
