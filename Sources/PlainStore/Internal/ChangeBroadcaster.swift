import Foundation
import Synchronization

/// Tells observers about commits: this process's saves and other processes' remote changes, as
/// notifications and as async sequences.
final class ChangeBroadcaster: Sendable {
  private struct Subscribers {
    var nextID = 0
    var remote: [Int: AsyncStream<RemoteChange>.Continuation] = [:]
    var all: [Int: AsyncStream<Transaction>.Continuation] = [:]
  }

  private let subscribers = Mutex(Subscribers())
  /// The object of the notifications: the container, held weakly by whoever owns it.
  nonisolated(unsafe) weak var notificationObject: AnyObject?  // set once, right after init

  func remoteChanges() -> AsyncStream<RemoteChange> {
    let (stream, continuation) = AsyncStream<RemoteChange>.makeStream(bufferingPolicy: .unbounded)
    let id = subscribers.withLock { subscribers in
      defer { subscribers.nextID += 1 }
      subscribers.remote[subscribers.nextID] = continuation
      return subscribers.nextID
    }
    continuation.onTermination = { [weak self] _ in
      _ = self?.subscribers.withLock { $0.remote.removeValue(forKey: id) }
    }
    return stream
  }

  func transactions() -> AsyncStream<Transaction> {
    let (stream, continuation) = AsyncStream<Transaction>.makeStream(bufferingPolicy: .unbounded)
    let id = subscribers.withLock { subscribers in
      defer { subscribers.nextID += 1 }
      subscribers.all[subscribers.nextID] = continuation
      return subscribers.nextID
    }
    continuation.onTermination = { [weak self] _ in
      _ = self?.subscribers.withLock { $0.all.removeValue(forKey: id) }
    }
    return stream
  }

  func announceSave(_ transaction: Transaction) {
    let all = subscribers.withLock { Array($0.all.values) }
    for continuation in all { continuation.yield(transaction) }
    NotificationCenter.default.post(
      name: .plainStoreDidSave, object: notificationObject, userInfo: ["transactions": [transaction]])
  }

  func announceRemote(_ change: RemoteChange) {
    let (remote, all) = subscribers.withLock { (Array($0.remote.values), Array($0.all.values)) }
    for continuation in remote { continuation.yield(change) }
    for transaction in change.transactions {
      for continuation in all { continuation.yield(transaction) }
    }
    NotificationCenter.default.post(
      name: .plainStoreRemoteChange, object: notificationObject,
      userInfo: ["transactions": change.transactions, "reloaded": change.reloaded])
  }

  func finish() {
    let (remote, all) = subscribers.withLock { subscribers in
      defer {
        subscribers.remote = [:]
        subscribers.all = [:]
      }
      return (Array(subscribers.remote.values), Array(subscribers.all.values))
    }
    for continuation in remote { continuation.finish() }
    for continuation in all { continuation.finish() }
  }
}
