import Foundation
import Synchronization

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

  init(url: URL, displayPath: String, holderHint: String? = nil) {
    self.url = url
    self.displayPath = displayPath
    self.holderHint = holderHint
  }

  /// Runs `body` holding the lock; waits up to `timeout` for another process to let go.
  func withLock<T>(timeout: Duration, _ body: () throws -> T) throws -> T {
    try FileSystem.refuseSymbolicLink(at: url, displayPath: displayPath)
    let fd = open(url.path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw FileSystem.error(errno, displayPath, "cannot open the lock file") }
    if flock(fd, LOCK_EX | LOCK_NB) != 0 {
      let code = errno
      guard code == EWOULDBLOCK || code == EINTR else {
        close(fd)
        throw FileSystem.error(code, displayPath, "cannot take the lock")
      }
      switch Self.waitInKernel(fd, timeout: timeout) {
      case .acquired:
        break
      case .failed(let code):
        close(fd)
        throw FileSystem.error(code, displayPath, "cannot take the lock")
      case .timedOut:
        // The waiting thread owns the descriptor now: it closes it once the lock comes.
        let holders = holderHint.map { " (\($0))" } ?? ""
        throw StoreError(
          .locked, path: displayPath,
          "another process has held the store's lock for over \(timeout) — let it finish or quit it\(holders), then try again.")
      }
    }
    defer { close(fd) }  // closing releases the lock
    return try body()
  }

  enum Wait: Equatable, Sendable { case acquired, failed(Int32), timedOut }

  /// Waits for the lock in the kernel: a thread blocks in `flock`, which returns the moment the
  /// holder lets go, while the caller waits for it with a deadline. A waiter that gives up
  /// leaves the descriptor to the thread, which closes it — letting the lock go at once — when
  /// its `flock` returns.
  static func waitInKernel(_ fd: Int32, timeout: Duration) -> Wait {
    let handoff = Handoff()
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      var result: Int32
      repeat { result = flock(fd, LOCK_EX) } while result != 0 && errno == EINTR
      let wait: Wait = result == 0 ? .acquired : .failed(errno)
      let gaveUp = handoff.state.withLock { state -> Bool in
        if case .abandoned = state { return true }
        state = .finished(wait)
        return false
      }
      if gaveUp { close(fd) }
      done.signal()
    }
    thread.stackSize = 64 * 1024
    thread.start()
    let (seconds, attoseconds) = timeout.components
    // Past a year, wait for good: the deadline's arithmetic stays far from overflowing.
    let deadline: DispatchTime =
      seconds > 365 * 86_400 ? .distantFuture : .now() + .nanoseconds(Int(max(0, seconds) * 1_000_000_000 + max(0, attoseconds) / 1_000_000_000))
    _ = done.wait(timeout: deadline)
    return handoff.state.withLock { state -> Wait in
      if case .finished(let wait) = state { return wait }
      state = .abandoned
      return .timedOut
    }
  }

  /// What the waiting thread and its caller agree on, under a lock.
  private final class Handoff: Sendable {
    enum State: Sendable { case waiting, abandoned, finished(Wait) }
    let state = Mutex<State>(.waiting)
  }
}
