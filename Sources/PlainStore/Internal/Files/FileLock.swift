import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// An exclusive `flock` on the store's `lock` file, which is never renamed or removed.
///
/// The kernel releases it at once when its holder exits or is killed, so a crashed writer never
/// leaves the store locked.
final class FileLock: Sendable {
  let url: URL
  let displayPath: String
  /// Who else may hold the lock (``StoreOptions/lockHolderHint``), named in the timeout's message.
  let holderHint: String?
  /// Held around every hold of the lock, from before it is asked for until after it goes
  /// (``StoreOptions/backgroundAssertion``): iOS kills a suspended app that holds it.
  let assertion: BackgroundAssertion
  /// How long a waiter sleeps, one after the other, before each look at the lock, until it
  /// waits in the kernel (``turnDelays``; none in tests of the kernel's wait).
  let turnDelays: [Duration]
  /// For tests: runs on the waiting thread once a body it ran is marked as run, before the
  /// thread lets the body go; and once it has let go a lock that came after its caller gave up.
  let afterWorkRan: (@Sendable () -> Void)?
  let afterGivenUp: (@Sendable () -> Void)?
  /// For tests: runs on the caller's thread when its first look found the lock held.
  let afterFoundHeld: (@Sendable () -> Void)?
  /// Where a waiter in the kernel claims the lock (``LockClaim``); nil for a lock whose holder
  /// never keeps a turn, or that a claim file must not sit beside.
  let claimURL: URL?
  /// ``shortestTurn`` and ``turnGap``, or a test's.
  let shortestTurn: Duration
  let turnGap: Duration
  /// When this process's holds of the lock began and ended (``shortestTurn``).
  private let turn = StoreMutex(Turn())

  init(
    url: URL, displayPath: String, holderHint: String? = nil, assertion: BackgroundAssertion = .system,
    turnDelays: [Duration] = FileLock.turnDelays, claimURL: URL? = nil, shortestTurn: Duration = FileLock.shortestTurn,
    turnGap: Duration = FileLock.turnGap, afterWorkRan: (@Sendable () -> Void)? = nil, afterGivenUp: (@Sendable () -> Void)? = nil,
    afterFoundHeld: (@Sendable () -> Void)? = nil
  ) {
    self.url = url
    self.displayPath = displayPath
    self.holderHint = holderHint
    self.assertion = assertion
    self.turnDelays = turnDelays
    self.claimURL = claimURL
    self.shortestTurn = shortestTurn
    self.turnGap = turnGap
    self.afterWorkRan = afterWorkRan
    self.afterGivenUp = afterGivenUp
    self.afterFoundHeld = afterFoundHeld
  }

  /// Runs `body` holding the lock; waits up to `timeout` for another process to let go.
  ///
  /// A waiter first leaves the holder its turn, as SQLite's busy handler does: it sleeps for
  /// each of ``turnDelays`` in turn and looks at the lock after each, so a holder with more to
  /// commit takes the lock again at once, and only then waits in the kernel, where it gets the
  /// lock the moment the holder lets go. There it claims the lock (``claimURL``): a holder that
  /// has kept the lock for ``shortestTurn`` and takes it again lets it go at once and waits in
  /// turn, so that the claimant's wait ends with the holder's turn.
  ///
  /// With `onWaitingThread`, a `body` that has to wait runs on the thread that waited for the
  /// lock in the kernel, the moment the lock comes, and the lock goes the moment it returns; the
  /// caller sleeps until then. Handing the lock back to the caller first would wake a second
  /// thread between one process's commit and the next, a tenth of a millisecond on a busy
  /// 2-core machine while every other writer waits. Only for bodies that may run on any thread.
  ///
  /// With `whileWaiting` too, the caller's thread runs it after each of the turn's delays, then
  /// every ``waitingSlice`` in the kernel's wait, until the lock comes: work the body would
  /// otherwise do holding the lock (a commit reads the commits the holders make as they come,
  /// rather than all at once when its turn comes).
  func withLock<T>(
    timeout: Duration, onWaitingThread: Bool = false, whileWaiting: (@Sendable () -> Void)? = nil, _ body: () throws -> T
  ) throws -> T {
    try assertion.hold("holding the store's lock (\(displayPath))") {
      try withLockInsideAssertion(timeout: timeout, onWaitingThread: onWaitingThread, whileWaiting: whileWaiting, body)
    }
  }

  /// How often `whileWaiting` runs while a waiter waits in the kernel: about once per commit
  /// among four writers (one every ~1 ms), so that a waiter reads each commit as it comes and
  /// has little left to read when its turn comes. Every 200 µs, most runs found nothing new,
  /// and their wake-ups and looks were CPU the holder lacked on a busy machine: four writers × 50
  /// commits, six interleaved rounds, made 908 commits/s at 1.41 ms of CPU per commit against
  /// 978 at 1.18 ms every 1 ms (2 ms, or no runs at all: ~990).
  static let waitingSlice = Duration.milliseconds(1)

  /// A waiter's sleeps before it waits in the kernel and claims the lock (the first of SQLite's
  /// busy handler's, shorter): 6 ms at most. Among writers, one that lets go and commits again
  /// a moment later keeps the lock, while the others sleep; with each waiter in the kernel at
  /// once, the lock went to another process at every commit, which read the commit before
  /// first, and every waiter woke for each. Four writers × 50 commits, ten interleaved rounds
  /// twice: 0.83 and 0.95 of GRDB's commits per second (median; 0.61 and 0.66 the least)
  /// against 0.70 and 0.79 (0.53, 0.54), a commit at 0.42–0.47 ms p50 against 2.6–2.9 ms, and a
  /// quarter less CPU per commit. Sleeping 25 ms and more (SQLite's next) left the lock free for
  /// as long once the others were done.
  ///
  /// The turn made the tail: sleeping 1, 2, 5 and 10 ms, then waiting in the kernel without a
  /// claim, a waiter waited out the holder's run: p95 21 ms and p99 23 ms, twice eef634a's (each
  /// waiter in the kernel at once). With the claim, in rounds of `babydash-bench --mp 20000
  /// --procs 4 --commits 50` interleaved with GRDB's and eef634a's (median ratio to GRDB's
  /// commits per second; p95, p99):
  /// - sleeping 1, 2 and 3 ms, turns of 3 ms: 0.52 and 0.50; 9.8 and 9.6 ms; 12.7 and 13.3 ms
  ///   (10 and 12 rounds; eef634a 0.43 and 0.41; 10.1 and 10.7 ms; 12.7 and 13.1 ms);
  /// - sleeping 1, 2 and 5 ms, turns of 4 ms: 0.56 and 0.47; 11.2 and 11.3; 15.4 and 15.8;
  /// - sleeping 1, 1, 2 and 2 ms, turns of 3 ms: 0.56 and 0.49; 9.7 and 9.8; 13.0 and 15.0;
  /// - no claim (12 rounds): sleeping 1, 2, 5 and 10 ms 0.44, 20.8, 23.2; sleeping 1, 2 and
  ///   5 ms 0.46, 11.7, 14.8 (eef634a 0.42, 10.8, 13.6).
  static let turnDelays: [Duration] = [.milliseconds(1), .milliseconds(2), .milliseconds(3)]

  /// How long a holder keeps the lock, taking it again commit after commit, before it lets a
  /// claimant in (``LockClaim``): long enough for several commits, so that the lock changes
  /// hands (a wake-up, and the next holder reading what it missed) once per several commits,
  /// and short enough that a waiter behind two others waits about as long as when the lock
  /// changed hands at every commit (see ``turnDelays``).
  static let shortestTurn = Duration.milliseconds(3)

  /// A hold that begins within this long of the last one's end continues its turn; later, it
  /// begins a new one.
  static let turnGap = Duration.milliseconds(2)

  /// This process's holds of the lock, one after the other.
  private struct Turn {
    var start: ContinuousClock.Instant?
    var lastEnd: ContinuousClock.Instant?
    /// Whether this lock's first hold has made the claim's file.
    var claimFileMade = false
  }

  /// Notes a hold's start: a new turn after a wait, or after the lock stood free a while. The
  /// first hold makes the claim's file, if it is not there.
  private func holdBegins(afterWaiting waited: Bool) {
    let now = ContinuousClock.now
    let makesClaimFile = turn.withLock { turn in
      if waited || turn.start == nil || turn.lastEnd.map({ now - $0 > turnGap }) ?? true { turn.start = now }
      defer { turn.claimFileMade = true }
      return !turn.claimFileMade
    }
    if makesClaimFile, let claimURL { LockClaim.makeFile(at: claimURL) }
  }

  private func holdEnds() {
    let now = ContinuousClock.now
    turn.withLock { $0.lastEnd = now }
  }

  /// Whether a holder that took the lock at once lets it go again for a claimant: its turn has
  /// lasted ``shortestTurn``, and a waiter holds the claim.
  private func yieldsToAClaimant() -> Bool {
    guard let claimURL else { return false }
    let now = ContinuousClock.now
    let due = turn.withLock { turn in
      guard let start = turn.start, let end = turn.lastEnd, now - end <= turnGap else { return false }
      return now - start >= shortestTurn
    }
    guard due, LockClaim.isTaken(at: claimURL) else { return false }
    turn.withLock { $0.start = nil }
    return true
  }

  private func withLockInsideAssertion<T>(
    timeout: Duration, onWaitingThread: Bool, whileWaiting: (@Sendable () -> Void)?, _ body: () throws -> T
  ) throws -> T {
    // In memory one process is all there is: a mutex orders its threads as flock would.
    if let memory = MemoryMedium.holding(url.path) { return try memory.storeLock.withLock { _ in try body() } }
    try FileSystem.refuseSymbolicLink(at: url, displayPath: displayPath)
    let fd = FileSystem.openOrCreateFile(atPath: url.path, flags: O_RDWR | O_NOFOLLOW | O_CLOEXEC).fd
    guard fd >= 0 else { throw FileSystem.error(errno, displayPath, "cannot open the lock file") }
    var holds = flock(fd, LOCK_EX | LOCK_NB) == 0
    if !holds {
      let code = errno
      guard code == EWOULDBLOCK || code == EINTR else {
        close(fd)
        throw FileSystem.error(code, displayPath, "cannot take the lock")
      }
      afterFoundHeld?()
    } else if yieldsToAClaimant() {
      flock(fd, LOCK_UN)
      holds = false
    }
    defer { holdEnds() }
    if holds {
      holdBegins(afterWaiting: false)
      defer { Self.release(fd) }
      return try body()
    }
    let deadline = ContinuousClock.now + timeout
    if try takeAfterTheHoldersTurn(fd, deadline: deadline, timeout: timeout, whileWaiting: whileWaiting) {
      holdBegins(afterWaiting: true)
      defer { Self.release(fd) }
      return try body()
    }
    let claim = claimURL.map(LockClaim.init)
    guard onWaitingThread else {
      try wait(fd, deadline: deadline, timeout: timeout, work: nil, claim: claim, whileWaiting: whileWaiting)
      holdBegins(afterWaiting: true)
      defer { Self.release(fd) }
      return try body()
    }
    return try withoutActuallyEscaping(body) { body in
      let outcome = Outcome<T>()
      let work = Work(afterRun: afterWorkRan, afterGivenUp: afterGivenUp) { [self] in
        holdBegins(afterWaiting: true)
        outcome.result = Result { try body() }
      }
      try wait(fd, deadline: deadline, timeout: timeout, work: work, claim: claim, whileWaiting: whileWaiting)
      return try outcome.result!.get()
    }
  }

  /// The waiter's first part (see ``turnDelays``): sleeps for each delay, runs `whileWaiting`,
  /// and looks at the lock. Returns whether it holds the lock; throws when `deadline` passes
  /// first (the descriptor closed), or when a look fails.
  private func takeAfterTheHoldersTurn(
    _ fd: Int32, deadline: ContinuousClock.Instant, timeout: Duration, whileWaiting: (@Sendable () -> Void)?
  ) throws -> Bool {
    for delay in turnDelays {
      let wake = min(deadline, .now + delay)
      while ContinuousClock.now < wake {
        let left = (wake - .now).components
        usleep(UInt32(clamping: left.seconds * 1_000_000 + left.attoseconds / 1_000_000_000_000 + 1))
      }
      whileWaiting?()
      if flock(fd, LOCK_EX | LOCK_NB) == 0 { return true }
      let code = errno
      guard code == EWOULDBLOCK || code == EINTR else {
        close(fd)
        throw FileSystem.error(code, displayPath, "cannot take the lock")
      }
      guard ContinuousClock.now < deadline else {
        close(fd)
        throw timedOut(after: timeout)
      }
    }
    return false
  }

  /// Lets the lock go, then closes the descriptor. Closing alone lets it go only when no other
  /// descriptor shares the open file: a child that another thread is starting holds a copy of
  /// every descriptor from its fork to its exec (`O_CLOEXEC` closes them only at the exec), and
  /// the lock would stay held, outside the background assertion, until then.
  static func release(_ fd: Int32) {
    flock(fd, LOCK_UN)
    close(fd)
  }

  /// Waits for the lock until `deadline` (`timeout` after the wait began), throwing when it
  /// does not come; with `work`, runs it holding the lock and lets the lock go.
  private func wait(
    _ fd: Int32, deadline: ContinuousClock.Instant, timeout: Duration, work: Work?, claim: LockClaim?, whileWaiting: (@Sendable () -> Void)?
  ) throws {
    switch Self.waitInKernel(fd, timeout: max(.zero, deadline - .now), work: work, claim: claim, whileWaiting: whileWaiting) {
    case .acquired, .ran:
      break
    case .failed(let code):
      close(fd)
      throw FileSystem.error(code, displayPath, "cannot take the lock")
    case .timedOut:
      // The waiting thread owns the descriptor now: it closes it once the lock comes.
      throw timedOut(after: timeout)
    }
  }

  /// The error of a wait that gave up after `timeout`.
  private func timedOut(after timeout: Duration) -> StoreError {
    let holders = holderHint.map { " (\($0))" } ?? ""
    return StoreError(
      .locked, path: displayPath,
      "another process has held the store's lock for over \(timeout) — let it finish or quit it\(holders), then try again.")
  }

  enum Wait: Equatable, Sendable { case acquired, ran, failed(Int32), timedOut }

  /// Waits for the lock in the kernel: a thread blocks in `flock`, which returns the moment the
  /// holder lets go, while the caller waits for it with a deadline. A waiter that gives up
  /// leaves the descriptor to the thread, which closes it — letting the lock go at once — when
  /// its `flock` returns. With `work`, the thread runs it as soon as it holds the lock, then
  /// closes the descriptor (`.ran`); a caller whose deadline passes while the work runs waits
  /// for it to end. `whileWaiting` runs on the caller's thread every ``waitingSlice`` meanwhile.
  static func waitInKernel(
    _ fd: Int32, timeout: Duration, work: Work? = nil, claim: LockClaim? = nil, whileWaiting: (@Sendable () -> Void)? = nil
  ) -> Wait {
    let handoff = Handoff()
    let done = DispatchSemaphore(value: 0)
    claim?.take()
    defer { claim?.letGo() }
    ParkedThreads.shared.run {
      var result: Int32
      repeat { result = flock(fd, LOCK_EX) } while result != 0 && errno == EINTR
      let wait: Wait = result == 0 ? .acquired : .failed(errno)
      var run: (() -> Void)?
      let gaveUp = handoff.state.withLock { state -> Bool in
        claim?.letGo()  // the wait is over: the next waiter may claim the lock
        if case .abandoned = state { return true }
        // Taken either way: a work not run is let go here, not when the thread ends.
        let taken = work?.take()
        run = wait == .acquired ? taken : nil
        state = run == nil ? .finished(wait) : .running
        return false
      }
      if gaveUp {
        release(fd)
        work?.afterGivenUp?()
      }
      if let body = run {
        run = nil
        body()
        release(fd)  // the lock goes before the caller is woken
        handoff.state.withLock { $0 = .finished(.ran) }
        work?.afterRun?()
      }  // and the caller's closure is let go here, before `done` lets the caller return
      done.signal()
    }
    let (seconds, attoseconds) = timeout.components
    // Past a year, wait for good: the deadline's arithmetic stays far from overflowing.
    let deadline: DispatchTime =
      seconds > 365 * 86_400 ? .distantFuture : .now() + .nanoseconds(Int(max(0, seconds) * 1_000_000_000 + max(0, attoseconds) / 1_000_000_000))
    // Whether the thread has signalled `done`, which it does once it holds nothing of the caller's.
    var signalled = false
    if whileWaiting != nil || claim != nil {
      // Every slice until the lock comes (the work then runs, and is waited for below) or the
      // deadline passes.
      let (seconds, attoseconds) = waitingSlice.components
      let slice = DispatchTimeInterval.nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
      while true {
        if done.wait(timeout: min(deadline, .now() + slice)) == .success {
          signalled = true
          break
        }
        // Claims under the handoff's lock, where the thread lets the claim go once the wait is over.
        let waiting = handoff.state.withLock { state -> Bool in
          guard case .waiting = state else { return false }
          claim?.take()
          return true
        }
        guard DispatchTime.now() < deadline, waiting else { break }
        whileWaiting?()
      }
    } else {
      signalled = done.wait(timeout: deadline) == .success
    }
    let wait = handoff.state.withLock { state -> Wait? in
      switch state {
      case .finished(let wait): return wait
      case .running: return nil  // the lock came in time: the work ends however long it takes
      case .waiting, .abandoned:
        state = .abandoned
        _ = work?.take()  // never run: the caller's closure is let go now
        return .timedOut
      }
    }
    guard let wait, wait != .ran || signalled else {
      // The work runs, or ran and the thread may still hold the caller's closure (a caller that
      // saw `.finished` between two slices and returned then trapped: "non-escaping closure has
      // escaped"): the thread lets it go before it signals. (A work not run is let go before
      // `.finished`, and a timed-out one by the caller.)
      done.wait()
      // Look once more under the lock: the work's writes (the caller's result) come before its
      // `.finished`, and a lock, unlike the semaphore, is a hand-off ThreadSanitizer sees.
      handoff.state.withLock { _ in }
      return .ran
    }
    return wait
  }

  /// What the waiting thread runs holding the lock, taken once under the handoff's lock.
  final class Work: @unchecked Sendable {  // `run` is only touched under the handoff's lock
    private var run: (() -> Void)?
    let afterRun: (@Sendable () -> Void)?
    let afterGivenUp: (@Sendable () -> Void)?
    init(afterRun: (@Sendable () -> Void)? = nil, afterGivenUp: (@Sendable () -> Void)? = nil, _ run: @escaping () -> Void) {
      self.afterRun = afterRun
      self.afterGivenUp = afterGivenUp
      self.run = run
    }

    func take() -> (() -> Void)? {
      defer { run = nil }
      return run
    }
  }

  /// A body's result, set on the waiting thread and read by the caller after it is woken.
  private final class Outcome<T>: @unchecked Sendable {
    var result: Result<T, any Error>?
  }

  /// What the waiting thread and its caller agree on, under a lock.
  private final class Handoff: Sendable {
    enum State: Sendable { case waiting, abandoned, running, finished(Wait) }
    let state = StoreMutex<State>(.waiting)
  }
}
