import Foundation

/// A store kept in its folder, format 2: the journal and the change folder (the truth), the
/// cache in `local/` (manifest, segments, local log) and the lock that orders the processes
/// that share them. The folder is on disk, or in memory (``MemoryMedium``): an in-memory store
/// runs these same steps on the same files.
///
/// Each step's work on the files is the coordinator's extension that takes the ``StoreFiles``,
/// in the folder of its part (Commit/, Cache/, Sync/); this type maps the steps onto them.
struct FileBacking: Sendable {
  let files: StoreFiles
  /// nil for a format-1 store read for its migration: nothing is written to it, nothing
  /// repaired, merged or synced.
  let lock: FileLock?

  var root: URL? { files.root }

  // MARK: Locking and repair

  func withStoreLock<T>(
    _ store: StoreCoordinator, onWaitingThread: Bool, whileWaiting: (@Sendable () -> Void)?, _ body: () throws -> T
  ) throws -> T {
    guard let lock else { return try body() }
    return try lock.withLock(timeout: store.options.lockTimeout, onWaitingThread: onWaitingThread, whileWaiting: whileWaiting, body)
  }

  func spareChangeFile() -> SpareFile? {
    lock == nil ? nil : SpareFile(in: files.cacheURL.path)
  }

  func repairCache(after error: StoreError, _ store: StoreCoordinator) throws -> Bool {
    try store.repairCache(after: error, files, lock)
  }

  // MARK: The cache

  func catchUp(_ state: inout StoreState, _ store: StoreCoordinator) throws -> Bool {
    try store.catchUp(&state, files)
  }

  func loadSegment(_ table: EntityTable, _ segment: String, _ state: inout StoreState, _ store: StoreCoordinator) throws {
    try store.loadSegment(table, segment, &state, files)
  }

  func segmentIDFilter(of file: String, _ state: inout StoreState, _ store: StoreCoordinator) -> SegmentIDFilter? {
    store.segmentIDFilter(of: file, &state, files)
  }

  func preload(_ table: EntityTable, _ segments: [String], _ state: inout StoreState, _ store: StoreCoordinator) throws {
    try store.preload(table, segments, &state, files)
  }

  func compact(_ state: inout StoreState, _ store: StoreCoordinator) throws {
    try store.compact(&state, files)
  }

  func writeManifest(_ state: inout StoreState, _ store: StoreCoordinator) throws {
    try store.writeManifest(&state, files)
  }

  // MARK: The commit's steps

  func nameChangeFile(
    for entry: inout LogEntry, originals: (ObjectKey) -> (any Entity)?, _ state: inout StoreState, _ store: StoreCoordinator
  ) throws -> StoreCoordinator.NamedChangeFile {
    try store.nameChangeFile(for: &entry, originals: originals, &state, files)
  }

  func journal(_ change: StoreCoordinator.NamedChangeFile) throws -> StoreCoordinator.JournaledChangeFile {
    try StoreCoordinator.journal(change, files)
  }

  func writeChangeFile(_ change: StoreCoordinator.JournaledChangeFile, spare: SpareFile?) throws -> StoreCoordinator.WrittenChange {
    try StoreCoordinator.writeChangeFile(change, spare: spare, files)
  }

  func localLogRecord(of entry: LogEntry) -> Data? {
    StoreCoordinator.localLogRecord(of: entry)
  }

  func appendLocalLog(
    _ record: Data?, of transaction: Transaction, written: StoreCoordinator.WrittenChange, _ state: inout StoreState,
    _ store: StoreCoordinator
  ) -> Bool {
    store.logCommit(record, sequence: transaction.sequence, written: written, &state, files)
  }

  func keepCache(
    afterLogging logged: Bool, written: StoreCoordinator.WrittenChange, levelBefore: Int, _ state: inout StoreState, _ store: StoreCoordinator
  ) -> StoreCoordinator.CompactionsDue {
    store.keepCache(afterLogging: logged, written: written, levelBefore: levelBefore, &state, files)
  }

  func settleJournalAfterCommit(_ store: StoreCoordinator) {
    guard let lock else { return }  // a format-1 store read for its migration
    store.settleJournalAfterCommit(files, lock)
  }

  /// Starts the compactions a commit made due, on the store's housekeeping thread.
  func compactAfterCommit(_ due: StoreCoordinator.CompactionsDue, _ store: StoreCoordinator) {
    guard let lock else { return }  // a format-1 store read for its migration
    store.compactAfterCommit(due, files, lock)
  }

  // MARK: History

  func history(after token: HistoryToken?, _ store: StoreCoordinator) throws -> [Transaction] {
    try store.repairingCache { try store.historyFromLog(after: token, files) }
  }

  func pruneHistory(through token: HistoryToken, _ state: inout StoreState, _ store: StoreCoordinator) throws {
    try store.pruneHistory(through: token, &state, files)
  }

  // MARK: Sync

  func syncArrived(_ store: StoreCoordinator) throws -> Transaction? {
    try store.syncArrived(files, lock)
  }

  func drainOutbox(_ store: StoreCoordinator) throws {
    try store.drainOutbox(files, lock)
  }

  func exchangeWithCarrier(_ store: StoreCoordinator, sending: Bool, fetching: Bool) throws {
    try store.drainOutbox(files, lock)
    guard files.changes.isCarrying else { return }
    try files.changes.transport.exchange(
      files.changes, own: store.deviceID, now: store.options.clock(), sending: sending, fetching: fetching, phase: store.options.phaseObserver)
  }

  func compactChanges(_ store: StoreCoordinator) throws -> ChangeCompaction? {
    try store.compactChanges(files, lock)
  }

  func syncStatus(_ store: StoreCoordinator) throws -> SyncStatus? {
    try store.syncStatus(files)
  }

  // MARK: Observation

  /// Watches the local log (other processes' commits) and the sync folder (other devices'
  /// files). Each holds the store weakly: a watcher that held the store would free it on its
  /// own thread when it next woke, up to 100 ms after the container was let go, beside
  /// whatever the app does then.
  func watch(_ store: StoreCoordinator) -> [any ArrivalWatch] {
    // In memory no other process shares the store, and other devices' files come by `sync()`.
    guard MemoryMedium.holding(files.root.path) == nil else { return [] }
    let files = files
    let log = FolderWatcher(folder: files.logURL) { [weak store] in
      guard let store else { return }
      _ = try? store.catchUpWithOtherProcesses()  // a damaged file surfaces on the next fetch or save
      store.deliverRemoteChanges()
    }
    let changes = files.changes
    // Its thread starts while the arrivals' watch is set up: each open costs one wait for a
    // new thread to run, not two (see FolderWatcher.begin()).
    log.begin()
    // Read-only: other devices' files are the app's to merge; their merge reaches the log.
    guard !store.options.readOnly else {
      log.waitUntilWatching()
      return [log]
    }
    let arrivals = changes.transport.watchArrivals(
      // This device's id is read from its file, not asked of the store: a watcher that held
      // the store while it waited for the store's lock could be the one to free it.
      folders: { changes.arrivalFolders(except: files.recordedDevice) },
      isArrival: { folder, name in changes.isArrival(name, in: folder, own: files.recordedDevice) }
    ) { [weak store] in
      // A file that cannot be merged yet (damaged, locked out) is named by the next sync or save.
      _ = try? store?.syncArrived()
    }
    log.waitUntilWatching()
    return [log, arrivals]
  }
}
