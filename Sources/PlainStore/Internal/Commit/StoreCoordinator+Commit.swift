import Foundation

extension StoreCoordinator {
  /// Commits a context's changes as one transaction: all or nothing, durable before it returns.
  /// Returns nil when the changes change nothing.
  func commit(_ changes: [PendingChange], author: String) throws -> SaveResult {
    guard !changes.isEmpty else { return SaveResult(transaction: nil) }
    let result: SaveResult
    if let lock {
      // The change file's inode is found before the lock is taken, while others may hold it.
      let spare = files.flatMap { SpareFile(in: $0.cacheURL.path) }
      defer { spare?.discard() }
      // A damaged cache file found before the change file is written: rebuilt, and the commit
      // tried once more (nothing of it is on disk yet).
      result = try repairingCache {
        try lock.withLock(timeout: options.lockTimeout, onWaitingThread: true) {
          try commitHoldingLock(changes, author: author, spare: spare)
        }
      }
    } else {
      result = try commitHoldingLock(changes, author: author, spare: nil)
    }
    deliverRemoteChanges()
    if let transaction = result.transaction { broadcaster.announceSave(transaction) }
    return result
  }

  private func commitHoldingLock(_ changes: [PendingChange], author: String, spare: SpareFile?) throws -> SaveResult {
    var merged: [ObjectID: ObjectID] = [:]
    let transaction = try state.withLock { state -> Transaction? in
      try catchUp(&state)  // first, the commits of other processes
      var planner = makePlanner(state)
      var planned: LogEntry?
      do {
        planned = try planner.plan(changes, author: author, timestamp: options.clock())
        state = planner.state
        for (from, to) in planner.merged {
          merged[ObjectID(entityName: from.entity, uuid: from.id)] = ObjectID(entityName: to.entity, uuid: to.id)
        }
      } catch {
        state = planner.state
        throw error
      }
      guard var entry = planned else { return nil }
      planned = nil  // the entry's only holder now: its changes are changed in place below
      guard let files else {
        state.apply(entry)
        state.memoryHistory.append(entry.transaction)
        return entry.transaction
      }
      if !state.cleanedTemporaryFiles {
        try createLayout(files)
        for folder in [files.root, files.cacheURL, files.segmentsURL, files.logURL] { FileSystem.removeLeftoverTemporaryFiles(in: folder) }
        state.cleanedTemporaryFiles = true
      }
      let (change, filePath, displayPath, inOutbox) = try nameChangeFile(for: entry, originals: planner.originalValue, &state, files)
      entry.folded = [change.stamp]
      entry.origin = change.stamp
      if entry.changes.indices.contains(where: { RecentWrites.reshapes(change.objects[$0], existed: entry.changes[$0].kind == .update, mergeSchema) }) {
        entry.reshapes = true
      }
      let transaction = entry.transaction
      // What the cache takes of the commit: the tables, and the log record, which names the
      // changes only (their values are in the change file; dropped in place once the tables
      // hold them). Written only once the change file is durable.
      func takeIntoTables() -> Data? {
        state.apply(entry)
        for index in entry.changes.indices { entry.changes[index].value = nil }
        return try? LocalLog.record(entry)
      }
      // The commit point: this device's change file, durable (in the journal, or on its own).
      let write = { try self.writeChangeFile(change, atPath: filePath, displayPath: displayPath, inOutbox: inOutbox, spare: spare, files) }
      let written: WrittenChange
      let record: Data?
      if entry.changes.count < Self.concurrentWriteThreshold {
        written = try write()
        record = takeIntoTables()
      } else {
        // A large commit: the tables take it in while another thread writes its change file.
        // Should the write fail, they are read again from the files, which hold nothing of it.
        let writing = ConcurrentWork(write)
        record = takeIntoTables()
        do {
          written = try writing.result()
        } catch {
          rereadTables(&state)
          throw error
        }
      }
      // The rest is the cache's: a failure now does not undo the commit, and is repaired from
      // the journal and the change files at the next open.
      var logged = false
      if written.published, let record {
        do {
          try appendLocalLog(record, sequence: entry.sequence, &state, files)
          logged = true
        } catch {}
      }
      if !logged {
        state.statistics.housekeepingFailures += 1
        // The local log now has a hole where this commit goes: no compaction over it, and the
        // next open rebuilds the cache (best effort: the marker may fail to write too, and
        // then the change file is merged at the next open as a crashed commit is).
        try? FileSystem.writeAtomically(Data(), to: files.rebuildMarkerURL, displayPath: files.display(files.cachePrefix + "rebuild"))
      }
      if let size = written.journalSize, size >= Self.journalSettleSize {
        do { try settleJournal(files) } catch { state.statistics.housekeepingFailures += 1 }
      }
      if logged,
        state.sequence - state.manifest.sequence >= options.compactionThreshold
          || state.changesSinceManifest >= Self.compactionChangeThreshold
      {
        do {
          if takeChangeCompactionTurn(&state) { _ = try compactChanges(&state, files) } else { try compact(&state) }
        } catch {
          state.statistics.housekeepingFailures += 1
        }
      }
      if !state.crashedCommits.isEmpty {
        do { _ = try mergeArrived(&state, files: files, always: false) } catch { state.statistics.housekeepingFailures += 1 }
      }
      return transaction
    }
    return SaveResult(transaction: transaction, merged: merged)
  }

  /// Puts the tables back as the files have them, for a commit whose change file failed after
  /// they took it in: the manifest and the log read again. The locks are still held, so nothing
  /// arrives meanwhile, and the rest of the state (the device, what other processes' commits
  /// were noticed and not yet announced, the sync status) stays as it was. Should reading fail
  /// too, the state is the manifest's until the next catch-up, which reads the log again.
  private func rereadTables(_ state: inout StoreState) {
    let kept = state
    state.reset(to: kept.manifest, schema: schema)
    state.device = kept.device
    state.clock = kept.clock  // still ahead of every stamp handed out
    state.crashedCommits = kept.crashedCommits
    state.cleanedTemporaryFiles = kept.cleanedTemporaryFiles
    state.lastRebuildReason = kept.lastRebuildReason
    state.mergeWarnings = kept.mergeWarnings
    state.awaitingUpdate = kept.awaitingUpdate
    _ = try? catchUp(&state)
    state.undelivered = kept.undelivered
    state.undeliveredReload = kept.undeliveredReload
  }

  /// A change file as a commit left it: durable once the commit returns, through the journal
  /// (`journalSize`, the journal's size after the append) or flushed on its own.
  struct WrittenChange {
    /// Whether the change file is in `changes/`: false when only its journal record is
    /// (creating the file failed after the record was flushed), until the next open.
    var published: Bool
    var journalSize: Int?
  }

  /// A commit of this many changes or more writes its change file on another thread while the
  /// tables take it in (see `ConcurrentWork`): a bulk save's file takes as long to encode and
  /// flush as the tables take to fill. Below it, a thread costs more than it saves.
  static let concurrentWriteThreshold = 1_000

  /// The change file of a planned transaction, under the next sequence of this device, and
  /// where it goes: the sync folder, or the outbox while the carrier is not there or the outbox
  /// could not be emptied into it (`drainOutbox`). A name already taken holds a commit of this
  /// device that a crash kept from the cache: it is skipped here and merged right after.
  private func nameChangeFile(
    for entry: LogEntry, originals: (ObjectKey) -> (any Entity)?, _ state: inout StoreState, _ files: StoreFiles
  ) throws -> (ChangeFile, path: String, display: String, inOutbox: Bool) {
    let device = try ensureDevice(&state, files)
    // By index, each change read in place: binding one to a name copies it.
    let objects = try entry.changes.indices.map { index -> ObjectChange in
      let (entity, id) = (entry.changes[index].entity, entry.changes[index].id)
      switch entry.changes[index].kind {
      case .delete:
        return ObjectChange(entity: entity, id: id, kind: .delete, fields: nil)
      case .insert:
        var object = ObjectChange(entity: entity, id: id, kind: .upsert, value: entry.changes[index].value, groups: nil)
        object.encodedValue = entry.changes[index].encoded
        return object
      case .update:
        let value = entry.changes[index].value
        let groups = try changedGroups(from: originals(ObjectKey(entity: entity, id: id)), to: value, mergeSchema.entities[entity])
        var object = ObjectChange(entity: entity, id: id, kind: .upsert, value: value, groups: groups)
        object.encodedValue = entry.changes[index].encoded
        return object
      }
    }
    let hlc = state.clock.tick(now: entry.timestamp)
    let toSyncFolder: Bool
    do {
      toSyncFolder = try drainOutbox(&state, files)
    } catch {
      state.statistics.housekeepingFailures += 1  // the commit waits in the outbox; the next drain says why
      toSyncFolder = false
    }
    let carrying = toSyncFolder || files.changes.isCarrying
    if toSyncFolder { try files.changes.makeDeviceFolder(device) } else { try files.changes.outbox.makeDeviceFolder(device) }
    var sequence = state.folded.newest(of: device) + 1
    while files.changes.isTaken(device, ChangeFileName.changeName(sequence: sequence), carrying: carrying) {
      state.crashedCommits.insert(sequence)
      sequence += 1
    }
    let change = ChangeFile(
      device: device, sequence: sequence, hlc: hlc, author: entry.author, timestamp: entry.timestamp,
      schemaVersion: schema.version, objects: objects)
    let name = change.fileName
    return toSyncFolder
      ? (change, files.changes.filePath(device, name), files.changes.display(device, name), false)
      : (change, files.changes.outbox.filePath(device, name), files.changes.outbox.display(device, name), true)
  }

  /// Writes a named change file: durable when this returns. One that goes through the journal
  /// is written into `spare` when it can be. One in the outbox (the app group) is created as it
  /// is; one in the sync folder inside the carrier's coordination. Touches no state: it may run
  /// on another thread.
  private func writeChangeFile(
    _ change: ChangeFile, atPath filePath: String, displayPath path: String, inOutbox: Bool, spare: SpareFile?, _ files: StoreFiles
  ) throws -> WrittenChange {
    let transport = files.changes.transport
    func create<T>(_ body: (String) throws -> T) throws -> T {
      inOutbox ? try body(filePath) : try transport.coordinateCreating(atPath: filePath, body)
    }
    let bytes = try ChangeFileCodec.encode(change)
    guard bytes.count <= Self.journalRecordLimit else {
      _ = try create { try FileSystem.createOnce(bytes, atPath: $0, displayPath: path) }
      return WrittenChange(published: true, journalSize: nil)
    }
    let journalSize = try files.journal.append(CommitJournal.Record(device: change.device, sequence: change.sequence, bytes: bytes))
    do {
      _ = try create { try FileSystem.createOnce(bytes, atPath: $0, displayPath: path, durable: false, spare: spare) }
      return WrittenChange(published: true, journalSize: journalSize)
    } catch {
      return WrittenChange(published: false, journalSize: journalSize)
    }
  }

  /// The field groups an update changes: those with a property whose JSON differs.
  private func changedGroups(from old: (any Entity)?, to new: (any Entity)?, _ entity: MergeSchema.Entity?) throws -> [String]? {
    guard let old, let new, let entity else { return nil }
    let before = try EntityFields.of(old)
    let after = try EntityFields.of(new)
    var groups: Set<String> = []
    for key in Set(before.keys).union(after.keys) where key != entity.identityKey && before[key] != after[key] {
      groups.insert(entity.group(of: key))
    }
    return groups.sorted()
  }

  /// Compact also once this many objects changed since the last compaction, so a bulk save
  /// does not leave a huge log for every later open to replay.
  static let compactionChangeThreshold = 2_000
}
