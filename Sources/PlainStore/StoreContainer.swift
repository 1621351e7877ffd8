import Foundation

/// A store and its contexts: the counterpart of `NSPersistentContainer` / SwiftData's
/// `ModelContainer`. Three kinds share one API:
///
/// - ``file(at:schema:options:)``: a store folder, shared safely with other processes;
/// - ``inMemory(schema:options:)``: never touches the disk (previews, tests): the same store,
///   its files kept in memory;
/// - ``temporary(schema:options:)``: a fresh folder under the system's temporary directory,
///   removed by ``destroy()`` (tests); it runs the same file code as the real store.
///
/// ```swift
/// let container = try StoreContainer.file(at: url, schema: schema)
/// let context = container.newBackgroundContext()
/// context.insert(Note(id: UUID(), text: "hello"))
/// try context.save()
/// ```
public final class StoreContainer: Sendable {
  let coordinator: StoreCoordinator
  /// The store folder; nil for an in-memory store.
  public let directory: URL?
  public let schema: Schema
  public let options: StoreOptions
  private let isTemporary: Bool
  private let mainContext: StoreContext
  /// The watchers of the local log (other processes' commits) and of the sync folder (other
  /// devices' files), while watching.
  private let watchers = StoreMutex<[any ArrivalWatch]>([])

  private init(coordinator: StoreCoordinator, directory: URL?, isTemporary: Bool) {
    self.coordinator = coordinator
    self.directory = directory
    self.schema = coordinator.schema
    self.options = coordinator.options
    self.isTemporary = isTemporary
    self.mainContext = StoreContext(coordinator: coordinator, author: coordinator.options.author)
    coordinator.broadcaster.notificationObject = self
  }

  deinit {
    watchers.withLock { for watcher in $0 { watcher.stop() } }
    coordinator.broadcaster.finish()
    // What its saves left to do once they returned (their compactions) lands before it goes:
    // a tool's last save is not cut off by its exit.
    coordinator.lockedHousekeeping.wait()
  }

  /// Opens the store folder at `directory` (created, mode 0700, if it is not there).
  /// - Throws: ``StoreError`` when a file is damaged or missing, was written by a newer format
  ///   or schema, or a symbolic link stands in for one. Nothing on disk is changed then.
  public static func file(at directory: URL, schema: Schema, options: StoreOptions = StoreOptions()) throws -> StoreContainer {
    let coordinator = try StoreCoordinator(root: directory, schema: schema, options: options)
    return StoreContainer(coordinator: coordinator, directory: coordinator.backing.root, isTemporary: false).watchingIfAsked()
  }

  /// Every name a version of the store writes at the top of its folder: a tool that checks a
  /// store names anything else as not the store's.
  public static var namesInStoreFolder: Set<String> { StoreFiles.topLevelNames }

  /// A store that lives in memory only: for previews and tests. It runs every step a store
  /// on disk runs — change files, merges, history, sync through ``SyncCarrier/memory(_:)`` —
  /// on files kept in memory, let go with the container and its contexts.
  public static func inMemory(schema: Schema, options: StoreOptions = StoreOptions()) -> StoreContainer {
    let medium = MemoryMedium.mount()
    let root = URL(fileURLWithPath: medium.folder + "/Memory.store", isDirectory: true)
    var options = options
    options.syncFolder = nil  // its changes/ is in memory too; a carrier brings the others'
    options.readOnly = false  // nothing else could have made it
    do {
      let coordinator = try StoreCoordinator(root: root, schema: schema, options: options, newInMemory: true)
      return StoreContainer(coordinator: coordinator, directory: nil, isTemporary: false)
    } catch {
      // A new empty medium takes any store: nothing is there to be damaged, locked or newer.
      medium.unmount()
      preconditionFailure("StoreContainer.inMemory: \(error)")
    }
  }

  /// A file store in a fresh folder under the system's temporary directory: for tests. Call
  /// ``destroy()`` when done.
  public static func temporary(schema: Schema, options: StoreOptions = StoreOptions()) throws -> StoreContainer {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("PlainStore-\(UUID().uuidString)", isDirectory: true)
    let coordinator = try StoreCoordinator(
      root: folder.appendingPathComponent("Test.store", isDirectory: true), schema: schema, options: options)
    return StoreContainer(coordinator: coordinator, directory: coordinator.backing.root, isTemporary: true).watchingIfAsked()
  }

  private func watchingIfAsked() -> StoreContainer {
    if options.watchesOtherProcesses { startWatching() }
    return self
  }

  /// Removes a temporary store's folder (the explicit teardown). A no-op for other stores.
  public func destroy() throws {
    stopWatching()
    coordinator.lockedHousekeeping.wait()
    guard isTemporary, let directory else { return }
    try FileManager.default.removeItem(at: directory.deletingLastPathComponent())
  }

  /// The context for the main actor: what screens read and write.
  @MainActor public var viewContext: StoreContext { mainContext }

  /// A new context for work off the main actor: imports, background writes.
  public func newBackgroundContext(author: String? = nil) -> StoreContext {
    StoreContext(coordinator: coordinator, author: author ?? options.author)
  }

  /// Runs `body` on a new background context off the main actor.
  public func performBackgroundTask<T: Sendable>(
    author: String? = nil, _ body: @escaping @Sendable (StoreContext) throws -> T
  ) async throws -> T {
    let context = newBackgroundContext(author: author)
    return try await Task.detached { try body(context) }.value
  }

  /// Catches up with the commits of other processes now; they are announced as remote changes.
  /// - Returns: whether anything new was found.
  @discardableResult
  public func refresh() throws -> Bool {
    let found = try coordinator.catchUpWithOtherProcesses()
    coordinator.deliverRemoteChanges()
    // Merging other devices' files writes: a read-only container reads what the app merged.
    let merged = options.readOnly ? nil : try coordinator.syncArrived()
    return found || merged != nil
  }

  // MARK: Sync between devices

  /// Merges the change files that other devices' copies wrote and a sync engine brought into
  /// `changes/`, as one transaction authored "sync" (announced as a remote change). Opening a
  /// store and ``refresh()`` do it too. Returns nil when nothing new had arrived, or nothing
  /// that changes an object (a snapshot of what this copy holds already). Through a carrier that
  /// is no folder (CloudKit), it first sends this device's new files and fetches the others'.
  @discardableResult
  public func sync() throws -> Transaction? {
    try sync(sending: true, fetching: true)
  }

  /// Syncs at one of the moments an app syncs at: launch, foreground, push, save (see
  /// ``SyncTrigger``): a push only fetches, a save only sends, launch and foreground do both, as
  /// ``sync()`` does. Each merges what has arrived.
  @discardableResult
  public func sync(_ trigger: SyncTrigger) throws -> Transaction? {
    try sync(sending: trigger.sends, fetching: trigger.fetches)
  }

  private func sync(sending: Bool, fetching: Bool) throws -> Transaction? {
    try coordinator.refuseIfReadOnly("merge other devices' files")
    // After a change compaction a save started: it merges too, and logs its snapshot first.
    coordinator.lockedHousekeeping.waitForChangeCompaction()
    try coordinator.backing.exchangeWithCarrier(coordinator, sending: sending, fetching: fetching)
    return try coordinator.syncArrived()
  }

  /// Compacts the change files: merges what arrived, writes a snapshot of the merged view
  /// (which acknowledges every change it holds) and deletes this device's own change files
  /// that every active device has acknowledged. Never touches another device's files. Saves
  /// do it on their own every ``StoreOptions/changeCompactionThreshold`` commits, once they
  /// have returned (``waitForHousekeeping()``).
  @discardableResult
  public func compactChanges() throws -> ChangeCompaction? {
    try coordinator.refuseIfReadOnly("compact its change files")
    coordinator.lockedHousekeeping.wait()  // a compaction saves started, which this one would repeat
    return try coordinator.compactChanges()
  }

  /// Why this container rebuilt the store's local cache from `changes/` when it opened (a
  /// cache file missing or damaged), if it did: nothing was lost, and `check` says so.
  public var cacheRebuildReason: String? {
    coordinator.lastRebuildReason
  }

  /// This device's change files that a power loss took (gone, or left short) and that this
  /// container wrote again from `local/journal` when it opened: nothing was lost, and `check`
  /// says so.
  public var changeFilesRestored: [String] {
    coordinator.restoredFromJournal
  }

  /// Objects the last merge could not read as their entity ("Note <id>: reason"): from a
  /// device with a newer schema, or whose changes have not all arrived. They stay in their
  /// change files and join the state once they read.
  public var mergeWarnings: [String] {
    coordinator.mergeWarnings
  }

  /// What this container's last merge of other devices' change files changed (at its open, a
  /// ``sync()`` or a refresh), object by object with before and after; nil until one merged
  /// anything.
  public var lastMergeReport: MergeReport? {
    coordinator.lastMergeReport
  }

  /// The devices that write to this store's `changes/`, what has arrived from each and what is
  /// still on its way.
  public func syncStatus() throws -> SyncStatus? {
    try coordinator.syncStatus()
  }

  /// Commits of other processes, as they are noticed (on ``refresh()``, before a save, or as soon
  /// as they land while the container watches its folder, which a file container does unless
  /// ``StoreOptions/watchesOtherProcesses`` is off): the counterpart of
  /// `NSPersistentStoreRemoteChange`.
  public func remoteChanges() -> AsyncStream<RemoteChange> {
    coordinator.broadcaster.remoteChanges()
  }

  /// Every transaction, this process's saves and other processes' commits, as they happen.
  public func transactions() -> AsyncStream<Transaction> {
    coordinator.broadcaster.transactions()
  }

  /// Watches the store folder and refreshes as soon as another process commits (inotify on
  /// Linux, a file-system event source on Apple platforms, polling otherwise; a burst of
  /// commits is caught up with once per 10 ms), and watches the sync folder and merges other
  /// devices' change files as soon as a sync engine brings them (see ``sync()``): both reach
  /// contexts, observers and live queries as remote changes, with no call from the app. File
  /// containers start watching when they open unless ``StoreOptions/watchesOtherProcesses`` is
  /// off.
  public func startWatching() {
    watchers.withLock { watchers in
      guard watchers.isEmpty else { return }
      watchers = coordinator.backing.watch(coordinator)
    }
  }

  /// Stops watching the folders: other processes' commits then arrive on ``refresh()`` or
  /// before a save, and other devices' files on ``sync()``, ``refresh()`` or a save.
  public func stopWatching() {
    watchers.withLock { watchers in
      for watcher in watchers { watcher.stop() }
      watchers = []
    }
  }

  // MARK: History

  /// The transactions committed after `token` (all retained ones for nil), oldest first. Every
  /// one changes an object: a merge that only folded a snapshot takes a sequence number but is
  /// no transaction, so sequences may skip.
  /// - Throws: ``StoreError`` `.historyPruned` when some of them were pruned.
  public func history(after token: HistoryToken?) throws -> [Transaction] {
    try coordinator.history(after: token)
  }

  /// The token of the last transaction this container knows.
  public var currentToken: HistoryToken { coordinator.currentToken }

  /// Removes the history up to and including `token`, except the transactions a registered
  /// ``HistoryReader`` (of any process) has not consumed, within `historyRetentionLimit`.
  public func pruneHistory(through token: HistoryToken) throws {
    try coordinator.refuseIfReadOnly("prune its history")
    try coordinator.pruneHistory(through: token)
  }

  /// A named reader of history that keeps its own token in the store, as
  /// PersistentHistoryTrackingKit's authors do; compaction keeps what it has not consumed.
  public func historyReader(named name: String) -> HistoryReader {
    HistoryReader(name: name, coordinator: coordinator)
  }

  /// Rewrites the changed segments and the manifest now, rather than when the log grows.
  /// Waits first for the compactions saves started (``waitForHousekeeping()``).
  public func compact() throws {
    try coordinator.refuseIfReadOnly("compact its cache")
    coordinator.lockedHousekeeping.wait()
    try coordinator.compactNow()
  }

  /// Waits until what this container's saves left to do after they returned is done: the
  /// compactions a save makes due (of the cache's segments, and every
  /// ``StoreOptions/changeCompactionThreshold`` commits of the change files) run on a thread of
  /// the engine's once the save has returned, so that a save waits for its commit alone. The
  /// cache's compaction changes no object, only the files of `local/`; the change files'
  /// merges what has arrived by the time it runs, as ``sync()`` does (a remote change), before
  /// it writes its snapshot. A context that read before that merge may save a reference to an
  /// object it deleted, and is refused, as against any merge: tests that merge only where their
  /// steps say wait for it. For those, for tools that look at the files, or to time a save
  /// without the work the one before left; ``statistics`` waits on its own, and so does the
  /// container when it goes away.
  public func waitForHousekeeping() {
    coordinator.lockedHousekeeping.wait()
  }

  /// Counters of the work this container did: segment files read, log records written, compactions.
  /// Waits first for what its saves left to do once they returned (their compactions), so that
  /// its work and failures are counted.
  public var statistics: StoreStatistics {
    coordinator.lockedHousekeeping.wait()
    return coordinator.statistics
  }
}
