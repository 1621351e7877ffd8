import Foundation
import Synchronization

/// Ctrl-C (SIGINT) or SIGTERM during a command that stops cleanly between two steps (an import,
/// between its batches): the first asks the command to stop at the next step, so that what it
/// saved is kept and said, and a store it created with nothing in it is removed; a second ends
/// the process at once, as it would without this.
enum Interruption {
  /// The test hook: the command interrupts itself (SIGINT, delivered before `raise` returns) at
  /// the named step (`import-start`, `import-batch-N`), as a parent pressing Ctrl-C there would.
  static let testVariable = "BABYDASH_TEST_INTERRUPT_AT"

  /// Catches SIGINT and SIGTERM from now on, for the rest of the process; one the process was
  /// started ignoring stays ignored (a shell script's background job ignores Ctrl-C, meant for
  /// the job in the foreground).
  static func catchSignals() {
    var signals = sigset_t()
    sigemptyset(&signals)
    for signalNumber in [SIGINT, SIGTERM] {
      let previous = signal(signalNumber, interruptionRequested)
      if let previous, unsafeBitCast(previous, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) {
        signal(signalNumber, SIG_IGN)
      } else {
        sigaddset(&signals, signalNumber)
      }
    }
    // A parent may start us with them blocked (Foundation's Process does, from a thread that
    // blocks them): this thread takes them, and the threads it starts inherit that.
    pthread_sigmask(SIG_UNBLOCK, &signals, nil)
  }

  /// Whether a SIGINT or a SIGTERM came since ``catchSignals()``.
  static var isRequested: Bool { requested.load(ordering: .relaxed) }

  /// Raises SIGINT when `step` is the one the test hook names.
  static func testHook(_ step: String, environment: [String: String]) {
    if environment[testVariable] == step { raise(SIGINT) }
  }
}

private let requested = Atomic<Bool>(false)

/// A signal handler: only async-signal-safe work (a lock-free store; `signal`). The next signal
/// of either kind takes its default action: the process ends.
private func interruptionRequested(_ signalNumber: Int32) {
  requested.store(true, ordering: .relaxed)
  signal(SIGINT, SIG_DFL)
  signal(SIGTERM, SIG_DFL)
}
