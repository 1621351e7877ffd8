import BabyDashboard
import BabyDashboardFixtures
import BabyDashboardTesting
import Foundation
import PlainStore
import Testing

/// The widget's snapshot cache: what it holds per baby, its file, and when it is rebuilt.
@Suite struct BabyWidgetSnapshotsTests {
  // Fixed.now is 11:00 EDT on 2026-03-14 in New York; that day started at 04:00Z.
  let miaYesterday = makeFeedSession(profile: BabyProfile.mia, start: Fixed.date("2026-03-14T03:30:00Z"), end: Fixed.date("2026-03-14T03:50:00Z"), amountValue: 100, amountUnitSymbol: "mL", uuid: Fixed.id(20))
  let miaToday = makeFeedSession(profile: BabyProfile.mia, start: Fixed.date("2026-03-14T09:00:00Z"), end: Fixed.date("2026-03-14T09:20:00Z"), amountValue: 4, amountUnitSymbol: "fl oz", uuid: Fixed.id(21))
  let leoNow = makeFeedSession(profile: BabyProfile.leo, start: Fixed.date("2026-03-14T14:45:00Z"), uuid: Fixed.id(22))
  let miaDiaperYesterday = makeDiaperChange(profile: BabyProfile.mia, timestamp: Fixed.date("2026-03-14T03:59:59Z"), type: .poo, uuid: Fixed.id(30))
  let miaDiaperToday = makeDiaperChange(profile: BabyProfile.mia, timestamp: Fixed.date("2026-03-14T04:00:00Z"), type: .pee, uuid: Fixed.id(31))

  func seeded() throws -> TestContainer {
    let store = try TestContainer(clock: { Fixed.now })
    try store.seed(
      [.leo, .mia], feeds: [miaYesterday, miaToday, leoNow], diapers: [miaDiaperYesterday, miaDiaperToday])
    return store
  }

  var expectedMia: BabyWidgetSnapshot {
    BabyWidgetSnapshot(
      babyID: BabyProfile.mia.id, name: "Mia",
      lastFeed: .init(start: miaToday.startTime, end: miaToday.endTime, amountValue: 4, amountUnitSymbol: "fl oz"),
      feedingSince: nil, nextFeedDue: Fixed.date("2026-03-14T12:00:00Z"),
      lastDiaper: .init(time: miaDiaperToday.timestamp, type: .pee), todayFeedCount: 1, todayDiaperCount: 1)
  }

  var expectedLeo: BabyWidgetSnapshot {
    BabyWidgetSnapshot(
      babyID: BabyProfile.leo.id, name: "Leo", lastFeed: .init(start: leoNow.startTime), feedingSince: leoNow.startTime,
      nextFeedDue: Fixed.date("2026-03-14T16:45:00Z"), lastDiaper: nil, todayFeedCount: 1, todayDiaperCount: 0)
  }

  @Test func eachBabysSnapshotHoldsWhatTheWidgetShows() throws {
    let store = try seeded()
    defer { try? store.tearDown() }
    let snapshots = try BabyWidgetSnapshots.make(from: store.reader, now: Fixed.now, timeZone: Fixed.newYork)
    #expect(snapshots.babies == [expectedMia, expectedLeo])
    #expect(snapshots.generatedAt == Fixed.now)
    #expect(snapshots.timeZone == "America/New_York")
    #expect(snapshots.snapshot(forBabyName: "Leo")?.isFeeding == true)
    #expect(snapshots.snapshot(forBabyName: "Mia")?.isFeeding == false)
    #expect(snapshots.snapshot(forBabyName: "Nobody") == nil)
  }

  @Test func todayIsCountedInTheGivenTimeZone() throws {
    let store = try seeded()
    defer { try? store.tearDown() }
    // In UTC the day began at 00:00Z, so yesterday's New York feed and diaper count as today.
    let utc = try BabyWidgetSnapshots.make(from: store.reader, now: Fixed.now, timeZone: Fixed.utc)
    #expect(utc.snapshot(forBabyName: "Mia")?.todayFeedCount == 2)
    #expect(utc.snapshot(forBabyName: "Mia")?.todayDiaperCount == 2)
    // In Lord Howe (+11:00) it is already 02:00 on March 15: nothing yet today but Leo's feed.
    let lordHowe = try BabyWidgetSnapshots.make(from: store.reader, now: Fixed.now, timeZone: Fixed.lordHowe)
    #expect(lordHowe.babies.map(\.todayFeedCount) == [0, 1])
  }

  @Test func theFileRoundTripsAndTheWidgetReadsItWithoutTheStore() throws {
    let store = try seeded()
    defer { try? store.tearDown() }
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let url = AppGroup.widgetSnapshotsURL(in: folder.url)
    #expect(try BabyWidgetSnapshots.read(from: url) == nil)

    let written = try refreshBabyWidgetSnapshots(using: store.container, now: Fixed.now, timeZone: Fixed.newYork, to: url)
    #expect(try BabyWidgetSnapshots.read(appGroupDirectory: folder.url) == written)
    let text = try String(contentsOf: url, encoding: .utf8)
    #expect(text.contains(#""generatedAt" : "2026-03-14T15:00:00Z""#))
    #expect(text.contains(#""formatVersion" : 1"#))
    #expect(text.hasSuffix("}\n"))
    // The same inputs give the same bytes.
    #expect(try written.encoded() == Data(contentsOf: url))
  }

  @Test(arguments: [
    ("not json", "damaged"),
    (#"{"formatVersion": 1, "babies": "no"}"#, "damaged"),
    (#"{"formatVersion": 9}"#, "newer"),
  ])
  func aDamagedOrNewerFileIsAnErrorThatNamesIt(content: String, kind: String) throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let url = AppGroup.widgetSnapshotsURL(in: folder.url)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(content.utf8).write(to: url)
    let error = try #require(throws: StoreError.self) { try BabyWidgetSnapshots.read(from: url) }
    #expect(error.path == url.path)
    if kind == "newer" {
      #expect(error.code == .newerFormat(9))
    } else {
      #expect(error.code == .damaged)
    }
    #expect(try Data(contentsOf: url) == Data(content.utf8))
  }

  // MARK: - The observer

  @Test func theObserverWritesTheFileAtLaunchAndOnEnteringTheForeground() throws {
    let store = try TestContainer(clock: { Fixed.now })
    defer { try? store.tearDown() }
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let clock = TestClock()
    let observer = BabyWidgetSnapshotObserver(
      container: store.container, appGroupDirectory: folder.url, timeZone: Fixed.newYork, now: { clock.now })
    defer { observer.stop() }

    let launch = try observer.start(watchingFolder: false)
    #expect(launch.babies.isEmpty)
    #expect(try BabyWidgetSnapshots.read(appGroupDirectory: folder.url) == launch)

    try store.seed([.mia], feeds: [miaToday])
    clock.advance(60)
    let foreground = try observer.enterForeground()
    #expect(foreground.babies.map(\.name) == ["Mia"])
    #expect(foreground.generatedAt == Fixed.now.addingTimeInterval(60))
    #expect(try BabyWidgetSnapshots.read(appGroupDirectory: folder.url) == foreground)
  }

  @Test func aCommitByAnotherCoordinatorRefreshesTheSnapshotOnRefresh() async throws {
    let store = try TestContainer(clock: { Fixed.now })
    defer { try? store.tearDown() }
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let observer = BabyWidgetSnapshotObserver(
      container: store.container, appGroupDirectory: folder.url, timeZone: Fixed.newYork, now: { Fixed.now })
    defer { observer.stop() }
    try observer.start(watchingFolder: false)
    let refreshes = observer.refreshes()

    try commitInASecondContainer(on: store)
    try store.container.refresh()  // what the folder watcher does when it sees the commit

    let refresh = try await firstRefresh(in: refreshes) { $0.babies.first?.todayFeedCount == 1 }
    #expect(refresh.trigger == .remoteChange)
    #expect(try BabyWidgetSnapshots.read(appGroupDirectory: folder.url)?.babies == [expectedMiaAfterRemoteCommit])
  }

  @Test func aCommitByAnotherCoordinatorRefreshesTheSnapshotWhileWatching() async throws {
    let store = try TestContainer(clock: { Fixed.now })
    defer { try? store.tearDown() }
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let observer = BabyWidgetSnapshotObserver(
      container: store.container, appGroupDirectory: folder.url, timeZone: Fixed.newYork, now: { Fixed.now })
    defer { observer.stop() }
    let refreshes = observer.refreshes()
    try observer.start()

    try commitInASecondContainer(on: store)

    let refresh = try await firstRefresh(in: refreshes) { $0.babies.first?.todayFeedCount == 1 }
    #expect(refresh.trigger == .remoteChange)
    #expect(try BabyWidgetSnapshots.read(appGroupDirectory: folder.url)?.babies == [expectedMiaAfterRemoteCommit])
  }

  /// The other parent's phone commits; a sync engine brings its change files into this
  /// store's `changes/`: the widget's file follows, with no call from the app.
  @Test func aChangeFileFromAnotherDeviceRefreshesTheSnapshotWhileWatching() async throws {
    let store = try TestContainer(clock: { Fixed.now })
    defer { try? store.tearDown() }
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let observer = BabyWidgetSnapshotObserver(
      container: store.container, appGroupDirectory: folder.url, timeZone: Fixed.newYork, now: { Fixed.now })
    defer { observer.stop() }
    let refreshes = observer.refreshes()
    try observer.start()

    let phone = try StoreContainer.file(
      at: folder.url.appendingPathComponent("phone.store"), schema: BabyDashboardSchema.current,
      options: StoreOptions(author: "app", clock: { Fixed.now }, watchesOtherProcesses: false))
    let context = phone.newBackgroundContext()
    context.insert(BabyProfile.mia)
    context.insert(miaToday)
    try context.save()
    let device = try #require(try phone.syncStatus()?.thisDevice)
    let source = folder.url.appendingPathComponent("phone.store/changes").appendingPathComponent(device)
    let target = try #require(store.container.directory).appendingPathComponent("changes").appendingPathComponent(device)
    try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
    try FileManager.default.copyItem(at: source, to: target)

    let refresh = try await firstRefresh(in: refreshes) { $0.babies.first?.todayFeedCount == 1 }
    #expect(refresh.trigger == .remoteChange)
    #expect(try BabyWidgetSnapshots.read(appGroupDirectory: folder.url)?.babies == [expectedMiaAfterRemoteCommit])
  }

  @Test func aFailedRefreshIsReportedWithTheFileAndTheNextOneTriesAgain() throws {
    let store = try TestContainer(clock: { Fixed.now })
    defer { try? store.tearDown() }
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    // A plain file where the WidgetCache folder should be: the snapshot cannot be written.
    let blocker = folder.url.appendingPathComponent("WidgetCache")
    try Data("x".utf8).write(to: blocker)
    let observer = BabyWidgetSnapshotObserver(
      container: store.container, appGroupDirectory: folder.url, timeZone: Fixed.newYork, now: { Fixed.now })
    defer { observer.stop() }
    // What stands there and what to do, not "I/O error 0".
    let error = try #require(throws: KeyValueStoreError.self) { try observer.start(watchingFolder: false) }
    #expect(error.code == .notARegularFile && error.detail.contains("is not a folder"))
    #expect(error.path.hasPrefix(blocker.path))
    try FileManager.default.removeItem(at: blocker)
    #expect(try observer.enterForeground().babies.isEmpty)
    #expect(try BabyWidgetSnapshots.read(appGroupDirectory: folder.url) != nil)
  }

  @Test func stoppingEndsTheRefreshStreams() async throws {
    let store = try TestContainer(clock: { Fixed.now })
    defer { try? store.tearDown() }
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let observer = BabyWidgetSnapshotObserver(
      container: store.container, appGroupDirectory: folder.url, timeZone: Fixed.newYork, now: { Fixed.now })
    let refreshes = observer.refreshes()
    try observer.start()
    observer.stop()
    var triggers: [BabyWidgetSnapshotObserver.Trigger] = []
    for await refresh in refreshes { triggers.append(refresh.trigger) }
    #expect(triggers == [.launch])
  }

  var expectedMiaAfterRemoteCommit: BabyWidgetSnapshot {
    BabyWidgetSnapshot(
      babyID: BabyProfile.mia.id, name: "Mia",
      lastFeed: .init(start: miaToday.startTime, end: miaToday.endTime, amountValue: 4, amountUnitSymbol: "fl oz"),
      nextFeedDue: Fixed.date("2026-03-14T12:00:00Z"), lastDiaper: nil, todayFeedCount: 1, todayDiaperCount: 0)
  }

  /// What another process does: its own container (its own coordinator) on the same folder.
  func commitInASecondContainer(on store: TestContainer) throws {
    let other = try StoreContainer.file(
      at: try #require(store.container.directory), schema: BabyDashboardSchema.current,
      options: StoreOptions(author: "widget", clock: { Fixed.now }))
    let context = other.newBackgroundContext()
    context.insert(BabyProfile.mia)
    context.insert(miaToday)
    try context.save()
  }

  /// The first refresh whose snapshots satisfy `condition`; fails on a failed refresh, and gives
  /// up after a minute rather than hang the run if no refresh ever comes.
  func firstRefresh(
    in refreshes: AsyncStream<BabyWidgetSnapshotObserver.Refresh>,
    where condition: @escaping @Sendable (BabyWidgetSnapshots) -> Bool
  ) async throws -> BabyWidgetSnapshotObserver.Refresh {
    try await withThrowingTaskGroup(of: BabyWidgetSnapshotObserver.Refresh?.self) { group in
      group.addTask {
        for await refresh in refreshes {
          if try condition(refresh.result.get()) { return refresh }
        }
        return nil
      }
      group.addTask {
        await ResponsiveDeadline(.seconds(60)).expire()
        return nil
      }
      let first = try await group.next() ?? nil
      group.cancelAll()
      return try #require(first, "no refresh showed the commit")
    }
  }

  @Test func theAppsCallWritesTheFileBesideTheStoreInItsAppGroup() throws {
    let group = FileManager.default.temporaryDirectory.appendingPathComponent("widget-group-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: group) }
    let container = try StoreContainer.babyDashboard(inAppGroup: group)
    let context = container.newBackgroundContext()
    context.insert(BabyProfile.mia)
    context.insert(miaToday)
    try context.save()
    let written = try refreshBabyWidgetSnapshots(using: container, now: Fixed.now, timeZone: Fixed.newYork)
    let onDisk = try #require(try BabyWidgetSnapshots.read(appGroupDirectory: group))
    #expect(onDisk == written)
    #expect(onDisk.snapshot(forBabyName: "Mia")?.todayFeedCount == 1)
    let inMemory = StoreContainer.inMemory(schema: BabyDashboardSchema.current)
    #expect(throws: StoreError.self) { try refreshBabyWidgetSnapshots(using: inMemory, now: Fixed.now, timeZone: Fixed.newYork) }
  }
}
