import Foundation
import PlainStore

extension BabyWidgetSnapshots {
  /// Computes the snapshots from a context: per baby (oldest first) its last feed, whether it is
  /// feeding, when the next feed is due, its last diaper and today's counts.
  ///
  /// - Parameters:
  ///   - now: the moment "today" and the snapshot refer to.
  ///   - timeZone: the zone whose calendar day contains `now` is "today".
  public static func make(from context: StoreContext, now: Date, timeZone: TimeZone) throws -> BabyWidgetSnapshots {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    let today = calendar.dateInterval(of: .day, for: now).map { $0.start..<$0.end } ?? now..<now
    var snapshots: [BabyWidgetSnapshot] = []
    for baby in try context.babies() {
      let lastFeed = try context.lastFeed(of: baby.id, asOf: now)
      let inProgress = lastFeed?.isInProgress == true ? lastFeed : nil  // see inProgressFeed(of:)
      let lastDiaper = try context.lastDiaper(of: baby.id, asOf: now)
      snapshots.append(BabyWidgetSnapshot(
        babyID: baby.id,
        name: baby.name,
        lastFeed: lastFeed.map(BabyWidgetSnapshot.Feed.init),
        feedingSince: inProgress?.startTime,
        nextFeedDue: lastFeed.flatMap { baby.nextFeedDue(afterFeedStartingAt: $0.startTime) },
        lastDiaper: lastDiaper.map { BabyWidgetSnapshot.Diaper(time: $0.timestamp, type: $0.type) },
        todayFeedCount: try context.feedCount(of: baby.id, startingIn: today),
        todayDiaperCount: try context.diaperCount(of: baby.id, in: today)))
    }
    return BabyWidgetSnapshots(generatedAt: now, timeZone: timeZone.identifier, babies: snapshots)
  }
}

/// The app's call on a remote change, at launch and on entering the foreground: rebuilds the
/// snapshot file in the app group the store lives in (`WidgetCache/snapshots.json` beside
/// `BabyDashboard.store/`), with today counted in `timeZone`.
///
/// ```swift
/// try refreshBabyWidgetSnapshots(using: container)
/// ```
/// - Throws: `StoreError` from the store or the file, or `.missing` for a store that has no
///   folder (in memory): pass the file with the other overload then.
@discardableResult
public func refreshBabyWidgetSnapshots(
  using container: StoreContainer, now: Date = Date(), timeZone: TimeZone = .current
) throws -> BabyWidgetSnapshots {
  guard let store = container.directory else {
    throw StoreError(
      .missing, path: "in-memory store",
      "has no app-group folder to keep the widget's snapshots in — call refreshBabyWidgetSnapshots(using:now:timeZone:to:) with a file.")
  }
  let snapshots = AppGroup.widgetSnapshotsURL(in: store.deletingLastPathComponent())
  return try refreshBabyWidgetSnapshots(using: container, now: now, timeZone: timeZone, to: snapshots)
}

/// Rebuilds the widget's snapshot file from the store: call it on a remote change, at launch and
/// when the app enters the foreground.
///
/// First catches up with other processes' commits (`container.refresh()`), then reads on a fresh
/// background context and replaces the file atomically.
///
/// ```swift
/// try refreshBabyWidgetSnapshots(using: container, now: Date(), timeZone: .current,
///                                to: AppGroup.widgetSnapshotsURL(in: groupFolder))
/// ```
/// - Throws: `StoreError` from the store or the file.
@discardableResult
public func refreshBabyWidgetSnapshots(
  using container: StoreContainer, now: Date, timeZone: TimeZone, to fileURL: URL
) throws -> BabyWidgetSnapshots {
  try container.refresh()
  let snapshots = try BabyWidgetSnapshots.make(from: container.newBackgroundContext(), now: now, timeZone: timeZone)
  try snapshots.write(to: fileURL)
  return snapshots
}

/// Rebuilds the widget's snapshots after every remote change in `changes`, until the stream ends
/// or the task is cancelled: the counterpart of observing `.NSPersistentStoreRemoteChange`.
///
/// Take the stream from `container.remoteChanges()` before starting this, so that no change
/// between the two is missed. A failed refresh is reported through `didRefresh` and the next
/// change tries again.
public func refreshBabyWidgetSnapshots(
  on changes: AsyncStream<RemoteChange>,
  using container: StoreContainer,
  timeZone: TimeZone,
  to fileURL: URL,
  now: @escaping @Sendable () -> Date,
  didRefresh: @escaping @Sendable (Result<BabyWidgetSnapshots, any Error>) -> Void = { _ in }
) async {
  for await _ in changes {
    if Task.isCancelled { return }
    didRefresh(Result { try refreshBabyWidgetSnapshots(using: container, now: now(), timeZone: timeZone, to: fileURL) })
  }
}
