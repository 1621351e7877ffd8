import Foundation

@testable import PlainStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whether another process could take the lock of the store at `store` now.
func storeLockIsFree(at store: URL) -> Bool {
  let probe = open(store.appendingPathComponent("local/lock").path, O_RDWR | O_CLOEXEC)
  defer { FileLock.release(probe) }  // let go, not only closed: a starting child may share it
  return probe >= 0 && flock(probe, LOCK_EX | LOCK_NB) == 0
}
