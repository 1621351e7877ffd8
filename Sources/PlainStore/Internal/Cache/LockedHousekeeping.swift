import Foundation

/// What a commit leaves to do once the save has returned — the compactions it made due — run
/// on a thread of the engine's own, so that the save returns once its commit is durable, in
/// the cache and in the local log.
///
/// The manifest waited for the store's lock as a commit does, behind the other writers' turns:
/// among four writers, the save that compacted took 10–19 ms, against 9–10 ms for the slowest
/// of the others, and these few saves were most of the p99. Off the saving thread, in 16 rounds
/// of `babydash-bench --mp 20000 --procs 4 --commits 50` interleaved with GRDB's and eef634a's:
/// p99 12.7 ms against 16.1 (eef634a 13.9), commits per second +6 %. The segments followed it
/// here once they were written without the coordinator's lock (written holding it, they held
/// up this process's next commit, which held the store's lock: commits per second 0 to −13 %),
/// and so did the change files' compaction. The journal's settle stays on the saving thread:
/// off it, its flushes slowed the next commits' (one writer's p95 +9 to +30 %), where on it
/// they slow one save.
///
/// At most one compaction is in flight per container: the next commit that makes one due waits
/// for the last to end first (64 commits later, it has), so that it starts from that one's
/// manifest, as it did on the saving thread. It is safe against commits and other compactions
/// running meanwhile, as it is against other processes': its manifest is installed only over
/// the one it was made from. One cut short (the process ends) is the next compaction level's,
/// and the segments it wrote, which no manifest names, the next compaction's to remove.
/// ``StoreContainer`` waits for it when it goes away, so a tool's commit does not end with its
/// process before its compaction lands.
final class LockedHousekeeping: @unchecked Sendable {  // its `var`s are only touched while `changed` is locked
  /// Under a lock ThreadSanitizer sees, as ``ParkedThreads``'s.
  private let changed = NSCondition()
  private var running = 0
  /// How many of the running steps compact the change files.
  private var compactingChanges = 0
  /// The threads running steps: a step never waits for itself (a remote change it announces
  /// may let the container go on its thread).
  private var threads: [Thread] = []

  /// Runs `step` on a thread of the engine's (see ``ParkedThreads``). `compactsChanges`: it
  /// compacts the change files, which ``waitForChangeCompaction()`` waits for.
  func start(compactsChanges: Bool, _ step: @escaping @Sendable () -> Void) {
    changed.lock()
    running += 1
    if compactsChanges { compactingChanges += 1 }
    changed.unlock()
    ParkedThreads.shared.run { [self] in
      changed.lock()
      threads.append(Thread.current)
      changed.unlock()
      step()
      changed.lock()
      running -= 1
      if compactsChanges { compactingChanges -= 1 }
      threads.removeAll { $0 === Thread.current }
      changed.broadcast()
      changed.unlock()
    }
  }

  /// Waits for every step started so far to end; returns at once on a step's own thread.
  func wait() {
    changed.lock()
    defer { changed.unlock() }
    guard !threads.contains(where: { $0 === Thread.current }) else { return }
    while running > 0 { changed.wait() }
  }

  /// Waits for the change files' compaction a step runs, if one does.
  func waitForChangeCompaction() {
    changed.lock()
    defer { changed.unlock() }
    guard !threads.contains(where: { $0 === Thread.current }) else { return }
    while compactingChanges > 0 { changed.wait() }
  }
}
