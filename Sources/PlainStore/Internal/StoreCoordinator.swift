import Foundation

/// The shared state of one open store in this process: what the contexts read and what their
/// saves commit to. One per container.
final class StoreCoordinator: Sendable {
  let schema: Schema
  let options: StoreOptions
  /// The store's files (on disk, or in memory: ``MemoryMedium``) and its lock.
  let backing: FileBacking
  let state: StoreMutex<StoreState>
  let broadcaster = ChangeBroadcaster()
  /// A commit's housekeeping that takes the store's lock again, once its save has returned.
  let lockedHousekeeping = LockedHousekeeping()
  /// The schema by property name, as the merge and the change files see it.
  let mergeSchema: MergeSchema

  /// An in-memory store's files go with it (see ``MemoryMedium``).
  deinit {
    if let root = backing.root { MemoryMedium.holding(root.path)?.unmount() }
  }

  /// Opens the store folder at `root`, creating it if it does not exist. Reads store.json and
  /// the cache (manifest and local log; segments wait until a fetch needs them), rebuilding the
  /// cache from `changes/` if it is missing or damaged, then merges the change files that have
  /// arrived since. Migrates a format-1 store first. A new in-memory store (`newInMemory`) has
  /// nothing to migrate, and a schema that names a key its Codable does not write is refused at
  /// its first save (`StoreContext.save`): `inMemory` cannot throw.
  init(root: URL, schema: Schema, options: StoreOptions, newInMemory: Bool = false) throws {
    if !newInMemory {
      do {
        try MigrationPlan.validate(schema.migrations, schemaVersion: schema.version)
      } catch {
        throw StoreError(.migration, path: "Schema.migrations", "\(error.description) Nothing was read or written.")
      }
      if let error = schema.nameError { throw error }
    }
    let files = StoreFiles(
      root: root, syncFolder: options.syncFolder, transport: options.transport ?? FolderTransport(), reads: options.newestChangeFormat)
    self.schema = schema
    self.options = options
    let lock = FileLock(
      url: files.lockURL, displayPath: files.display(files.cachePrefix + "lock"), holderHint: options.lockHolderHint,
      assertion: options.backgroundAssertion, claimURL: files.lockClaimURL)
    // Read-only: no lock, so nothing can take it, rebuild the cache or write under it.
    self.backing = FileBacking(files: files, lock: options.readOnly ? nil : lock)
    self.state = StoreMutex(StoreState(schema: schema))
    self.mergeSchema = MergeSchema(schema)
    if options.readOnly { try openReadOnly(files) } else { try openFiles(files, lock) }
  }

  /// Opens a store that is there, current and whole, reading only (``StoreOptions/readOnly``).
  private func openReadOnly(_ files: StoreFiles) throws {
    let nothingWritten = "open it for writing first (the app does); nothing was written."
    guard let header = try files.decode(StoreHeader.self, at: files.headerURL, relative: "store.json", decoder: StoreCoding.makeDecoder(schema: schema))
    else { throw StoreError(.missing, path: files.display("store.json"), "is not there, and a read-only open creates no store — \(nothingWritten)") }
    try header.refuseIfNewer(than: schema, files)
    guard header.formatVersion == StoreFiles.formatVersion, header.schemaVersion == schema.version else {
      throw StoreError(.migration, path: files.display("store.json"), "needs a migration, which a read-only open does not run — \(nothingWritten)")
    }
    try loadCache(files)
  }

  /// Refuses what would write in a store opened read-only: nothing is written.
  func refuseIfReadOnly(_ what: String) throws {
    guard options.readOnly else { return }
    throw StoreError(
      .readOnly, path: backing.root?.lastPathComponent ?? "store",
      "was opened read-only, so it cannot \(what) — open it for writing (the app does); nothing was written.")
  }

  /// Reads a format-1 store as it is, for its migration: nothing is written.
  init(format1 root: URL, schema: Schema, options: StoreOptions) throws {
    let files = StoreFiles(root: root, layout: .format1)
    self.schema = schema
    self.options = options
    self.backing = FileBacking(files: files, lock: nil)
    self.state = StoreMutex(StoreState(schema: schema))
    self.mergeSchema = MergeSchema(schema)
    try loadCache(files)
  }

  private func openFiles(_ files: StoreFiles, _ lock: FileLock) throws {
    let decoder = StoreCoding.makeDecoder(schema: schema)
    let encoder = StoreCoding.makeEncoder()
    try FileSystem.refuseSymbolicLink(at: files.root, displayPath: files.rootName)
    if !FileSystem.exists(files.root) {
      let parent = files.root.deletingLastPathComponent()
      if !FileSystem.isFolder(parent) { try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true) }
      try FileSystem.makeFolder(files.root, displayPath: files.rootName)
    }
    let readHeader = { try files.decode(StoreHeader.self, at: files.headerURL, relative: "store.json", decoder: decoder) }
    let notAStore = StoreError(
      .missing, path: files.display("store.json"),
      "the folder holds other files but no store.json, so it is not a PlainStore store or has lost its header — restore store.json or choose another folder; nothing was changed.")
    var header = try readHeader()
    if header == nil, !files.isNewOrInterruptedCreation {
      // Another process may have created the store, and committed to it, since the read above:
      // store.json is always in place before any other file of a store.
      header = try readHeader()
      guard header != nil else { throw notAStore }
    }
    if header == nil {
      try FileSystem.makeFolder(files.cacheURL, displayPath: files.display("local"))
      header = try lock.withLock(timeout: options.lockTimeout) {
        // Another process may have created the store while this one waited: look again, and
        // decide under the lock, where no creation is half done.
        if let created = try readHeader() { return created }
        guard files.isNewOrInterruptedCreation else { throw notAStore }
        try files.createLayout()
        try files.write(StoreHeader(schema: schema), to: files.headerURL, relative: "store.json", encoder: encoder)
        return StoreHeader(schema: schema)
      }
    }
    guard var header else { return }
    try header.refuseIfNewer(than: schema, files)
    if header.formatVersion < StoreFiles.formatVersion {
      try migrateFormat1(files)
      header = try readHeader() ?? header
    }
    if header.schemaVersion < schema.version {
      try migrateSchema(files, lock, readHeader: readHeader)
    } else {
      try openCache(files, lock)
    }
  }

  /// Reads the cache — manifest, local log, device id — into the state.
  func loadCache(_ files: StoreFiles) throws {
    let decoder = StoreCoding.makeDecoder(schema: schema)
    let identity = files.manifestIdentity
    let manifest = try files.decode(Manifest.self, at: files.manifestURL, relative: files.manifestPath, decoder: decoder)
    if manifest == nil, !FileSystem.list(files.segmentsURL).isEmpty {
      throw StoreError(.missing, path: files.display(files.manifestPath), "is missing while segment files are there.")
    }
    if FileSystem.exists(files.rebuildMarkerURL) {
      throw StoreError(.damaged, path: files.display(files.cachePrefix + "rebuild"), "a process found the cache damaged.")
    }
    try manifest?.check(for: schema, files, opening: true)
    // The segment files are not looked at here: a missing, truncated or damaged one is found
    // when a fetch or a save first reads it (by its size and checksum), and the cache rebuilt
    // then (`repairingCache`), so opening costs the manifest and not one call per month.
    let device = try readDeviceID(files)
    try state.withLock { state in
      state.reset(to: manifest ?? Manifest(), schema: schema)
      state.manifestIdentity = identity
      state.device = device
      try catchUp(&state, files, values: .fromChangeFiles)
      state.undelivered = []
      state.undeliveredReload = false
      // Log records past the last one read: some in between are lost, and the later ones must
      // not be applied out of order by a later commit that fills the gap.
      switch files.layout {
      case .format1:
        let newest = FileSystem.list(files.logURL).compactMap { $0.hasSuffix(".json") ? Int($0.dropLast(5)) : nil }.max() ?? 0
        if newest > state.sequence {
          throw StoreError(.missing, path: files.display(files.format1LogPath(state.sequence + 1)), "is missing while later log files are there.")
        }
      case .format2:
        if let later = files.log.streams().first(where: { $0 > state.sequence + 1 }) {
          throw StoreError(
            .missing, path: files.log.displayPath(later),
            "starts at transaction \(later), but the log holds none from \(state.sequence + 1) on: the records in between are lost.")
        }
      }
    }
  }
}
