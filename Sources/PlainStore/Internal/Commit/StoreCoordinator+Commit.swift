import Foundation

extension StoreCoordinator {
  /// Commits a context's changes as one transaction: all or nothing, durable before it returns.
  /// Returns nil when the changes change nothing.
  func commit(_ changes: [PendingChange], author: String) throws -> SaveResult {
    guard !changes.isEmpty else { return SaveResult(transaction: nil) }
    try refuseIfReadOnly("save")
    // A change compaction the save before started ends first: it merges what has arrived by
    // then and logs its snapshot, and this commit comes after both, as when it ran on that
    // save's thread. Saves a person makes are seconds apart; only back-to-back ones wait, once
    // every `changeCompactionThreshold` commits.
    lockedHousekeeping.waitForChangeCompaction()
    // The change file's inode is found before the lock is taken, while others may hold it.
    let spare = backing.spareChangeFile()
    defer { spare?.discard() }
    // While other processes hold the lock, their commits are read as they come, and what this
    // commit's plan reads is loaded once (its month's segment and uniqueness index, which a
    // writer's first commit builds): holding the lock, the commit then reads only the last of
    // them (a damaged file is found there) and plans against what is loaded.
    let prepared = StoreMutex(false)
    let whileWaiting: @Sendable () -> Void = { [self] in
      _ = try? catchUpWithOtherProcesses()
      if !prepared.withLock({ done in defer { done = true }; return done }) { prepareCommit(changes) }
    }
    // A damaged cache file found before the change file is written: rebuilt, and the commit
    // tried once more (nothing of it is on disk yet).
    let (result, settlesJournal, due) = try repairingCache {
      try backing.withStoreLock(self, onWaitingThread: true, whileWaiting: whileWaiting) {
        try commitHoldingLock(changes, author: author, spare: spare, backing)
      }
    }
    // The lock let go: others commit meanwhile, and the compactions follow the save.
    if settlesJournal { backing.settleJournalAfterCommit(self) }
    if due.cache || due.changes { backing.compactAfterCommit(due, self) }
    deliverRemoteChanges()
    if let transaction = result.transaction { broadcaster.announceSave(transaction) }
    return result
  }

  /// The commit protocol, the same for every store, on disk or in memory: plan → journal →
  /// change file → fold into the cache → local log, then the cache's housekeeping. Also
  /// returns whether this commit's record took the journal past its settle size, and which
  /// compactions are due: the settle is done once the lock is let go, the compactions once the
  /// save has returned.
  private func commitHoldingLock(
    _ changes: [PendingChange], author: String, spare: SpareFile?, _ backing: FileBacking
  ) throws -> (SaveResult, settlesJournal: Bool, due: CompactionsDue) {
    var merged: [ObjectID: ObjectID] = [:]
    var settlesJournal = false
    var due = CompactionsDue()
    let transaction = try state.withLock { state -> Transaction? in
      try catchUp(&state)  // first, the commits of other processes
      let levelBefore = compactionLevel(state)
      // 1. Plan: the changes checked and resolved against the committed objects. The planner
      // ends here: it holds a copy of the state, and while it lives, each later change to the
      // state (the fold's) copies what it changes first.
      var entry: LogEntry
      let change: NamedChangeFile
      do {
        var planner = makePlanner(state)
        guard let planned = try plan(changes, author: author, &planner, merged: &merged, &state) else { return nil }
        entry = planned
        change = try backing.nameChangeFile(for: &entry, originals: planner.originalValue, &state, self)
      }
      let transaction = entry.transaction
      // 2. and 3. The journal, then the change file: the commit point, this device's change file
      // durable (in the journal, or on its own). Touches no state: it may run on another thread.
      let write = { () throws -> WrittenChange in
        let journaled = try backing.journal(change)
        return try backing.writeChangeFile(journaled, spare: spare)
      }
      // 4. Fold into the cache: the tables take the commit in (only once the change file is
      // durable), and the local log's record is made (see `localLogRecord`).
      let written: WrittenChange
      let record: Data?
      if entry.changes.count < Self.concurrentWorkThreshold {
        written = try write()
        state.apply(entry)
        record = backing.localLogRecord(of: entry)
      } else {
        // A large commit: the tables take it in while another thread writes its change file,
        // then makes the log's record. Should the write fail, the tables are read again from
        // the files, which hold nothing of it.
        let writing = ConcurrentWork { [entry] in (try write(), backing.localLogRecord(of: entry)) }
        state.apply(entry)
        do {
          (written, record) = try writing.result()
        } catch {
          rereadTables(&state)
          throw error
        }
      }
      // 5. The local log. It and the rest are the cache's: a failure now does not undo the
      // commit, and is repaired from the journal and the change files at the next open.
      let logged = backing.appendLocalLog(record, of: transaction, written: written, &state, self)
      due = backing.keepCache(afterLogging: logged, written: written, levelBefore: levelBefore, &state, self)
      settlesJournal = written.settlesJournal
      return transaction
    }
    // A commit that only let ids go as aliases (an insert that merged into an object holding
    // every value it carries) changed no object: no transaction to the caller either.
    return (SaveResult(transaction: transaction?.changes.isEmpty == false ? transaction : nil, merged: merged), settlesJournal, due)
  }

  /// Commit step 1: what the changes do to the committed objects, as one log entry; nil when
  /// they change nothing. The state takes what the planner read (loaded segments) either way.
  private func plan(
    _ changes: [PendingChange], author: String, _ planner: inout CommitPlanner, merged: inout [ObjectID: ObjectID],
    _ state: inout StoreState
  ) throws -> LogEntry? {
    let planned: LogEntry?
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
    return planned
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
    /// Whether its record took the journal past `journalSettleSize`: this commit settles it,
    /// once it has let the lock go (``settleJournalAfterCommit(_:_:)``).
    var settlesJournal = false
  }

  /// A save of this many changes or more shares its work with another thread (see
  /// `ConcurrentWork`): its values are checked in two halves (`StorableCheck`), and its change
  /// file is written while the tables take it in (a bulk save's file takes about as long to
  /// encode and flush as the tables take to fill). Below it, a thread costs more than it saves.
  static let concurrentWorkThreshold = 1_000

  // MARK: The steps on files (`FileBacking`)

  /// A commit's change file, named, and where it goes.
  struct NamedChangeFile {
    var change: ChangeFile
    var filePath: String
    var displayPath: String
    /// Whether it goes to the outbox (the app group) rather than the sync folder.
    var inOutbox: Bool
  }

  /// A named change file, encoded, whose record the journal holds (`journalSize`, the journal's
  /// size after the append), or that goes without the journal (`journalSize` nil: too large).
  struct JournaledChangeFile {
    var named: NamedChangeFile
    var bytes: Data
    var journalSize: Int?
    var settlesJournal = false
  }

  /// The change file of a planned transaction, under the next sequence of this device, and
  /// where it goes: the sync folder, or the outbox while the carrier is not there or the outbox
  /// could not be emptied into it (`drainOutbox`). A name already taken holds a commit of this
  /// device that a crash kept from the cache: it is skipped here and merged right after. The
  /// entry is marked as folding it, and takes its values from it when the log is read.
  func nameChangeFile(
    for entry: inout LogEntry, originals: (ObjectKey) -> (any Entity)?, _ state: inout StoreState, _ files: StoreFiles
  ) throws -> NamedChangeFile {
    if !state.cleanedTemporaryFiles {
      try files.createLayout()
      for folder in [files.root, files.cacheURL, files.segmentsURL, files.logURL] { FileSystem.removeLeftoverTemporaryFiles(in: folder) }
      state.cleanedTemporaryFiles = true
    }
    let device = try ensureDevice(&state, files)
    // By index, each change read in place: binding one to a name copies it. The change file
    // carries what the context gave; what a delete rule or a merge made of it, every device's
    // fold makes again.
    let given = entry.changes.indices.filter { entry.changes[$0].isGiven }
    entry.derived = entry.changes.indices.filter { !entry.changes[$0].isGiven }
    let objects = try given.map { index -> ObjectChange in
      let (entity, id) = (entry.changes[index].entity, entry.changes[index].id)
      switch entry.changes[index].kind {
      case .delete, .retire:
        if entry.changes[index].mergedInto != nil, let moved = entry.changes[index].encoded {
          // An insert or an edit that took the object onto another's unique key, or was
          // addressed to an alias, as given: every fold joins the two, or finds they never met.
          return ObjectChange(
            entity: entity, id: id, kind: .upsert, fields: try EntityFields.of(json: moved), groups: entry.changes[index].givenGroups)
        }
        return ObjectChange(entity: entity, id: id, kind: .delete, fields: nil)
      case .insert:
        var object = ObjectChange(entity: entity, id: id, kind: .upsert, value: entry.changes[index].value, groups: nil)
        object.encodedValue = entry.changes[index].encoded
        return object
      case .update:
        // Encoded here when the commit changed the value on its way (a merge, a delete rule):
        // once, for its groups and its change file alike.
        let value = entry.changes[index].value
        let encoded = try entry.changes[index].encoded ?? value.map(EntityFields.json(of:))
        entry.changes[index].encoded = encoded  // and for the tables and the local log
        let groups = try changedGroups(from: originals(ObjectKey(entity: entity, id: id)), to: encoded, mergeSchema.entities[entity])
        entry.changes[index].groups = groups
        var object = ObjectChange(entity: entity, id: id, kind: .upsert, value: value, groups: groups)
        object.encodedValue = encoded
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
    var change = ChangeFile(
      device: device, sequence: sequence, hlc: hlc, author: entry.author, timestamp: entry.timestamp,
      schemaVersion: schema.version, objects: objects)
    change.formatVersion = state.writeFormat ?? decideChangeFormat(&state, files)
    publishNameOnce(&state, files, device: device)
    entry.folded = [change.stamp]
    entry.origin = change.stamp
    if try zip(given, objects).contains(where: { index, object in
      // A new object changes no key that was held (see `changesKeys`): a bulk save's inserts
      // are not looked up.
      guard entry.changes[index].kind != .insert else { return false }
      let key = ObjectKey(entity: object.entity, id: object.id)
      let values = try originals(key).flatMap { before in
        try entry.changes[index].value.map { (before, $0, try state.table(key.entity).schema) }
      }
      return entry.changes[index].mergedInto != nil
        || mergeSchema.changesKeys(object, existed: entry.changes[index].kind == .update, values: values)
    }) {
      entry.reshapes = true
    }
    let name = change.fileName
    return toSyncFolder
      ? NamedChangeFile(change: change, filePath: files.changes.filePath(device, name), displayPath: files.changes.display(device, name), inOutbox: false)
      : NamedChangeFile(
        change: change, filePath: files.changes.outbox.filePath(device, name), displayPath: files.changes.outbox.display(device, name),
        inOutbox: true)
  }

  /// Commit step 2 on files: the change file encoded, and its record appended to the journal
  /// and flushed — the commit point. One larger than `journalRecordLimit` goes without the
  /// journal. Touches no state: it may run on another thread.
  static func journal(_ named: NamedChangeFile, _ files: StoreFiles) throws -> JournaledChangeFile {
    let bytes = try ChangeFileCodec.encode(named.change)
    guard bytes.count <= Self.journalRecordLimit else { return JournaledChangeFile(named: named, bytes: bytes, journalSize: nil) }
    let size = try files.journal.append(CommitJournal.Record(device: named.change.device, sequence: named.change.sequence, bytes: bytes))
    // One commit settles it: the one whose record crosses the settle size.
    let settles = size.before < Self.journalSettleSize && size.after >= Self.journalSettleSize
    return JournaledChangeFile(named: named, bytes: bytes, journalSize: size.after, settlesJournal: settles)
  }

  /// Commit step 3 on files: the change file created, durable when this returns. One that went
  /// through the journal is written into `spare` when it can be, unflushed (the journal holds
  /// it), and a failure leaves it to the journal; one that did not is flushed on its own. One in
  /// the outbox (the app group) is created as it is; one in the sync folder inside the carrier's
  /// coordination. Touches no state: it may run on another thread.
  static func writeChangeFile(_ journaled: JournaledChangeFile, spare: SpareFile?, _ files: StoreFiles) throws -> WrittenChange {
    let (filePath, path, inOutbox) = (journaled.named.filePath, journaled.named.displayPath, journaled.named.inOutbox)
    let transport = files.changes.transport
    func create<T>(_ body: (String) throws -> T) throws -> T {
      inOutbox ? try body(filePath) : try transport.coordinateCreating(atPath: filePath, body)
    }
    let bytes = journaled.bytes
    guard let journalSize = journaled.journalSize else {
      _ = try create { try FileSystem.createOnce(bytes, atPath: $0, displayPath: path) }
      return WrittenChange(published: true, journalSize: nil)
    }
    let settles = journaled.settlesJournal
    do {
      _ = try create { try FileSystem.createOnce(bytes, atPath: $0, displayPath: path, durable: false, spare: spare) }
      return WrittenChange(published: true, journalSize: journalSize, settlesJournal: settles)
    } catch {
      return WrittenChange(published: false, journalSize: journalSize, settlesJournal: settles)
    }
  }

  /// The local log's record of a folded entry. A small commit's record carries its values, as
  /// the change file's JSON (`encoded`), so that another process catching up reads the record
  /// alone: among four writers, each commit catches up on about three others, and opening and
  /// decoding their change files was a third of the catch-up. A larger commit's record names
  /// the changes only, their values dropped (the change file holds them, and the
  /// tables now do): the log does not grow by a bulk save's size. What the change file does not
  /// hold (a delete rule's writes) keeps its value.
  static func localLogRecord(of entry: LogEntry) -> Data? {
    guard entry.changes.count > valuesInLogLimit else { return try? LocalLog.record(entry) }
    var named = entry
    for index in named.changes.indices where named.changes[index].isGiven { named.changes[index].value = nil }
    return try? LocalLog.record(named)
  }

  /// The most changes a commit's local log record carries the values of.
  static let valuesInLogLimit = 32

  /// Commit step 5 on files: the record appended to the local log, once the change file is in
  /// `changes/`. Returns whether it was; if not, the log has a hole where this commit goes: no
  /// compaction over it, and the next open rebuilds the cache (best effort: the marker may
  /// fail to write too, and then the change file is merged at the next open as a crashed
  /// commit is).
  func logCommit(_ record: Data?, sequence: Int, written: WrittenChange, _ state: inout StoreState, _ files: StoreFiles) -> Bool {
    var logged = false
    if written.published, let record {
      do {
        try appendLocalLog(record, sequence: sequence, &state, files)
        logged = true
      } catch {}
    }
    if !logged {
      state.statistics.housekeepingFailures += 1
      try? FileSystem.writeAtomically(Data(), to: files.rebuildMarkerURL, displayPath: files.display(files.cachePrefix + "rebuild"))
    }
    return logged
  }

  /// After a commit on files: the journal settled when the commit that should have settled it
  /// did not (see `journalSettleBackstop`), and the change files crashed commits left merged. A
  /// failure counts as housekeeping's and undoes nothing. Returns which compactions are due,
  /// to run once the save has returned: the cache's when this commit took the log to a new
  /// compaction level from `levelBefore`, its level after catching up (see `compactAfterCommit`),
  /// and, in turn, this device's change files' (that folds every file, a second at 20k objects).
  /// A commit that finds the log long through another's leaves it to that one, whose segments
  /// are being written: among four writers, each commit until its manifest came wrote the
  /// same segments again, four compactions in every 64 commits for one. One lost (its process
  /// killed) or failed is the next level's.
  func keepCache(afterLogging logged: Bool, written: WrittenChange, levelBefore: Int, _ state: inout StoreState, _ files: StoreFiles)
    -> CompactionsDue
  {
    if let size = written.journalSize, size >= Self.journalSettleBackstop {
      do { try settleJournal(files) } catch { state.statistics.housekeepingFailures += 1 }
    }
    var due = CompactionsDue()
    if logged, compactionLevel(state) > levelBefore {
      due.cache = true
      due.changes = takeChangeCompactionTurn(&state)
    }
    if !state.crashedCommits.isEmpty {
      do { _ = try mergeArrived(&state, files: files, always: false) } catch { state.statistics.housekeepingFailures += 1 }
    }
    return due
  }

  /// The compactions a commit leaves to do once the save has returned
  /// (``compactAfterCommit(_:_:_:)``).
  struct CompactionsDue: Sendable {
    var cache = false
    var changes = false
  }

  /// The field groups an update changes: those with a property whose JSON differs. The new
  /// value comes as its JSON, which the change file writes too.
  private func changedGroups(from old: (any Entity)?, to new: RawJSON?, _ entity: MergeSchema.Entity?) throws -> [String]? {
    guard let old, let new, let entity else { return nil }
    let before = try EntityFields.of(old)
    let after = try EntityFields.of(json: new)
    var groups: Set<String> = []
    for key in Set(before.keys).union(after.keys) where key != entity.identityKey && before[key] != after[key] {
      groups.insert(entity.group(of: key))
    }
    return groups.sorted()
  }
}
