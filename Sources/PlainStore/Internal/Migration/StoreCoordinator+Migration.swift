import Foundation

extension StoreCoordinator {
  /// Moves a format-1 store to format 2 in place, all or nothing: its objects become this
  /// device's first change file; store.json saying format 2 is the commit point; the old
  /// files go only after it. A crash before leaves format 1 as it was (the next open starts
  /// over), after it a format-2 store; a damaged format-1 store is refused untouched.
  func migrateFormat1(_ files: StoreFiles) throws {
    let old = StoreFiles(root: files.root, layout: .format1)
    let oldLock = FileLock(url: old.lockURL, displayPath: old.display("lock"), holderHint: options.lockHolderHint, assertion: options.backgroundAssertion)
    try oldLock.withLock(timeout: options.lockTimeout) {
      let decoder = StoreCoding.makeDecoder(schema: schema)
      guard let header = try files.decode(StoreHeader.self, at: files.headerURL, relative: "store.json", decoder: decoder),
        header.formatVersion < StoreFiles.formatVersion
      else { return }  // another process migrated it meanwhile
      options.phaseObserver?("migrate")
      let reader = try StoreCoordinator(format1: files.root, schema: schema, options: options)
      var objects: [ObjectChange] = []
      try reader.state.withLock { state in
        for entity in schema.entities.sorted(by: { $0.name < $1.name }) {
          let table = try state.table(entity.name)
          try reader.loadAll(table, &state)  // reads every segment: a damaged one refuses the migration
          var values: [any Entity] = []
          for slot in table.slots.values { slot.objects?.forEachObject { values.append($0) } }
          values.sort { uuidPrecedes($0.id, $1.id) }
          objects += values.map { ObjectChange(entity: entity.name, id: $0.id, kind: .upsert, value: $0, groups: nil) }
        }
      }
      // What an interrupted migration left of the new layout is no part of the store yet
      // (format 1 kept no device id).
      try? FileManager.default.removeItem(at: files.cacheURL)
      FileSystem.remove(files.deviceIDURL)
      try files.createLayout()
      var state = StoreState(schema: schema)
      let device = try mintDevice(&state, files, preferred: options.deviceID.flatMap(DeviceID.init))
      if !objects.isEmpty {
        let now = options.clock()
        let change = ChangeFile(
          device: device, sequence: 1, hlc: state.clock.tick(now: now), author: "migration", timestamp: now,
          schemaVersion: header.schemaVersion, objects: objects)
        try files.changes.write(change)
      }
      var migrated = header
      migrated.formatVersion = StoreFiles.formatVersion
      try files.write(migrated, to: files.headerURL, relative: "store.json", encoder: StoreCoding.makeEncoder())
      options.phaseObserver?("migrate: clean-up")
      FileSystem.remove(old.manifestURL)
      for folder in [old.segmentsURL, old.logURL] { try? FileManager.default.removeItem(at: folder) }
      // No power-loss state needs this flush: it makes the removal of format 1's files durable, and files of format 1 that a power loss brings back beside store.json at format 2 are never read (PowerLossTests: the format-1 migration).
      try? FileSystem.syncFolder(files.root, displayPath: files.rootName)
      options.phaseObserver?("migrated")
    }
  }
}
