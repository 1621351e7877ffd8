import Foundation

/// Tells observers about commits: this process's saves and other processes' remote changes, as
/// notifications and as async sequences.
final class ChangeBroadcaster: Sendable {
  private let remote = SubscriberRegistry<RemoteChange>()
  private let all = SubscriberRegistry<Transaction>()
  /// The object of the notifications: the container, held weakly by whoever owns it.
  nonisolated(unsafe) weak var notificationObject: AnyObject?  // set once, right after init

  func remoteChanges() -> AsyncStream<RemoteChange> {
    remote.subscribe()
  }

  func transactions() -> AsyncStream<Transaction> {
    all.subscribe()
  }

  func announceSave(_ transaction: Transaction) {
    all.yield(transaction)
    NotificationCenter.default.post(
      name: .plainStoreDidSave, object: notificationObject, userInfo: ["transactions": [transaction]])
  }

  func announceRemote(_ change: RemoteChange) {
    remote.yield(change)
    for transaction in change.transactions { all.yield(transaction) }
    NotificationCenter.default.post(
      name: .plainStoreRemoteChange, object: notificationObject,
      userInfo: ["transactions": change.transactions, "reloaded": change.reloaded])
  }

  func finish() {
    remote.finish()
    all.finish()
  }
}
