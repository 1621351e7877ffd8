#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A value behind a `pthread_mutex`: the one in-process lock of the engine and the domain, with
/// `Synchronization.Mutex`'s `withLock`.
///
/// Not `Mutex` itself, because ThreadSanitizer must see every lock: on Linux, `Mutex` hands a
/// contended lock to the next thread inside the kernel (a futex), where TSan cannot see it, so a
/// correct program that uses one `Mutex` from four threads is reported as a race. TSan intercepts
/// `pthread_mutex_lock` and `pthread_mutex_unlock` on every platform, so with this lock every
/// report left is a real race. A `pthread_mutex` is in every Apple SDK (iOS and watchOS
/// included), so one implementation serves all platforms; it must not move once initialized,
/// hence the class and the separately allocated lock. The value lives behind a pointer too, as
/// in `Mutex`: with a stored `var`, TSan reported Swift access races on an empty value
/// (`StoreMutex(())`, a lock that only orders its callers) that no lock could order.
///
/// ```swift
/// let counts = StoreMutex([String: Int]())
/// counts.withLock { $0["feeds", default: 0] += 1 }
/// ```
package final class StoreMutex<Value>: @unchecked Sendable {  // `value` is only touched while `lock` is held
  private let lock: UnsafeMutablePointer<pthread_mutex_t>
  private let value: UnsafeMutablePointer<Value>

  package init(_ initialValue: consuming sending Value) {
    value = .allocate(capacity: 1)
    value.initialize(to: initialValue)
    lock = .allocate(capacity: 1)
    lock.initialize(to: pthread_mutex_t())
    let status = pthread_mutex_init(lock, nil)
    precondition(status == 0, "pthread_mutex_init failed: \(status)")
  }

  deinit {
    pthread_mutex_destroy(lock)
    lock.deinitialize(count: 1)
    lock.deallocate()
    value.deinitialize(count: 1)
    value.deallocate()
  }

  /// Runs `body` with the value, holding the lock; other threads that call it wait meanwhile.
  package func withLock<Result: ~Copyable, E: Error>(
    _ body: (inout sending Value) throws(E) -> sending Result
  ) throws(E) -> sending Result {
    pthread_mutex_lock(lock)
    defer { pthread_mutex_unlock(lock) }
    return try body(&value.pointee)
  }

  /// Runs `body` with the value if the lock is free now, as `Mutex.withLockIfAvailable`; nil,
  /// without waiting, when another holds it.
  package func withLockIfAvailable<Result: ~Copyable, E: Error>(
    _ body: (inout sending Value) throws(E) -> sending Result
  ) throws(E) -> sending Result? {
    guard pthread_mutex_trylock(lock) == 0 else { return nil }
    defer { pthread_mutex_unlock(lock) }
    return try body(&value.pointee)
  }
}
