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

  /// A deadline that only the slices count: these tests are about them, and a run that starves
  /// this process for longer than the usual wall limit (three suites on two cores have, for
  /// over ten minutes) must not expire it. The holds are long beside the slices: should the
  /// holders be queued behind other tests' work, the deadline's few late wakes between them
  /// count 200 ms each, far from the timeout, which the hold exceeds.
  static func sliceOnlyDeadline() -> ResponsiveDeadline { ResponsiveDeadline(.seconds(3), wallLimit: .seconds(86_400)) }
  static let hold: useconds_t = 3_600_000

  /// Every thread of the pool held for longer than the deadline, as the tests that run child
  /// processes hold them: the deadline's sleep wakes late, and the hold counts as two slices at most.
  @Test func timeThePoolWasHeldByOtherWorkDoesNotCount() async {
    let deadline = Self.sliceOnlyDeadline()
    let expiring = Task { await deadline.expire() }
    await Task.yield()  // its first slice has begun
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<(2 * ProcessInfo.processInfo.activeProcessorCount) {
        group.addTask { usleep(Self.hold) }
      }
    }
    // The late slice counted (or not) before the look: the wait has ended.
    expiring.cancel()
    await expiring.value
    #expect(!deadline.hasExpired, "the time the pool was held counted")
  }

  /// The main actor held for longer than the deadline, as the main-actor tests hold it: a wait
  /// for work that runs there (a live query's listener) does not time out meanwhile.
  @Test func timeTheMainActorWasHeldDoesNotCount() async {
    let deadline = Self.sliceOnlyDeadline()
    let expiring = Task { await deadline.expire() }
    await Task.yield()
    await MainActor.run { _ = usleep(Self.hold) }
    expiring.cancel()
    await expiring.value
    #expect(!deadline.hasExpired, "the time the main actor was held counted")
  }

  @Test func aCancelledWaitReturnsAtOnceAndLeavesTheRestForTheNext() async {
    let deadline = ResponsiveDeadline(.seconds(600))
    let waiting = Task { await deadline.expire() }
    waiting.cancel()
    await waiting.value
    #expect(!deadline.hasExpired)
  }
}
