import Foundation
import PlainStore

/// Keeps the widget's snapshot file current: the app's counterpart of observing
/// `.NSPersistentStoreRemoteChange` and calling `refreshBabyWidgetSnapshots`.
///
/// The app makes one at launch and calls ``start(watchingFolder:)`` (which refreshes once, for
/// the launch), ``enterForeground()`` when it comes back to the foreground, and ``stop()`` when it
/// goes away. In between, every remote change of the container (a commit by the widget, the
/// `babydash` tool or a sync process, noticed by watching the store folder or on
/// `container.refresh()`) rebuilds the file.
///
/// ```swift
/// let observer = BabyWidgetSnapshotObserver(container: container, appGroupDirectory: folder,
///                                           timeZone: .current, now: { Date() })
/// try observer.start()
/// // … scene phase becomes active:
/// try observer.enterForeground()
/// ```
///
/// Refreshes never overlap: each reads the store and replaces the file under one lock, so a
/// slower, older refresh never overwrites a newer file.
public final class BabyWidgetSnapshotObserver: Sendable {
  /// Why a refresh ran.
  public enum Trigger: String, Sendable, Hashable {
    /// The app launched (``start(watchingFolder:)``).
    case launch
    /// The app entered the foreground (``enterForeground()``).
    case foreground
    /// Another process committed to the store.
    case remoteChange
  }

  /// One refresh and what came of it.
  public struct Refresh: Sendable {
    public var trigger: Trigger
    /// The snapshots written, or why none were.
    public var result: Result<BabyWidgetSnapshots, any Error>
  }

  private struct State {
    var task: Task<Void, Never>?
    var watching = false
  }

  /// The store observed.
  public let container: StoreContainer
  /// The snapshot file written (normally `WidgetCache/snapshots.json` in the app group).
  public let fileURL: URL
  /// The zone whose calendar day is "today" in the counts.
  public let timeZone: TimeZone
  private let now: @Sendable () -> Date
  private let state = StoreMutex(State())
  private let subscribers = SubscriberRegistry<Refresh>()
  private let refreshing = StoreMutex(())

  /// An observer that writes the snapshots to `fileURL`.
  ///
  /// - Parameters:
  ///   - now: the clock read at each refresh (tests pass a fixed one).
  public init(container: StoreContainer, fileURL: URL, timeZone: TimeZone, now: @escaping @Sendable () -> Date) {
    self.container = container
    self.fileURL = fileURL
    self.timeZone = timeZone
    self.now = now
  }

  /// An observer that writes the app group's widget cache (`WidgetCache/snapshots.json`).
  public convenience init(
    container: StoreContainer, appGroupDirectory: URL, timeZone: TimeZone, now: @escaping @Sendable () -> Date
  ) {
    self.init(
      container: container, fileURL: AppGroup.widgetSnapshotsURL(in: appGroupDirectory), timeZone: timeZone, now: now)
  }

  deinit {
    stop()
  }

  /// Subscribes to the container's remote changes, optionally watches the store folder so that
  /// other processes' commits are noticed at once, and refreshes for the launch.
  ///
  /// Subscribing comes first, so a commit made while the launch refresh runs is not missed.
  /// Calling it again while started only refreshes.
  /// - Parameter watchingFolder: whether to start the container's folder watcher (stopped again
  ///   by ``stop()``); without it, remote changes arrive on `container.refresh()`.
  /// - Returns: the snapshots written for the launch.
  /// - Throws: `StoreError` if the store cannot be read or the file cannot be written; the
  ///   observer stays subscribed, and the next change or foreground tries again.
  @discardableResult
  public func start(watchingFolder: Bool = true) throws -> BabyWidgetSnapshots {
    let changes: AsyncStream<RemoteChange>? = state.withLock { state in
      guard state.task == nil else { return nil }
      let stream = container.remoteChanges()
      if watchingFolder, !state.watching {
        container.startWatching()
        state.watching = true
      }
      return stream
    }
    if let changes {
      let task = Task.detached { [weak self] in
        for await _ in changes {
          guard let self, !Task.isCancelled else { return }
          self.refresh(.remoteChange)
        }
      }
      state.withLock { $0.task = task }
    }
    return try refresh(.launch).result.get()
  }

  /// Refreshes because the app entered the foreground.
  ///
  /// - Returns: the snapshots written.
  /// - Throws: `StoreError` if the store cannot be read or the file cannot be written.
  @discardableResult
  public func enterForeground() throws -> BabyWidgetSnapshots {
    try refresh(.foreground).result.get()
  }

  /// Stops observing: cancels the subscription, stops the folder watcher if ``start(watchingFolder:)``
  /// started it, and ends every ``refreshes()`` stream.
  public func stop() {
    let (task, watching) = state.withLock { state in
      defer {
        state.task = nil
        state.watching = false
      }
      return (state.task, state.watching)
    }
    task?.cancel()
    if watching { container.stopWatching() }
    subscribers.finish()
  }

  /// Every refresh from now on, as it completes, until ``stop()``: for a UI that reloads the
  /// widget's timelines, and for tests.
  public func refreshes() -> AsyncStream<Refresh> {
    subscribers.subscribe()
  }

  /// Rebuilds the snapshot file now and tells ``refreshes()`` subscribers.
  @discardableResult
  public func refresh(_ trigger: Trigger) -> Refresh {
    let result = refreshing.withLock { _ in
      Result { try refreshBabyWidgetSnapshots(using: container, now: now(), timeZone: timeZone, to: fileURL) }
    }
    let refresh = Refresh(trigger: trigger, result: result)
    subscribers.yield(refresh)
    return refresh
  }
}
