import Foundation

/// What a store keeps its commits on: the seam between the engine's one sequence of steps and
/// the medium under it.
///
/// The coordinator runs the same steps for every store — catch up, plan, journal, change file,
/// fold into the cache, local log, then the cache's housekeeping — and asks its backing to do
/// the part of each step that touches the medium. Two backings implement it:
/// - ``FileBacking``: the store folder of format 2 — the journal, the change folder (the
///   truth), the cache in `local/` (manifest, segments, local log) and the cross-process lock.
/// - ``MemoryBacking``: nothing outside the process. Its journal and change file are nothing,
///   its cache is the tables themselves (every segment loaded, and empty, from the start), and
///   its local log is the history it keeps in the state.
///
/// Every method that needs the coordinator's state or schema is handed the coordinator: a
/// backing holds the medium, not the store.
protocol StoreBacking: Sendable {
  /// A commit's change file once it is named, before it is written (nothing in memory).
  associatedtype NamedChange
  /// A commit's change file once the journal holds it (nothing in memory).
  associatedtype JournaledChange

  /// The store's folder; nil in memory.
  var root: URL? { get }

  /// Whether the tables keep each committed object's JSON beside it: what a compaction writes
  /// into segment files. Memory has no segment file to write.
  var keepsEncodedValues: Bool { get }

  // MARK: Locking and repair

  /// Runs `body` holding the store's cross-process lock (none in memory); `whileWaiting` runs
  /// meanwhile, now and then, while another process holds it (see `FileLock`).
  func withStoreLock<T>(
    _ store: StoreCoordinator, onWaitingThread: Bool, whileWaiting: (@Sendable () -> Void)?, _ body: () throws -> T
  ) throws -> T

  /// A file to write the next change file into, found before the lock is taken; nil in memory.
  func spareChangeFile() -> SpareFile?

  /// Rebuilds the cache from the change files when `error` is damage to a file of the cache;
  /// returns whether it did (never in memory, whose cache no file holds).
  func repairCache(after error: StoreError, _ store: StoreCoordinator) throws -> Bool

  // MARK: The cache

  /// Applies the commits other processes made since this one last looked (none in memory).
  func catchUp(_ state: inout StoreState, _ store: StoreCoordinator) throws -> Bool

  /// Reads a segment that is not in memory yet from its file (memory holds every segment).
  func loadSegment(_ table: EntityTable, _ segment: String, _ state: inout StoreState, _ store: StoreCoordinator) throws

  /// Which ids a segment file may hold; nil when that is not known (memory has no files).
  func segmentIDFilter(of file: String, _ state: inout StoreState, _ store: StoreCoordinator) -> SegmentIDFilter?

  /// Reads the unloaded segments among `segments` at once, on every core.
  func preload(_ table: EntityTable, _ segments: [String], _ state: inout StoreState, _ store: StoreCoordinator) throws

  /// Writes the segments that changed and the manifest that names them (nothing in memory).
  func compact(_ state: inout StoreState, _ store: StoreCoordinator) throws

  /// Writes the manifest as the state has it (nothing in memory).
  func writeManifest(_ state: inout StoreState, _ store: StoreCoordinator) throws

  // MARK: The commit's steps (see `StoreCoordinator.commit`)

  /// Names the commit's change file — under this device's next sequence, stamped by its clock —
  /// and marks `entry` as folding it.
  func nameChangeFile(
    for entry: inout LogEntry, originals: (ObjectKey) -> (any Entity)?, _ state: inout StoreState, _ store: StoreCoordinator
  ) throws -> NamedChange

  /// Commit step 2: the change file's record appended to the journal and flushed, the commit
  /// point (a change file too large for the journal goes without it). Touches no state: it may
  /// run on another thread.
  func journal(_ change: NamedChange) throws -> JournaledChange

  /// Commit step 3: the change file created where the sync engine takes it, durable when this
  /// returns. Touches no state: it may run on another thread.
  func writeChangeFile(_ change: JournaledChange, spare: SpareFile?) throws -> StoreCoordinator.WrittenChange

  /// The local log's record of a folded entry (a large one's without its values: the change
  /// file holds them); nil in memory, whose history keeps the transaction. Touches no state:
  /// it may run on another thread.
  func localLogRecord(of entry: LogEntry) -> Data?

  /// Commit step 5: the local log takes the commit; returns whether it did.
  func appendLocalLog(
    _ record: Data?, of transaction: Transaction, written: StoreCoordinator.WrittenChange, _ state: inout StoreState, _ store: StoreCoordinator
  ) -> Bool

  /// After the commit: the cache's housekeeping (journal settled, crashed commits merged). A
  /// failure here does not undo the commit. Returns what is due once the lock is let go: the
  /// cache's compaction, when the commit took its log from `levelBefore` to a new level, this
  /// device's change files' (never in memory).
  func keepCache(
    afterLogging logged: Bool, written: StoreCoordinator.WrittenChange, levelBefore: Int, _ state: inout StoreState, _ store: StoreCoordinator
  ) -> StoreCoordinator.CompactionsDue

  /// After a commit whose record filled the journal, its lock let go: the journal settled.
  func settleJournalAfterCommit(_ store: StoreCoordinator)

  /// After a commit that made the cache's compaction due, its lock let go: the cache compacted.
  func compactCacheAfterCommit(_ store: StoreCoordinator)

  // MARK: History

  /// The transactions after `token`, oldest first, as the local log has them.
  func history(after token: HistoryToken?, _ store: StoreCoordinator) throws -> [Transaction]

  /// Removes the local log's records up to `token`, but those still needed.
  func pruneHistory(through token: HistoryToken, _ state: inout StoreState, _ store: StoreCoordinator) throws

  // MARK: Sync

  /// Merges the change files that arrived; nil when nothing did (always in memory).
  func syncArrived(_ store: StoreCoordinator) throws -> Transaction?

  /// Moves this device's files waiting in the outbox into the sync folder.
  func drainOutbox(_ store: StoreCoordinator) throws

  /// Drains the outbox, then lets a carrier that is no folder (CloudKit) send and fetch.
  func exchangeWithCarrier(_ store: StoreCoordinator) throws

  /// Compacts this device's change files; nil in memory.
  func compactChanges(_ store: StoreCoordinator) throws -> ChangeCompaction?

  /// What the sync folder holds and waits for; nil in memory.
  func syncStatus(_ store: StoreCoordinator) throws -> SyncStatus?

  // MARK: Observation

  /// Watches for other processes' commits and other devices' files (nothing in memory).
  func watch(_ store: StoreCoordinator) -> [any ArrivalWatch]
}
