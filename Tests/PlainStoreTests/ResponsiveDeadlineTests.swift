import BabyDashboardTesting
import Foundation
import Testing

/// The deadline every wait of the tests uses: it counts the time async work ran on time, so a
/// test whose awaited event is queued behind other tests' blocking work does not time out.
@Suite struct ResponsiveDeadlineTests {
  @Test func aDeadlineOnAResponsivePoolExpiresAfterItsTime() async {
    let clock = ContinuousClock()
    let start = clock.now
    let deadline = ResponsiveDeadline(.milliseconds(300))
    await deadline.expire()
    #expect(deadline.hasExpired)
    #expect(clock.now - start >= .milliseconds(300))
  }

  /// Every thread of the pool held for a second, as the tests that run child processes hold
  /// them: the deadline's sleep wakes late, and the second counts as two slices at most.
  @Test func timeThePoolWasHeldByOtherWorkDoesNotCount() async {
    let deadline = ResponsiveDeadline(.seconds(1))
    let expiring = Task { await deadline.expire() }
    await Task.yield()  // its first slice has begun
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<(2 * ProcessInfo.processInfo.activeProcessorCount) {
        group.addTask { usleep(1_200_000) }
      }
    }
    #expect(!deadline.hasExpired, "the time the pool was held counted")
    expiring.cancel()
    await expiring.value
  }

  /// The main actor held for a second, as the main-actor tests hold it: a wait for work that
  /// runs there (a live query's listener) does not time out meanwhile.
  @Test func timeTheMainActorWasHeldDoesNotCount() async {
    let deadline = ResponsiveDeadline(.seconds(1))
    let expiring = Task { await deadline.expire() }
    await Task.yield()
    await MainActor.run { usleep(1_200_000) }
    #expect(!deadline.hasExpired, "the time the main actor was held counted")
    expiring.cancel()
    await expiring.value
  }

  @Test func aCancelledWaitReturnsAtOnceAndLeavesTheRestForTheNext() async {
    let deadline = ResponsiveDeadline(.seconds(600))
    let waiting = Task { await deadline.expire() }
    waiting.cancel()
    await waiting.value
    #expect(!deadline.hasExpired)
  }
}
