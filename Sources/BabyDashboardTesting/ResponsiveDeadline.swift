import PlainStore

/// A test's deadline counted in time when this process's async work runs on time, not in wall
/// time.
///
/// The test runner starts every test at once, and the synchronous ones hold the few threads that
/// all async work shares (one per core) until they end. A job queued meanwhile — an observer
/// woken by a change, the waiter it then wakes, or a timer — waits behind them all: minutes
/// when three test runs share two cores. A wall-clock timer woken after such a wait beats the
/// awaited event whose last step is queued after it, and the test fails though the code was on
/// time. This deadline counts its time in short sleeps, each followed by a turn of the main
/// actor, and a sleep that wakes late (or a turn that comes late) counts as at most twice its
/// length: it expires once the awaited work has had `timeout` of on-time running to arrive. So
/// that a starved run still ends, it also expires after `wallLimit` of wall time (by default
/// 20 × `timeout`, 10 minutes at least).
///
/// One deadline may be shared by several waits (`expire()` calls, one after another): each
/// spends what is left of it.
public final class ResponsiveDeadline: Sendable {
  private static let slice = Duration.milliseconds(100)
  private let left: StoreMutex<Duration>
  private let wallLimit: ContinuousClock.Instant

  public init(_ timeout: Duration, wallLimit: Duration? = nil) {
    left = StoreMutex(timeout)
    self.wallLimit = .now + (wallLimit ?? max(timeout * 20, .seconds(600)))
  }

  /// Whether the time is spent.
  public var hasExpired: Bool {
    left.withLock { $0 <= .zero } || ContinuousClock.now >= wallLimit
  }

  /// Returns once the time is spent, or at once when the task is cancelled.
  public func expire() async {
    while !hasExpired {
      let slice = min(Self.slice, left.withLock { $0 })
      let start = ContinuousClock.now
      do { try await Task.sleep(for: slice) } catch { return }  // cancelled: the awaited thing came
      // The main actor on time too: some awaited work runs there (a live query's listener), and
      // its queue waits behind the main-actor tests as the pool's waits behind the rest.
      await MainActor.run {}
      let slept = ContinuousClock.now - start
      left.withLock { $0 -= min(slept, slice * 2) }
    }
  }
}
