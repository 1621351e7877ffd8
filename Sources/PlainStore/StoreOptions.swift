import Foundation

/// How a container behaves; the defaults suit an app that shares its store with its extensions.
public struct StoreOptions: Sendable {
  /// Written into each transaction this container's contexts commit.
  public var author: String
  /// The time stamped on transactions: pass a fixed clock for byte-identical stores in tests.
  public var clock: @Sendable () -> Date
  /// How long a save waits for another process's lock before it fails with `.locked`.
  public var lockTimeout: Duration
  /// Who else may hold the lock, named in the message when waiting for it times out
  /// ("… quit it (an app, its extension or a tool), then try again."); nil names no one.
  public var lockHolderHint: String?
  /// Compact once this many commits have gathered in the log since the last compaction.
  public var compactionThreshold: Int
  /// Log records kept after compaction for processes that have not caught up yet (the log
  /// goes by whole streams, so at least this many).
  public var logRetention: Int
  /// The most log records kept for registered history readers that fall behind.
  public var historyRetentionLimit: Int
  /// Where the change files — the part of the store that syncs between devices — live; nil:
  /// `changes/` inside the store folder. An app may point it into its iCloud container while
  /// the cache stays in its app group, where its extensions read it.
  public var syncFolder: URL?
  /// The device id this copy takes at its first commit (32 lowercase hex digits); nil: a random
  /// one. Fixed ids make two runs byte-identical, for tests and fixtures; never give two copies
  /// of a store that sync the same id (a copy that finds its id taken mints a random one).
  public var deviceID: String?
  /// The name this device gives itself in `changes/<device>/device.json` when it first
  /// commits, shown by other devices' sync status.
  public var deviceName: String
  /// Whether a file container watches its folder from the start, so that other processes'
  /// commits reach its contexts, observers and live queries as soon as they land (Core Data's
  /// remote-change option, on by default here). Off, they arrive on ``StoreContainer/refresh()``,
  /// before a save, or after ``StoreContainer/startWatching()``. In-memory containers ignore it.
  public var watchesOtherProcesses: Bool
  /// Whether opening a file container merges the change files other devices' copies wrote
  /// (on by default). Off, opening only reads the cache and arrivals wait for
  /// ``StoreContainer/sync()``: for a status that only looks.
  public var mergesArrivalsOnOpen = true
  /// Opens a file container that only reads — a widget's or another extension's: no file is
  /// created or written (no lock taken, no change file, no cache repaired, nothing merged),
  /// other processes' commits are read as they land, and a save, a sync or a compaction is
  /// refused (``StoreError/Code/readOnly``). A store that is not there, needs a migration, or
  /// has a damaged cache is an error: the app, which opens it for writing, makes it right.
  public var readOnly = false
  /// Compact the change files once this device's folder in `changes/` holds this many: write a
  /// snapshot of the merged view and delete the device's own change files that every active
  /// device has acknowledged (see ``StoreContainer/compactChanges()``). 0: only on request.
  public var changeCompactionThreshold: Int
  /// A device whose newest file is older than this no longer holds back the deletion of
  /// acknowledged change files; when it returns, it merges from the snapshots as before.
  public var inactiveDeviceInterval: TimeInterval
  /// What carries the change files between devices: a plain folder that a sync engine mirrors
  /// (the default), or, on Apple platforms, the app's iCloud Drive container.
  public var carrier: SyncCarrier = .folder
  /// How long a cache rebuild or a change compaction that needs files iCloud has not downloaded
  /// (evicted ones, this device's own included) waits for them, having asked; what has not come
  /// then is named by ``StoreContainer/syncStatus()`` and read once it comes.
  public var downloadWait: Duration = .seconds(2)
  /// What keeps the app running while it holds the store's lock: iOS kills a suspended app that
  /// holds a lock in a shared container. The platform's by default (an expiring activity on
  /// iOS); an app that manages its own background tasks may give its own.
  public var backgroundAssertion: BackgroundAssertion = .system
  /// The carrier's transport (tests give one over a simulated ubiquity container).
  var transport: (any ChangeTransport)? {
    get { carrier.transport }
    set { carrier = SyncCarrier(newValue ?? FolderTransport()) }
  }
  /// Told the name of each step of the long work an open or a compaction does, as it begins
  /// ("merge", "migrate", "compact: delete"…): the crash tests' child process prints them, so
  /// that a test knows in which step its kill landed. Within this package only.
  package var phaseObserver: (@Sendable (String) -> Void)?
  /// The newest change-file format this program reads and may write (see ``ChangeFormat``):
  /// tests raise it, so that one container acts as a newer program beside an older one. Format
  /// N above 2 is format 2 under the number N. Within this package only.
  package var newestChangeFormat = ChangeFormat.oldest

  public init(
    author: String = "app",
    clock: @escaping @Sendable () -> Date = { Date() },
    lockTimeout: Duration = .seconds(10),
    lockHolderHint: String? = nil,
    compactionThreshold: Int = 64,
    logRetention: Int = 256,
    historyRetentionLimit: Int = 10_000,
    watchesOtherProcesses: Bool = true,
    syncFolder: URL? = nil,
    deviceID: String? = nil,
    deviceName: String = "",
    changeCompactionThreshold: Int = 1_000,
    inactiveDeviceInterval: TimeInterval = 90 * 86_400
  ) {
    self.changeCompactionThreshold = max(0, changeCompactionThreshold)
    self.inactiveDeviceInterval = max(0, inactiveDeviceInterval)
    self.deviceID = deviceID
    self.syncFolder = syncFolder
    self.deviceName = deviceName
    self.author = author
    self.clock = clock
    self.lockTimeout = lockTimeout
    self.lockHolderHint = lockHolderHint
    self.compactionThreshold = max(1, compactionThreshold)
    self.logRetention = max(0, logRetention)
    self.historyRetentionLimit = max(logRetention, historyRetentionLimit)
    self.watchesOtherProcesses = watchesOtherProcesses
  }
}
