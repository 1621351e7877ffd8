import Foundation

/// A store that lives in memory only (previews, tests): the same steps as a store on files,
/// each doing its part in memory. Its journal and change file are nothing, its cache is the
/// tables (every segment loaded, and empty, from the start: nothing to load, compact or
/// repair), its local log is the history the state keeps (`StoreState.memoryHistory`), and no
/// other process or device shares it: nothing to catch up with, merge or watch.
struct MemoryBacking: StoreBacking {
  // MARK: Locking and repair

  func withStoreLock<T>(_ store: StoreCoordinator, onWaitingThread: Bool, _ body: () throws -> T) throws -> T {
    try body()
  }

  func repairCache(after error: StoreError, _ store: StoreCoordinator) throws -> Bool { false }

  // MARK: The cache

  func catchUp(_ state: inout StoreState, _ store: StoreCoordinator) throws -> Bool { false }

  func loadSegment(_ table: EntityTable, _ segment: String, _ state: inout StoreState, _ store: StoreCoordinator) throws {}

  func preload(_ table: EntityTable, _ segments: [String], _ state: inout StoreState, _ store: StoreCoordinator) throws {}
}
