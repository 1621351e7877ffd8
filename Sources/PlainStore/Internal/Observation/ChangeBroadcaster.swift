import Foundation

/// Tells observers about commits: this process's saves and other processes' remote changes —
/// to the engine's own listeners as typed values, to an app as notifications and as async
/// sequences.
final class ChangeBroadcaster: Sendable {
  private let remote = SubscriberRegistry<RemoteChange>()
  private let all = SubscriberRegistry<Transaction>()

  /// What a listener hears: committed transactions, or a reload (another process's commits
  /// were compacted away before this one read them: any object may have changed).
  enum Heard: Sendable {
    case transactions([Transaction])
    case reload
  }

  private struct Listeners {
    var nextID = 0
    var bodies: [Int: @Sendable (Heard) -> Void] = [:]
  }

  private let listeners = StoreMutex(Listeners())

  /// Calls `body` with every change from now on, on the thread that committed or noticed it,
  /// before the save returns (a live query's monitor: one flag for a burst of saves). Returns
  /// the token `stopListening` takes.
  func listen(_ body: @escaping @Sendable (Heard) -> Void) -> Int {
    listeners.withLock { listeners in
      defer { listeners.nextID += 1 }
      listeners.bodies[listeners.nextID] = body
      return listeners.nextID
    }
  }

  func stopListening(_ token: Int) {
    _ = listeners.withLock { $0.bodies.removeValue(forKey: token) }
  }

  private func tell(_ heard: Heard) {
    for body in listeners.withLock({ Array($0.bodies.values) }) { body(heard) }
  }
  /// The object of the notifications: the container, held weakly (it owns this broadcaster).
  /// Set once, right after the container's init; behind the lock all the same, which costs a
  /// save nothing it would notice and leaves no exemption from the checker.
  var notificationObject: (any AnyObject & Sendable)? {
    get { notifications.withLock { $0.object } }
    set { notifications.withLock { $0.object = newValue } }
  }

  private struct WeakObject { weak var object: (any AnyObject & Sendable)? }

  private let notifications = StoreMutex(WeakObject())

  func remoteChanges() -> AsyncStream<RemoteChange> {
    remote.subscribe()
  }

  func transactions() -> AsyncStream<Transaction> {
    all.subscribe()
  }

  func announceSave(_ transaction: Transaction) {
    tell(.transactions([transaction]))
    all.yield(transaction)
    NotificationCenter.default.post(
      name: .plainStoreDidSave, object: notificationObject, userInfo: ["transactions": [transaction]])
  }

  func announceRemote(_ change: RemoteChange) {
    tell(change.reloaded ? .reload : .transactions(change.transactions))
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
