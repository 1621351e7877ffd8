import Foundation

/// The CloudKit carrier: `changes/` stays a local folder, read and written as the plain folder
/// carrier does, and each ``StoreContainer/sync()`` exchanges it with one zone of the private
/// database through a ``CloudDatabase`` (``CloudExchange``).
///
/// The account is the engine's: signed out, nothing travels and commits wait in the outbox;
/// another account signed in is `accountChanged` (the store records the first account it
/// synced with, and never carries another's files).
struct CloudKitTransport: ExchangingTransport {
  let database: any CloudDatabase

  init(database: any CloudDatabase) { self.database = database }

  var isAvailable: Bool { accountIdentity != nil }
  var unavailableReason: SyncStatus.UnavailableReason { database.account() == .signedOut ? .signedOut : .unknown }
  var accountIdentity: Data? {
    guard case .signedIn(let id) = database.account() else { return nil }
    return Data(id.utf8)
  }
  var canDownload: Bool { false }

  func exchange(_ folder: ChangeFolder, own: DeviceID?, now: Date, sending: Bool, fetching: Bool, phase: (@Sendable (String) -> Void)?) throws {
    var exchange = CloudExchange(database: database, folder: folder, own: own, now: now, phase: phase)
    try exchange.run(sending: sending, fetching: fetching)
  }

  func note(_ folder: ChangeFolder) -> String? {
    switch database.account() {
    case .signedIn, .signedOut: break  // signed out: the carrier's state says it
    case .temporarilyUnavailable: return CloudCondition.accountUnavailable.words
    case .restricted: return CloudCondition.restricted.words
    case .unknown: return "iCloud has not said whether this device is signed in yet; changes wait on this device"
    }
    let state = CloudSyncState.load(CloudSyncState.url(beside: folder.url))
    var words = state.sharingWords.map { [$0] } ?? []
    if let condition = state.condition {
      words.append(condition.words + (state.waitUntil.map { " (not before " + ISO8601DateFormatter().string(from: $0) + ")" } ?? ""))
    }
    return words.isEmpty ? nil : words.joined(separator: "; ")
  }
}
