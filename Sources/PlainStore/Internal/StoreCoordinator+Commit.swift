import Foundation

extension StoreCoordinator {
  /// Commits a context's changes as one transaction: all or nothing, durable before it returns.
  /// Returns nil when the changes change nothing.
  func commit(_ changes: [PendingChange], author: String) throws -> Transaction? {
    guard !changes.isEmpty else { return nil }
    let transaction: Transaction?
    if let lock {
      transaction = try lock.withLock(timeout: options.lockTimeout) { try commitHoldingLock(changes, author: author) }
    } else {
      transaction = try commitHoldingLock(changes, author: author)
    }
    deliverRemoteChanges()
    if let transaction { broadcaster.announceSave(transaction) }
    return transaction
  }

  private func commitHoldingLock(_ changes: [PendingChange], author: String) throws -> Transaction? {
    try state.withLock { state -> Transaction? in
      try catchUp(&state)  // first, the commits of other processes
      var planner = CommitPlanner(coordinator: self, state: state)
      let planned: LogEntry?
      do {
        planned = try planner.plan(changes, author: author, timestamp: options.clock())
        state = planner.state
      } catch {
        state = planner.state
        throw error
      }
      guard let entry = planned else { return nil }
      if let files {
        if !state.cleanedTemporaryFiles {
          try createLayout(files)
          for folder in [files.root, files.segmentsURL, files.logURL] { FileSystem.removeLeftoverTemporaryFiles(in: folder) }
          state.cleanedTemporaryFiles = true
        }
        let relative = "log/" + StoreFiles.logName(entry.sequence)
        try files.write(entry, to: files.logFileURL(entry.sequence), relative: relative, encoder: StoreCoding.makeEncoder())
        state.statistics.logFilesWritten += 1
      }
      state.apply(entry)
      let transaction = entry.transaction
      if files == nil {
        state.memoryHistory.append(transaction)
      } else if state.sequence - state.manifest.sequence >= options.compactionThreshold
        || state.changesSinceManifest >= Self.compactionChangeThreshold
      {
        try compact(&state)
      }
      return transaction
    }
  }

  /// Compact also once this many objects changed since the last compaction, so a bulk save
  /// does not leave a huge log for every later open to replay.
  static let compactionChangeThreshold = 2_000
}
