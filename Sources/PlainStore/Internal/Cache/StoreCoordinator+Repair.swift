extension StoreCoordinator {
  /// Runs `body`; when it finds a file of the cache damaged (a segment that no longer matches
  /// its checksum, a log file that does not parse), rebuilds the cache from `changes/` holding
  /// the store's lock and runs `body` once more, so that the caller sees all data instead of
  /// an error. Damage to the truth, a newer format or a link is thrown as it is.
  ///
  /// Call it only where a retry is safe: before a commit's change file is written nothing of
  /// the commit is on disk, and a fetch has no effect to repeat.
  func repairingCache<T>(_ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let error as StoreError {
      guard try backing.repairCache(after: error, self) else { throw error }
      return try body()
    }
  }

  /// Repairing on files: when `error` is damage to a file of the cache, rebuilds the cache
  /// holding the store's lock; returns whether it did. A format-1 store read for its migration
  /// (no lock) is not repaired.
  func repairCache(after error: StoreError, _ files: StoreFiles, _ lock: FileLock?) throws -> Bool {
    guard let lock, Self.isCacheDamage(error, files) else { return false }
    try lock.withLock(timeout: options.lockTimeout) { try rebuildCache(files, because: error.description) }
    return true
  }
}
