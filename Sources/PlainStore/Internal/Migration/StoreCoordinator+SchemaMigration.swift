import Foundation

extension StoreCoordinator {
  /// Opens a store that store.json says was last opened with an older schema version.
  ///
  /// The change files are never rewritten: each records the schema version it was written
  /// with, and the merge reads an older one through the schema's migrations. What the migration
  /// changes is the cache, whose segments hold values of the old schema: under the lock, every
  /// change file is read through the migrations first (a step that cannot transform a value
  /// refuses the migration, naming it, before anything is written), the cache is rebuilt, and
  /// only then does store.json take the new version. A kill at any moment before that leaves
  /// store.json at the old version, and the next open migrates again from the untouched truth.
  func migrateSchema(_ files: StoreFiles, _ lock: FileLock, readHeader: () throws -> StoreHeader?) throws {
    let migrated = try lock.withLock(timeout: options.lockTimeout) { () throws -> Bool in
      // Another process of this program may have migrated the store while this one waited.
      guard let header = try readHeader() else {
        throw StoreError(.missing, path: files.display("store.json"), "went away while the store opened — restore it; nothing was changed.")
      }
      try header.refuseIfNewer(than: schema, files)
      guard header.schemaVersion < schema.version else { return false }
      options.phaseObserver?("schema migration")
      // A device id that does not read is the cache's loss: the rebuild below takes a new one.
      let device = (try? readDeviceID(files)) ?? nil
      let trial = fold(try files.changes.scan(own: device, readableSchema: schema.version))
      if let failure = trial.migrationFailures.first {
        throw StoreError(
          .migration, path: "\(failure.entity) \(failure.id.uuidString)",
          "\(failure) — the store stays at schema version \(header.schemaVersion), untouched; fix the migration's transform and open it again.")
      }
      try rebuildCache(
        files, because: "the store was at schema version \(header.schemaVersion); its cache was rebuilt in version \(schema.version) (\(migrationNames(after: header.schemaVersion))).")
      try files.write(StoreHeader(schema: schema), to: files.headerURL, relative: "store.json", encoder: StoreCoding.makeEncoder())
      options.phaseObserver?("schema migrated")
      return true
    }
    if !migrated { try openCache(files, lock) }
  }

  private func migrationNames(after version: Int) -> String {
    let names = schema.migrations.filter { $0.version > version }.map { "'\($0.name)'" }
    return names.isEmpty ? "no migration steps" : "migrations " + names.joined(separator: ", ")
  }
}
