/// The moments an app syncs at, each one call (``StoreContainer/sync(_:)``): the engine never
/// syncs on a timer of its own, and a push alone is not enough.
///
/// A push is a hint that may come late or never: Apple's own CKSyncEngine sample saw changes
/// reach the second device about 20 minutes later on iOS 26.4, or only once the app went to the
/// background. Syncing at launch and at every foreground as well bounds the wait by what the
/// parent does (open the app), not by the push service.
///
/// Each moment does what it is for, as CKSyncEngine's own send and fetch are apart: a save
/// sends this phone's new files and fetches nothing (the other phone's news comes by its push);
/// a push fetches and sends nothing (an app woken in the background has seconds, and what this
/// phone wrote went up at its save); launch and foreground do both, so a save whose send failed
/// (no network) goes up at the next one.
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
  /// This phone saved: its new files go up.
  case save

  /// Whether a sync at this moment sends this device's new files.
  var sends: Bool { self != .push }
  /// Whether a sync at this moment fetches the other devices' files.
  var fetches: Bool { self != .save }
}
