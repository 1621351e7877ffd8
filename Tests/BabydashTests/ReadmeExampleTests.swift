import BabyDashboard
import BabyDashboardFixtures
import BabyDashboardTesting
import Foundation
import Observation
import PlainStore
import Testing

/// The README's view model on a live query, as written there.
@MainActor @Observable final class FeedingNowModel {
  let feeds: LiveQuery<[FeedSession]>
  init(store: StoreContainer) throws {
    feeds = try store.liveQuery(FetchDescriptor<FeedSession>(sortBy: [SortDescriptor(\.startTime, order: .reverse)]))
  }
  var feedingNow: [FeedSession] { feeds.results.filter(\.isInProgress) }
}

/// The README's Swift examples, as written there, so that they keep compiling and working.
@Suite struct ReadmeExampleTests {
  @Test func theLibraryIn30Seconds() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("readme-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }

    let container = try StoreContainer.babyDashboard(inAppGroup: folder)
    let context = container.newBackgroundContext()
    let mia = BabyProfile(name: "Mia", createdAt: Date())
    context.insert(mia)
    context.insert(FeedSession(profileID: mia.id, startTime: Date(), amountValue: 120, amountUnitSymbol: "mL"))
    try context.save()  // durable on disk when it returns

    let miaID: UUID? = mia.id
    let feeds = try context.fetch(FetchDescriptor<FeedSession>(
      predicate: #Predicate { $0.profileID == miaID },
      sortBy: [SortDescriptor(\.startTime, order: .reverse)]))
    #expect(feeds.count == 1)
    let reopened = try StoreContainer.babyDashboard(inAppGroup: folder)
    #expect(try reopened.newBackgroundContext().fetch(FetchDescriptor<FeedSession>()) == feeds)
  }

  @Test func fixtures() throws {
    let preview = try PreviewContainers.default(scenario: .twoBabies, world: .standard)  // in memory, saved
    let test = try PreviewContainers.test(scenario: .monthsOfHistory, world: .standard)  // a temporary folder
    defer { try? test.tearDown() }
    #expect(try preview.container.newBackgroundContext().babies().map(\.name) == ["Mia", "Leo"])
    #expect(try test.container.newBackgroundContext().fetchCount(FetchDescriptor<FeedSession>()) > 50)
  }

  @Test func inTheApp() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("readme-app-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }

    let group = try AppGroup.current.resolve(argument: folder.path, environment: ProcessInfo.processInfo.environment)
    let store = try StoreContainer.babyDashboard(inAppGroup: group)
    let observer = BabyWidgetSnapshotObserver(
      container: store, appGroupDirectory: group, timeZone: .current, now: { Date() })
    try observer.start()  // and observer.enterForeground() when the app comes back
    defer { observer.stop() }
    #expect(try BabyWidgetSnapshots.read(appGroupDirectory: group) != nil)
  }

  @MainActor @Test func aViewModelOnALiveQuery() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("readme-live-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let store = try StoreContainer.babyDashboard(inAppGroup: folder)
    let model = try FeedingNowModel(store: store)
    #expect(model.feedingNow.isEmpty)

    // The widget's process starts a feed: another container on the same folder.
    let widget = try StoreContainer.babyDashboard(inAppGroup: folder)
    let context = widget.newBackgroundContext()
    let mia = BabyProfile(name: "Mia", createdAt: Date())
    context.insert(mia)
    context.insert(FeedSession(profileID: mia.id, startTime: Date()))
    try context.save()

    // Observation reports the change; no sleeping for it.
    #expect(await waitUntil(within: .seconds(30)) { !model.feedingNow.isEmpty })
    #expect(model.feedingNow.map(\.profileID) == [mia.id])
  }
}
