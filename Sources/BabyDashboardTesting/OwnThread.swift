import Foundation

/// Runs long blocking work — kill rounds, hundreds of seeded runs — on a thread of its own, off
/// the few threads (one per core) that every test's async work shares, so that the tests that
/// wait for a notification meanwhile are not starved. `#expect` does not reach across threads:
/// `body` returns what the test then checks.
public func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
  try await withCheckedThrowingContinuation { continuation in
    Thread { continuation.resume(with: Result { try body() }) }.start()
  }
}
