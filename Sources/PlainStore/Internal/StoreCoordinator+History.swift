import Foundation

extension StoreCoordinator {
  /// The transactions after `token`, oldest first, read from the log.
  func history(after token: HistoryToken?) throws -> [Transaction] {
    let after = token?.sequence ?? 0
    guard let files else {
      return state.withLock { state in state.memoryHistory.filter { $0.sequence > after } }
    }
    let last = try state.withLock { state -> Int in
      try catchUp(&state)
      return state.sequence
    }
    deliverRemoteChanges()
    let decoder = StoreCoding.makeDecoder(schema: schema)
    var transactions: [Transaction] = []
    var sequence = after + 1
    while sequence <= last {
      guard let entry = try readLog(sequence, decoder: decoder, values: false) else {
        throw StoreError(
          .historyPruned, path: files.display(files.logPath(sequence)),
          "the history after transaction \(after) was pruned — read the current state instead and continue from token \(last).")
      }
      transactions.append(entry.transaction)
      sequence += 1
    }
    return transactions
  }

  /// The last transaction committed, as this process knows it.
  var currentToken: HistoryToken {
    state.withLock { HistoryToken(sequence: $0.sequence) }
  }

  /// The token a named history reader has consumed through; nil if it never consumed anything.
  func readerToken(_ name: String) throws -> HistoryToken? {
    try state.withLock { state in
      try catchUp(&state)
      return state.manifest.readers[name].map(HistoryToken.init(sequence:))
    }
  }

  /// Records that a reader consumed history through `token`: compaction keeps later logs for it.
  func setReaderToken(_ name: String, _ token: HistoryToken?) throws {
    try withWriteLock { state in
      if let token { state.manifest.readers[name] = token.sequence } else { state.manifest.readers[name] = nil }
      try writeManifest(&state)
    }
  }

  /// Removes history up to and including `token`, except what the state still needs (the logs
  /// after the manifest) and what a registered reader has not consumed (within
  /// `historyRetentionLimit`, as compaction keeps it).
  func pruneHistory(through token: HistoryToken) throws {
    try withWriteLock { state in
      if let files {
        if state.manifest.sequence < min(token.sequence, state.sequence) { try compact(&state) }
        let limit = min(token.sequence, state.manifest.sequence, readersFloor(state.manifest))
        for name in FileSystem.list(files.logURL) {
          guard name.hasSuffix(".json"), let sequence = Int(name.dropLast(5)), sequence <= limit else { continue }
          FileSystem.remove(files.logURL.appendingPathComponent(name))
        }
        try FileSystem.syncFolder(files.logURL, displayPath: files.display(files.cachePrefix + "log"))
      } else {
        let limit = min(token.sequence, readersFloor(state.manifest))
        state.memoryHistory.removeAll { $0.sequence <= limit }
      }
    }
  }

  /// Compacts now, whatever the log's length.
  func compactNow() throws {
    try withWriteLock { state in try compact(&state) }
  }

  func withWriteLock<T>(_ body: (inout StoreState) throws -> T) throws -> T {
    let result: T
    if let lock {
      result = try lock.withLock(timeout: options.lockTimeout) {
        try state.withLock { state in
          try catchUp(&state)
          return try body(&state)
        }
      }
    } else {
      result = try state.withLock { state in try body(&state) }
    }
    deliverRemoteChanges()
    return result
  }

  private func writeManifest(_ state: inout StoreState) throws {
    guard let files else { return }
    try createLayout(files)
    try files.write(state.manifest, to: files.manifestURL, relative: files.manifestPath, encoder: StoreCoding.makeEncoder())
    state.manifestIdentity = FileSystem.identity(files.manifestURL)
  }
}
