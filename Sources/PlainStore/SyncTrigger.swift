/// The moments an app syncs at, each one call (``StoreContainer/sync(_:)``): the engine never
/// syncs on a timer of its own, and a push alone is not enough.
///
/// A push is a hint that may come late or never: Apple's own CKSyncEngine sample saw changes
/// reach the second device about 20 minutes later on iOS 26.4, or only once the app went to the
/// background. Syncing at launch and at every foreground as well bounds the wait by what the
/// parent does (open the app), not by the push service.
///
/// ```swift
/// // Off the main thread: through CloudKit, a sync waits for the network.
/// Task.detached { try container.sync(.foreground) }
/// ```
public enum SyncTrigger: String, Sendable, CaseIterable {
  /// The app started: what the other devices wrote while it was not running.
  case launch
  /// The app came to the foreground: what a push that came late, or never, would have brought.
  case foreground
  /// A push said the zone changed (`application(_:didReceiveRemoteNotification:)`).
  case push
}
