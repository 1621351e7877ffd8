import Foundation

extension StoreCoordinator {
  // MARK: Catching up with other processes

  /// Takes the lock and applies the commits other processes made since this one last looked
  /// (announced by ``deliverRemoteChanges()``): what containers and contexts call.
  /// - Returns: whether anything new was applied.
  @discardableResult
  func catchUpWithOtherProcesses() throws -> Bool {
    try state.withLock { state in try catchUp(&state) }
  }

  /// Applies the commits other processes made since this one last looked. Their transactions
  /// wait in `state.undelivered` until ``deliverRemoteChanges()`` announces them.
  @discardableResult
  func catchUp(_ state: inout StoreState) throws -> Bool {
    try backing.catchUp(&state, self)
  }

  /// Catching up on files: the manifest, if another process wrote one, then the local log
  /// from this state's sequence on. Opening reads this device's commits from their change
  /// files (`values`), so that damage to them is found there.
  @discardableResult
  func catchUp(_ state: inout StoreState, _ files: StoreFiles, values: LogValues = .asRecorded) throws -> Bool {
    var appliedAny = false
    for _ in 0..<16 {
      let identity = files.manifestIdentity
      if identity != state.manifestIdentity {
        let manifest =
          try files.decode(Manifest.self, at: files.manifestURL, relative: files.manifestPath, decoder: StoreCoding.makeDecoder(schema: schema))
          ?? Manifest()
        try manifest.check(for: schema, files, opening: false)
        if manifest.sequence > state.sequence, try !logHolds(state.sequence + 1, state, files) {
          state.reload(from: manifest, schema: schema)
          appliedAny = true
        } else {
          for (name, table) in state.tables {
            table.adopt(manifest.segments[name] ?? [:], through: manifest.sequence)
          }
          state.manifest = manifest
        }
        state.manifestIdentity = identity
      }
      do {
        for entry in try readLog(from: state.sequence + 1, cursor: &state.logCursor, values: values, files) {
          state.apply(entry)
          if entry.changesObjects { state.undelivered.append(entry.transaction) }
          appliedAny = true
        }
      } catch let error as StoreError where error.code == .missing && state.manifest.sequence > state.sequence {
        // The change file that holds a commit's values was compacted away once the manifest
        // had folded the commit in: read the manifest's segments instead.
        state.reload(from: state.manifest, schema: schema)
        appliedAny = true
        continue
      }
      // Compaction may have pruned the next log between the manifest check and the reads.
      if files.manifestIdentity == state.manifestIdentity { break }
    }
    return appliedAny
  }

  /// Whether the local log still holds transaction `sequence` (compaction prunes old ones).
  private func logHolds(_ sequence: Int, _ state: StoreState, _ files: StoreFiles) throws -> Bool {
    switch files.layout {
    case .format1: return FileSystem.exists(files.format1LogURL(sequence))
    case .format2: return try !files.log.read(from: sequence, cursor: state.logCursor).records.isEmpty
    }
  }

  /// Where the values of the local log's entries come from.
  enum LogValues {
    /// Nowhere: history needs only which objects changed.
    case skipped
    /// The record, or the change file of a commit whose record does not carry them (see
    /// `localLogRecord`): a catch-up on what another process just wrote and checked.
    case asRecorded
    /// A commit of this device's change file, whatever its record carries: opening checks the
    /// truth the cache stands on, as a rebuild would.
    case fromChangeFiles
  }

  /// The local log's entries from `sequence` on, as far as they go without a gap, and `cursor`
  /// moved past them, with their values from where `values` says.
  func readLog(from sequence: Int, cursor: inout LocalLog.Cursor?, values: LogValues, _ files: StoreFiles) throws -> [LogEntry] {
    var entries: [(entry: LogEntry, path: String)] = []
    // Made only for records to decode: most looks of a waiting writer find none.
    lazy var decoder = StoreCoding.makeDecoder(schema: schema)
    switch files.layout {
    case .format1:
      var next = sequence
      while let data = try FileSystem.read(files.format1LogURL(next), displayPath: files.display(files.format1LogPath(next))) {
        let path = files.display(files.format1LogPath(next))
        entries.append((try files.decode(LogEntry.self, from: data, path: path, decoder: decoder), path))
        next += 1
      }
    case .format2:
      let (records, after) = try files.log.read(from: sequence, cursor: cursor)
      for record in records {
        let path = files.log.displayPath(record.stream)
        let entry =
          try LogRecordReader.entry(record.bytes, schema: schema, userInfo: decoder.userInfo)
          ?? files.decode(LogEntry.self, from: record.bytes, path: path, decoder: decoder)
        entries.append((entry, path))
      }
      cursor = after
    }
    return try entries.enumerated().map { index, read in
      var entry = read.entry
      guard entry.sequence == sequence + index else {
        throw StoreError(
          .damaged, path: read.path, "holds transaction \(entry.sequence), not \(sequence + index) — \(StoreFiles.untouched)")
      }
      let carried = !entry.changes.contains(where: { $0.isPut && $0.value == nil })
      if values == .skipped || (values == .asRecorded && carried) {
        return entry
      } else if let origin = entry.origin {
        try fillValues(&entry, from: origin, files: files, logPath: read.path)
      } else if !carried {
        throw StoreError(.damaged, path: read.path, "a change has no value and no change file holds it — \(StoreFiles.untouched)")
      }
      return entry
    }
  }

  /// Announces the other processes' commits noticed so far.
  func deliverRemoteChanges() {
    let (transactions, reloaded) = state.withLock { state in
      defer {
        state.undelivered = []
        state.undeliveredReload = false
      }
      return (state.undelivered, state.undeliveredReload)
    }
    guard !transactions.isEmpty || reloaded else { return }
    broadcaster.announceRemote(RemoteChange(transactions: transactions, reloaded: reloaded))
  }
}
