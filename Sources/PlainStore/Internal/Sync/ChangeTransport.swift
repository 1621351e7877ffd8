import Foundation

/// How change files are carried between devices: the seam between the engine, which decides
/// what a change file holds and when one is written, and the carrier, which moves them.
///
/// A plain folder that a sync engine mirrors (Syncthing, Dropbox) is one carrier
/// (``FolderTransport``); an iCloud Drive ubiquity container, whose files from other devices
/// arrive as placeholders and are downloaded only when asked, is another. Paths are of files
/// and folders inside the sync folder. Every file is created once and never rewritten; a
/// carrier never changes that.
protocol ChangeTransport: Sendable {
  /// Whether the carrier is there: an iCloud container resolved and signed in; a plain folder
  /// always is. While it is not, the store works from its cache and says so.
  var isAvailable: Bool { get }
  /// Why the carrier is not there, as far as it can tell (asked only while it is not).
  var unavailableReason: SyncStatus.UnavailableReason { get }
  /// The account the carrier syncs for (on Apple platforms `FileManager.ubiquityIdentityToken`,
  /// archived); nil for a carrier without accounts, as a plain folder is. The store records the
  /// one it synced with and never carries files for another (see `ChangeFolder.carrier()`).
  var accountIdentity: Data? { get }
  /// Whether ``requestDownload(atPath:)`` can fetch a file that is not downloaded (a plain
  /// folder cannot: its placeholders wait for the program that made them).
  var canDownload: Bool { get }
  /// What a folder holds: the names of the files that have arrived (a sync engine's own files
  /// included, which the reader skips), and of those that exist, whole, elsewhere but are not
  /// downloaded here.
  func list(_ folder: String) -> ChangeListing
  /// A file's bytes; nil when it is not there (or not downloaded).
  func read(atPath path: String, displayPath: String) throws -> Data?
  /// Creates a file durably, once: false, writing nothing, when its name is taken (by the file
  /// or by a placeholder standing for it).
  func createOnce(_ data: Data, atPath path: String, displayPath: String) throws -> Bool
  /// Runs `body`, which creates the file at the path it is given once, inside the coordination
  /// the carrier asks of writers (iCloud Drive's file coordinator); a plain folder runs it as it
  /// is. For writers that create a change file their own way (the commit's journal and spare file).
  func coordinateCreating<T>(atPath path: String, _ body: (String) throws -> T) throws -> T
  /// Whether a name is taken: by the file, or by one that is not downloaded.
  func isTaken(atPath path: String) -> Bool
  /// Whether the file exists, whole, but is not downloaded here.
  func isNotDownloaded(atPath path: String) -> Bool
  /// Deletes one of this device's files, downloaded or not (a change compaction's cleanup: a
  /// failure is left for the next one).
  func remove(atPath path: String)
  /// Asks for a file that is not downloaded; it arrives later, as any arrival does.
  func requestDownload(atPath path: String)
  /// Asks for files that are not downloaded and waits, up to `timeout`, until they are; returns
  /// those still not downloaded (a carrier that cannot download returns them at once).
  func awaitDownloads(atPaths paths: [String], timeout: Duration) -> [String]
  /// Starts telling of arrivals in the folders `folders` names, asked again after each one:
  /// `onArrival` runs soon after a file may have arrived; `isArrival` says which names in which
  /// folder may be one, where the carrier names them. Returns once watching.
  func watchArrivals(
    folders: @escaping @Sendable () -> [String], isArrival: @escaping @Sendable (_ folder: String, _ name: String) -> Bool,
    onArrival: @escaping @Sendable () -> Void
  ) -> any ArrivalWatch
  /// Sends this device's files (if `sending`) and brings other devices' into `folder` (if
  /// `fetching`), for a carrier that is no folder (CloudKit: ``CloudKitTransport``); run by
  /// ``StoreContainer/sync()`` while the carrier is there, before it merges, as its
  /// ``SyncTrigger`` says. A folder carrier has nothing to do. `phase` is told where the
  /// exchange is, for the tests that kill a process there.
  func exchange(_ folder: ChangeFolder, own: DeviceID?, now: Date, sending: Bool, fetching: Bool, phase: (@Sendable (String) -> Void)?) throws
  /// What the carrier could not do last, and what happens next, in words; nil when all is well.
  func note(_ folder: ChangeFolder) -> String?
}

/// What a carrier that cannot tell answers (a plain folder: no accounts, and nothing to say of
/// why it is not there); the iCloud Drive carrier answers both from iOS.
extension ChangeTransport {
  var unavailableReason: SyncStatus.UnavailableReason { .unknown }
  var accountIdentity: Data? { nil }
  func exchange(_ folder: ChangeFolder, own: DeviceID?, now: Date, sending: Bool, fetching: Bool, phase: (@Sendable (String) -> Void)?) throws {}
  func note(_ folder: ChangeFolder) -> String? { nil }
}

/// A folder's contents as a carrier lists them.
struct ChangeListing: Equatable, Sendable {
  /// Names of what is here, sorted: files, folders, and a sync engine's temporary files.
  var arrived: [String] = []
  /// Names of files that exist but are not downloaded here, sorted.
  var notDownloaded: [String] = []
}

/// A watch of arrivals, or of the local log, until stopped.
protocol ArrivalWatch: Sendable {
  /// Stops; returns once no call of the watch's callback is in progress.
  func stop()
}

extension FolderWatcher: ArrivalWatch {}
