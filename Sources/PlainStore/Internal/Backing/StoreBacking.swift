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



  // MARK: Locking and repair

  /// Runs `body` holding the store's cross-process lock (none in memory).
  func withStoreLock<T>(_ store: StoreCoordinator, onWaitingThread: Bool, _ body: () throws -> T) throws -> T

  /// Rebuilds the cache from the change files when `error` is damage to a file of the cache;
  /// returns whether it did (never in memory, whose cache no file holds).
  func repairCache(after error: StoreError, _ store: StoreCoordinator) throws -> Bool

  // MARK: The cache

  /// Applies the commits other processes made since this one last looked (none in memory).
  func catchUp(_ state: inout StoreState, _ store: StoreCoordinator) throws -> Bool

  /// Reads a segment that is not in memory yet from its file (memory holds every segment).
  func loadSegment(_ table: EntityTable, _ segment: String, _ state: inout StoreState, _ store: StoreCoordinator) throws

  /// Reads the unloaded segments among `segments` at once, on every core.
  func preload(_ table: EntityTable, _ segments: [String], _ state: inout StoreState, _ store: StoreCoordinator) throws
}
