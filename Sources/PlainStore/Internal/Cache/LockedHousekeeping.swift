import Foundation

/// The step of a commit's housekeeping that takes the store's lock again once the commit has
/// let it go — a compaction's manifest — run on a thread of the engine's own, so that the save
/// returns once its commit is durable and in the cache.
///
/// It waited for the lock as a commit does, behind the other writers' turns: among four
/// writers, the save that compacted took 10–19 ms, against 9–10 ms for the slowest of the
/// others, and these few saves were most of the p99. Off the saving thread, in 16 rounds of
/// `babydash-bench --mp 20000 --procs 4 --commits 50` interleaved with GRDB's and eef634a's:
/// p99 12.7 ms against 16.1 (eef634a 13.9), commits per second +6 %; one writer (8 rounds of
/// 300 commits) p95 1.04 ms against 1.05. The segments stay on the saving thread: written here
/// too, they held the coordinator's lock while this process's next commit, holding the store's
/// lock, waited for it (commits per second 0 to −13 % in four sets of rounds). So does the
/// journal's settle: off it, its flushes slowed the next commits' (one writer's p95 +9 to
/// +30 %), where on it they slow one save.
///
/// The manifest is safe against commits and other compactions running meanwhile, as it is
/// against other processes': it is installed only over the one it was made from. One cut short
/// (the process ends) is the next compaction level's. ``StoreContainer`` waits for it when it
/// goes away, so a tool's commit does not end with its process before its compaction lands.
final class LockedHousekeeping: @unchecked Sendable {  // `running` is only touched while `changed` is locked
  /// Under a lock ThreadSanitizer sees, as ``ParkedThreads``'s.
  private let changed = NSCondition()
  private var running = 0

  /// Runs `step` on a thread of the engine's (see ``ParkedThreads``).
  func start(_ step: @escaping @Sendable () -> Void) {
    changed.lock()
    running += 1
    changed.unlock()
    ParkedThreads.shared.run { [self] in
      step()
      changed.lock()
      running -= 1
      if running == 0 { changed.broadcast() }
      changed.unlock()
    }
  }

  /// Waits for every step started so far to end.
  func wait() {
    changed.lock()
    while running > 0 { changed.wait() }
    changed.unlock()
  }
}
