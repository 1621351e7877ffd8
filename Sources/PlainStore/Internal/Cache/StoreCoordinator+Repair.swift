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
      guard let files, let lock, Self.isCacheDamage(error, files) else { throw error }
      try lock.withLock(timeout: options.lockTimeout) { try rebuildCache(files, because: error.description) }
      return try body()
    }
  }
}
