import Foundation

/// A store that lives in memory only (previews, tests): the same steps as a store on files,
/// each doing its part in memory. Its journal and change file are nothing, its cache is the
/// tables (every segment loaded, and empty, from the start: nothing to load, compact or
/// repair), its local log is the history the state keeps (`StoreState.memoryHistory`), and no
/// other process or device shares it: nothing to catch up with, merge or watch.
struct MemoryBacking: StoreBacking {
  var root: URL? { nil }
  var keepsEncodedValues: Bool { false }

  // MARK: Locking and repair

  func withStoreLock<T>(
    _ store: StoreCoordinator, onWaitingThread: Bool, whileWaiting: (@Sendable () -> Void)?, _ body: () throws -> T
  ) throws -> T {
    try body()
  }

  func spareChangeFile() -> SpareFile? { nil }

  func repairCache(after error: StoreError, _ store: StoreCoordinator) throws -> Bool { false }

  // MARK: The cache

  func catchUp(_ state: inout StoreState, _ store: StoreCoordinator) throws -> Bool { false }

  func loadSegment(_ table: EntityTable, _ segment: String, _ state: inout StoreState, _ store: StoreCoordinator) throws {}

  func segmentIDFilter(of file: String, _ state: inout StoreState, _ store: StoreCoordinator) -> SegmentIDFilter? { nil }

  func preload(_ table: EntityTable, _ segments: [String], _ state: inout StoreState, _ store: StoreCoordinator) throws {}

  func compact(_ state: inout StoreState, _ store: StoreCoordinator) throws {}

  func writeManifest(_ state: inout StoreState, _ store: StoreCoordinator) throws {}

  // MARK: The commit's steps

  func nameChangeFile(
    for entry: inout LogEntry, originals: (ObjectKey) -> (any Entity)?, _ state: inout StoreState, _ store: StoreCoordinator
  ) throws {}

  func journal(_ change: Void) throws {}

  func writeChangeFile(_ change: Void, spare: SpareFile?) throws -> StoreCoordinator.WrittenChange {
    StoreCoordinator.WrittenChange(published: true, journalSize: nil)
  }

  func localLogRecord(of entry: LogEntry) -> Data? { nil }

  /// The history takes the transaction (not one that only let ids go as aliases).
  func appendLocalLog(
    _ record: Data?, of transaction: Transaction, written: StoreCoordinator.WrittenChange, _ state: inout StoreState,
    _ store: StoreCoordinator
  ) -> Bool {
    if !transaction.changes.isEmpty { state.memoryHistory.append(transaction) }
    return true
  }

  func keepCache(
    afterLogging logged: Bool, written: StoreCoordinator.WrittenChange, levelBefore: Int, _ state: inout StoreState, _ store: StoreCoordinator
  ) -> StoreCoordinator.CompactionsDue { StoreCoordinator.CompactionsDue() }

  func settleJournalAfterCommit(_ store: StoreCoordinator) {}

  func compactCacheAfterCommit(_ store: StoreCoordinator) {}

  // MARK: History

  func history(after token: HistoryToken?, _ store: StoreCoordinator) throws -> [Transaction] {
    store.state.withLock { state in state.memoryHistory.filter { $0.sequence > token?.sequence ?? 0 } }
  }

  /// What no registered reader still needs goes; there is no manifest to keep it for.
  func pruneHistory(through token: HistoryToken, _ state: inout StoreState, _ store: StoreCoordinator) throws {
    let limit = min(token.sequence, store.readersFloor(state.manifest))
    state.memoryHistory.removeAll { $0.sequence <= limit }
  }

  // MARK: Sync

  func syncArrived(_ store: StoreCoordinator) throws -> Transaction? { nil }
  func exchangeWithCarrier(_ store: StoreCoordinator) throws {}

  func drainOutbox(_ store: StoreCoordinator) throws {}

  func compactChanges(_ store: StoreCoordinator) throws -> ChangeCompaction? { nil }

  func syncStatus(_ store: StoreCoordinator) throws -> SyncStatus? { nil }

  // MARK: Observation

  func watch(_ store: StoreCoordinator) -> [any ArrivalWatch] { [] }
}
