import Foundation

/// The CloudKit carrier: `changes/` stays a local folder, read and written as the plain folder
/// carrier does, and each ``StoreContainer/sync()`` exchanges it with one zone of the private
/// database through a ``CloudDatabase`` (``CloudExchange``).
///
/// The account is the engine's: signed out, nothing travels and commits wait in the outbox;
/// another account signed in is `accountChanged` (the store records the first account it
/// synced with, and never carries another's files).
struct CloudKitTransport: ChangeTransport {
  let database: any CloudDatabase
  private let local = FolderTransport()

  init(database: any CloudDatabase) { self.database = database }

  var isAvailable: Bool { accountIdentity != nil }
  var unavailableReason: SyncStatus.UnavailableReason { database.account() == .signedOut ? .signedOut : .unknown }
  var accountIdentity: Data? {
    guard case .signedIn(let id) = database.account() else { return nil }
    return Data(id.utf8)
  }
  var canDownload: Bool { false }

  func exchange(_ folder: ChangeFolder, own: DeviceID?, now: Date) throws {
    var exchange = CloudExchange(database: database, folder: folder, own: own, now: now)
    try exchange.run()
  }

  func note(_ folder: ChangeFolder) -> String? {
    switch database.account() {
    case .signedIn, .signedOut: break  // signed out: the carrier's state says it
    case .temporarilyUnavailable: return CloudCondition.accountUnavailable.words
    case .restricted: return CloudCondition.restricted.words
    case .unknown: return "iCloud has not said whether this device is signed in yet; changes wait on this device"
    }
    let state = CloudSyncState.load(CloudSyncState.url(beside: folder.url))
    guard let condition = state.condition else { return nil }
    guard let until = state.waitUntil else { return condition.words }
    return condition.words + " (not before " + ISO8601DateFormatter().string(from: until) + ")"
  }

  func list(_ folder: String) -> ChangeListing { local.list(folder) }
  func read(atPath path: String, displayPath: String) throws -> Data? { try local.read(atPath: path, displayPath: displayPath) }
  func createOnce(_ data: Data, atPath path: String, displayPath: String) throws -> Bool {
    try local.createOnce(data, atPath: path, displayPath: displayPath)
  }
  func coordinateCreating<T>(atPath path: String, _ body: (String) throws -> T) throws -> T { try body(path) }
  func isTaken(atPath path: String) -> Bool { local.isTaken(atPath: path) }
  func isNotDownloaded(atPath path: String) -> Bool { false }
  func remove(atPath path: String) { local.remove(atPath: path) }
  func requestDownload(atPath path: String) {}
  func awaitDownloads(atPaths paths: [String], timeout: Duration) -> [String] { [] }
  func watchArrivals(
    folders: @escaping @Sendable () -> [String], isArrival: @escaping @Sendable (String, String) -> Bool,
    onArrival: @escaping @Sendable () -> Void
  ) -> any ArrivalWatch {
    local.watchArrivals(folders: folders, isArrival: isArrival, onArrival: onArrival)
  }
}
