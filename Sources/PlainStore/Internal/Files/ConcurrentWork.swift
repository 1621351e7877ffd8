import Foundation

/// Work that runs on a thread of its own while the caller goes on, and whose result or error
/// the caller takes when it needs it.
///
/// A thread of its own rather than a shared queue's: the caller waits for it holding the
/// store's locks, so it must not wait behind the app's work on a pool that may be full.
final class ConcurrentWork<T>: @unchecked Sendable {  // `outcome` is written once, before `done`
  private var outcome: Result<T, any Error>?
  private let done = DispatchSemaphore(value: 0)

  init(_ body: @escaping () throws -> T) {
    let body = UncheckedSendable(body)
    Thread.detachNewThread { [self] in
      outcome = Result(catching: body.value)
      done.signal()
    }
  }

  /// Waits for the work to end; returns its result or throws its error. Called once.
  func result() throws -> T {
    done.wait()
    return try outcome!.get()
  }
}

/// A value handed to another thread that the caller no longer touches meanwhile.
private struct UncheckedSendable<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}
