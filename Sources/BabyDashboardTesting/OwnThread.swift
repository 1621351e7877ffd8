import Foundation

/// Runs long blocking work — kill rounds, hundreds of seeded runs — on a thread of its own, off
/// the few threads (one per core) that every test's async work shares, so that the tests that
/// wait for a notification meanwhile are not starved. `#expect` does not reach across threads:
/// `body` returns what the test then checks.
///
/// `computing`: the body keeps a core busy from start to end (seeded runs, which do no waiting).
/// Such bodies take turns, one per core at once in the process: a dozen of them side by side
/// (three CI runs, each with its seeded suites in parts) left the shared threads a fortieth of
/// the cores, and the live-query tests waited out their deadlines behind them. Kill rounds wait
/// on their children and do not take turns.
public func onOwnThread<T: Sendable>(computing: Bool = false, _ body: @escaping @Sendable () throws -> T) async throws -> T {
  try await withCheckedThrowingContinuation { continuation in
    Thread {
      if computing { computingTurns.wait() }
      let result = Result { try body() }
      if computing { computingTurns.signal() }
      continuation.resume(with: result)
    }.start()
  }
}

/// One turn per core for ``onOwnThread(computing:_:)``'s computing bodies.
private let computingTurns = DispatchSemaphore(value: max(1, ProcessInfo.processInfo.activeProcessorCount))
