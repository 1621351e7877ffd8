import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A waiter's claim on a store's lock: an exclusive `flock` on a second file beside the lock,
/// held by one waiter that has waited long, and honoured by the holder.
///
/// A holder with more to commit takes the lock again the moment it lets it go (``FileLock``'s
/// turn), and a waiter in the kernel, woken by the release, finds it taken again before its
/// thread gets a core: on a busy machine it could wait out the holder's whole run. A waiter
/// that has gone to the kernel takes the claim, and a holder whose turn has lasted
/// ``FileLock/shortestTurn`` lets the lock go when the claim is taken and waits its own turn.
/// The kernel lets a claim go when its holder exits or is killed, so no claim outlives its
/// waiter.
final class LockClaim: Sendable {
  let url: URL
  /// The claim's descriptor while this waiter holds it.
  private let held = StoreMutex<Int32?>(nil)

  init(url: URL) { self.url = url }

  /// Makes the claim's file if it is not there: a holder's, once, so that a waiter, which
  /// must change nothing on disk, finds it. One that cannot be made leaves the lock as it was
  /// without claims.
  static func makeFile(at url: URL) {
    let fd = FileSystem.openOrCreateFile(atPath: url.path, flags: O_RDWR | O_NOFOLLOW | O_CLOEXEC).fd
    if fd >= 0 { close(fd) }
  }

  /// Takes the claim unless another waiter holds it; a claim whose file is not there (made by
  /// the first hold of a process since) or cannot be opened is never taken.
  func take() {
    held.withLock { held in
      guard held == nil else { return }
      let fd = open(url.path, O_RDWR | O_NOFOLLOW | O_CLOEXEC)
      guard fd >= 0 else { return }
      if flock(fd, LOCK_EX | LOCK_NB) == 0 { held = fd } else { close(fd) }
    }
  }

  /// Lets the claim go, if this waiter holds it.
  func letGo() {
    held.withLock { held in
      guard let fd = held else { return }
      FileLock.release(fd)
      held = nil
    }
  }

  /// Whether a waiter holds the claim at `url`.
  static func isTaken(at url: URL) -> Bool {
    let fd = open(url.path, O_RDWR | O_NOFOLLOW | O_CLOEXEC)
    guard fd >= 0 else { return false }  // none yet: no waiter went to the kernel
    defer { close(fd) }
    guard flock(fd, LOCK_SH | LOCK_NB) == 0 else { return errno == EWOULDBLOCK }
    flock(fd, LOCK_UN)
    return false
  }
}
