import BabyDashboard
import BabyDashboardTesting
import Foundation
import PlainStore
import Testing

/// The app (this test process) and another process (`babydash`) on one app-group folder.
@Suite struct CrossProcessTests {
  let tool: BabydashProcess

  init() throws { tool = try BabydashProcess() }

  @Test func aCommitFromAnotherProcessRefreshesTheWidgetSnapshot() async throws {
    defer { tool.removeAll() }
    #expect(try tool.run(at: "2026-01-15T06:00:00Z", ["baby", "add", "Mia"]).status == 0)
    let container = try StoreContainer.babyDashboard(inAppGroup: tool.appGroup)
    let snapshotsURL = AppGroup.widgetSnapshotsURL(in: tool.appGroup)
    let changes = container.remoteChanges()
    container.startWatching()
    defer { container.stopWatching() }
    let (refreshes, refreshed) = AsyncStream.makeStream(of: Result<BabyWidgetSnapshots, any Error>.self)
    let now = try #require(ISO8601.parse("2026-01-15T08:00:00Z"))
    let observer = Task {
      await refreshBabyWidgetSnapshots(
        on: changes, using: container, timeZone: TimeZone(identifier: "UTC")!, to: snapshotsURL, now: { now },
        didRefresh: { refreshed.yield($0) })
    }
    defer { observer.cancel() }

    // Another process commits: the widget's file follows without this process doing anything.
    #expect(try tool.run(at: "2026-01-15T07:45:00Z", ["diaper", "Mia", "poo"]).status == 0)
    let first = try #require(await firstElement(of: refreshes, within: .seconds(90)), "no widget refresh within 90 s")
    let snapshots = try first.get()
    #expect(snapshots.snapshot(forBabyName: "Mia")?.lastDiaper?.type == .poo)
    let onDisk = try #require(try BabyWidgetSnapshots.read(from: snapshotsURL))
    #expect(onDisk.snapshot(forBabyName: "Mia")?.lastDiaper?.time == ISO8601.parse("2026-01-15T07:45:00Z"))
    #expect(onDisk.snapshot(forBabyName: "Mia")?.todayDiaperCount == 1)
  }

  @Test func aReaderSeesBothOfTwoConcurrentWriters() throws {
    defer { tool.removeAll() }
    #expect(try tool.run(at: "2026-01-15T06:00:00Z", ["baby", "add", "Mia"]).status == 0)
    let reader = try StoreContainer.babyDashboard(inAppGroup: tool.appGroup)
    let context = reader.newBackgroundContext()
    #expect(try context.fetchCount(FetchDescriptor<DiaperChange>()) == 0)
    let one = try tool.start(["--now", "2026-01-15T07:00:00Z", "diaper", "Mia", "pee"])
    let two = try tool.start(["--now", "2026-01-15T07:01:00Z", "feed", "log", "Mia", "--start", "06:30", "--end", "06:45"])
    #expect(one.wait().status == 0)
    #expect(two.wait().status == 0)
    _ = try reader.refresh()
    #expect(try context.fetchCount(FetchDescriptor<DiaperChange>()) == 1)
    #expect(try context.fetchCount(FetchDescriptor<FeedSession>()) == 1)
  }
}
