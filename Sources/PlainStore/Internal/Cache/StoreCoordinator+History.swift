import Foundation

extension StoreCoordinator {
  /// The transactions after `token` (all the log still holds for nil), oldest first, read from
  /// the log. A damaged log file is the cache's: rebuilt, after which the history it held is
  /// pruned.
  func history(after token: HistoryToken?) throws -> [Transaction] {
    try backing.history(after: token, self)
  }

  /// History on files, read from the local log.
  func historyFromLog(after token: HistoryToken?, _ files: StoreFiles) throws -> [Transaction] {
    let last = try state.withLock { state -> Int in
      try catchUp(&state)
      return state.sequence
    }
    deliverRemoteChanges()
    let after = token?.sequence ?? ((files.log.streams().first ?? last + 1) - 1)
    guard after < last else { return [] }
    var cursor: LocalLog.Cursor?
    let entries = try readLog(from: after + 1, cursor: &cursor, values: .skipped, files)
    guard entries.count >= last - after else {
      // Missing from a stream that should hold it is damage; from before every stream, pruned.
      let missing = after + 1 + entries.count
      if let stream = files.log.streams().last(where: { $0 <= missing }) {
        throw StoreError(
          .damaged, path: files.log.displayPath(stream), "holds no whole record of transaction \(missing) — \(StoreFiles.untouched)")
      }
      throw StoreError(
        .historyPruned, path: files.log.displayName,
        "the history after transaction \(after) was pruned — read the current state instead and continue from token \(last).")
    }
    return entries.prefix(last - after).filter(\.changesObjects).map(\.transaction)
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
    try refuseIfReadOnly("record what a history reader consumed")
    try withWriteLock { state in
      if let token { state.manifest.readers[name] = token.sequence } else { state.manifest.readers[name] = nil }
      try backing.writeManifest(&state, self)
    }
  }

  /// Removes history up to and including `token`, except what the state still needs (the logs
  /// after the manifest) and what a registered reader has not consumed (within
  /// `historyRetentionLimit`, as compaction keeps it).
  func pruneHistory(through token: HistoryToken) throws {
    try withWriteLock { state in try backing.pruneHistory(through: token, &state, self) }
  }

  /// Pruning on files: the log's records, after a compaction if the manifest is behind.
  func pruneHistory(through token: HistoryToken, _ state: inout StoreState, _ files: StoreFiles) throws {
    if state.manifest.sequence < min(token.sequence, state.sequence) { try compact(&state) }
    let limit = min(token.sequence, state.manifest.sequence, readersFloor(state.manifest))
    if try files.log.removeRecords(through: limit) {
      state.logCursor = nil  // its stream may be gone
      // No power-loss state needs this flush: the log is the cache's and never flushed (a commit's appends are not either); a record a power loss takes or brings back is read again from changes/ or passed over (PowerLossTests: history pruning).
      try FileSystem.syncFolder(files.logURL, displayPath: files.log.displayName)
    }
  }

  /// Compacts now, whatever the log's length.
  func compactNow() throws {
    try withWriteLock { state in try compact(&state) }
  }

  func withWriteLock<T>(_ body: (inout StoreState) throws -> T) throws -> T {
    let result = try backing.withStoreLock(self, onWaitingThread: false, whileWaiting: nil) {
      try state.withLock { state in
        try catchUp(&state)
        return try body(&state)
      }
    }
    deliverRemoteChanges()
    return result
  }

  /// Writing the manifest on files.
  func writeManifest(_ state: inout StoreState, _ files: StoreFiles) throws {
    try files.createLayout()
    try files.write(state.manifest, to: files.manifestURL, relative: files.manifestPath, encoder: StoreCoding.makeEncoder())
    state.manifestIdentity = files.manifestIdentity
  }
}
