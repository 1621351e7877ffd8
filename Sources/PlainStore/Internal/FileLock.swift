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

  init(url: URL, displayPath: String) {
    self.url = url
    self.displayPath = displayPath
  }

  /// Runs `body` holding the lock; waits up to `timeout` for another process to let go.
  func withLock<T>(timeout: Duration, _ body: () throws -> T) throws -> T {
    try FileSystem.refuseSymbolicLink(at: url, displayPath: displayPath)
    let fd = open(url.path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw FileSystem.error(errno, displayPath, "cannot open the lock file") }
    defer { close(fd) }  // closing releases the lock
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    // Microseconds, doubling up to 0.5 ms: a commit holds the lock for about a millisecond, so
    // longer naps would leave it idle while every waiter sleeps.
    var pause: UInt32 = 20
    while flock(fd, LOCK_EX | LOCK_NB) != 0 {
      let code = errno
      guard code == EWOULDBLOCK || code == EINTR else {
        throw FileSystem.error(code, displayPath, "cannot take the lock")
      }
      if clock.now >= deadline {
        throw StoreError(
          .locked, path: displayPath,
          "another process has held the store's lock for over \(timeout) — let it finish or quit it (the app, its widget or another babydash), then try again.")
      }
      usleep(pause)
      pause = min(pause * 2, 500)
    }
    return try body()
  }
}
