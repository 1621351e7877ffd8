import Foundation

extension StoreCoordinator {
  /// The compactions a commit made due, run on the engine's housekeeping thread once the save
  /// has returned (see ``LockedHousekeeping``): the cache's, then, in turn, this device's change
  /// files' (which folds every file, a second at 20k objects). A save waits for neither: its
  /// commit is durable (the journal), in the cache's tables and in the local log, so other
  /// processes read it as soon as it returns, and a compaction cut off (the process ends) is
  /// the next level's. Written on the saving thread, the segments were a save's p99 (2.2 ms
  /// against GRDB's 0.48 at 20k objects, one writer).
  ///
  /// What the cache's compaction writes is taken here, on the saving thread, as the state
  /// holds it right after the commit, as it was when the compaction ran here: the changed
  /// segments' objects as copies (``takeSegments(_:)``: they share their arrays until a commit
  /// changes them) with the manifest's other fields, at one sequence. A compaction due while
  /// this process's last one is still running waits for it first: its segments start from
  /// that one's manifest rather than the one before, which that manifest's coming would make
  /// it refuse.
  func compactAfterCommit(_ due: CompactionsDue, _ files: StoreFiles, _ lock: FileLock) {
    lockedHousekeeping.wait()
    var taken: SegmentsToWrite?
    if due.cache {
      do {
        taken = try state.withLock { state in isCompactionDue(state) ? try takeSegments(&state) : nil }
      } catch {
        state.withLock { $0.statistics.housekeepingFailures += 1 }
      }
    }
    guard taken != nil || due.changes else { return }
    lockedHousekeeping.start(compactsChanges: due.changes) { [self, taken] in
      if let taken { writeAndInstall(taken, files, lock) }
      if due.changes {
        do { _ = try compactChanges(files, lock) } catch { state.withLock { $0.statistics.housekeepingFailures += 1 } }
      }
    }
  }

  /// The cache's compaction after a commit, on the housekeeping thread: the segments taken are
  /// encoded, written and flushed holding no lock, while this process and others commit, and
  /// the store's flock is taken again for the manifest alone. Under four writers, writing a
  /// month's segment held the flock for a few milliseconds every 64 commits; holding the
  /// coordinator's lock, it held up this process's next save, which held the flock.
  ///
  /// The segments are of one state, at one sequence, and named for it: the manifest that names
  /// them is written only if no other has been since (which a compaction's or a rebuild's
  /// removals come with), and the commits made meanwhile stay in the log after that sequence.
  /// Segments that no manifest names are removed by the next compaction, as a crash's are.
  ///
  /// Holding the flock, it does only what must be done there: the manifest and the id filters
  /// are encoded with the segments, the commits made while they were written are read before
  /// the flock is taken and while it waits for it (as a commit's are), and the folders that
  /// lost files are flushed once it is let go. Among four writers (4 × 200 commits, 13
  /// compactions) a compaction held the flock 3.2–4.1 ms on average, and 2.2 ms so.
  private func writeAndInstall(_ taken: SegmentsToWrite, _ files: StoreFiles, _ lock: FileLock) {
    let compaction: SegmentCompaction
    do {
      compaction = try writeSegments(taken, files)
    } catch {
      state.withLock { $0.statistics.housekeepingFailures += 1 }
      return
    }
    options.phaseObserver?("compact: segments written")
    installAfterCommit(compaction, files, lock)
  }

  /// A commit's compaction's last step: its manifest installed, holding the flock, unless
  /// another came first.
  private func installAfterCommit(_ compaction: SegmentCompaction, _ files: StoreFiles, _ lock: FileLock) {
    do {
      let catchUp: @Sendable () -> Void = { [self] in _ = try? catchUpWithOtherProcesses() }  // a damaged file is found holding the flock
      catchUp()
      let removed = try lock.withLock(timeout: options.lockTimeout, whileWaiting: catchUp) {
        try state.withLock { state in
          try self.catchUp(&state)
          guard state.manifestIdentity == compaction.replacing else { return false }  // another manifest came first
          return try install(compaction, &state, files)
        }
      }
      if removed { syncFoldersAfterRemovals(files) }
    } catch {
      state.withLock { $0.statistics.housekeepingFailures += 1 }
    }
  }
}
