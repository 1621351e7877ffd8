import Foundation

/// Threads of the engine's own that wait, parked, for their next job once one ends: a job
/// runs at once on a parked thread, or on a new one when none is free, so no job ever waits
/// behind another.
///
/// What the engine ran on a thread started for it — a commit's wait for the store's lock, in the
/// kernel, and the commit it then runs; a flush lane — starts no thread in the common case, and
/// runs on a stack and in an allocator arena that earlier jobs left warm. Among four writer
/// processes, every waiting commit started a thread with a 4 MiB stack and ran the commit,
/// holding the store's lock, on pages the kernel first had to fault in.
///
/// Not a Dispatch queue: a job may block in the kernel for as long as another process holds the
/// store's lock, and the caller waits for it holding the store's state, so it must never wait
/// behind the app's work on a pool that may be full. A thread parked for `idleLifetime` with
/// nothing to do ends.
final class ParkedThreads: Sendable {
  static let shared = ParkedThreads()

  /// A commit needs an ordinary thread's stack.
  static let stackSize = 4 * 1024 * 1024
  static let idleLifetime: TimeInterval = 30

  /// One thread: the job handed to it, under its condition's lock (a lock ThreadSanitizer sees).
  private final class Parked: @unchecked Sendable {  // `job` is only touched while `wake` is locked
    let wake = NSCondition()
    var job: (() -> Void)?
  }

  private let idle = StoreMutex<[Parked]>([])

  /// Runs `job` on a parked thread, or on a new one.
  func run(_ job: @escaping @Sendable () -> Void) {
    if let parked = idle.withLock({ $0.popLast() }) {
      parked.wake.lock()
      parked.job = job
      parked.wake.signal()
      parked.wake.unlock()
      return
    }
    let parked = Parked()
    parked.job = job
    let thread = Thread { [self] in serve(parked) }
    thread.stackSize = Self.stackSize
    thread.start()
  }

  private func serve(_ parked: Parked) {
    while true {
      do {  // the job, and what it holds, let go before the thread parks
        parked.wake.lock()
        let job = parked.job
        parked.job = nil
        parked.wake.unlock()
        job?()
      }
      guard park(parked) else { return }
    }
  }

  /// Parks the thread until a job is handed to it; false when none came in `idleLifetime`,
  /// and the thread is no longer listed as idle.
  private func park(_ parked: Parked) -> Bool {
    idle.withLock { $0.append(parked) }
    parked.wake.lock()
    defer { parked.wake.unlock() }
    while parked.job == nil {
      if !parked.wake.wait(until: Date(timeIntervalSinceNow: Self.idleLifetime)) {
        // Gone from the list unless a caller took it just now: its job is on its way.
        let left = idle.withLock { list in
          guard let index = list.firstIndex(where: { $0 === parked }) else { return false }
          list.remove(at: index)
          return true
        }
        if left { return false }
      }
    }
    return true
  }
}
