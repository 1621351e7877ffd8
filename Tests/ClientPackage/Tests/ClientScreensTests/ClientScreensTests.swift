import BabyDashboard
import BabyDashboardFixtures
import ClientScreens
import Foundation
import Observation
import PlainStore
import Testing

/// The ported screens follow the store by themselves: saves in other contexts and other
/// containers on the folder reach them with no reload, and edits keep what others changed.
@MainActor @Suite struct ClientScreensTests {
  let mia = BabyProfile(id: UUID(uuidString: "00000000-0000-0000-0000-000000000001")!, name: "Mia", createdAt: date("2026-01-01T08:00:00Z"))
  let leo = BabyProfile(id: UUID(uuidString: "00000000-0000-0000-0000-000000000002")!, name: "Leo", createdAt: date("2026-02-01T08:00:00Z"))

  func store() throws -> StoreContainer {
    let container = try StoreContainer.temporary(schema: BabyDashboardSchema.current, options: StoreOptions(clock: { date("2026-03-14T15:00:00Z") }))
    let context = container.newBackgroundContext()
    context.insert(leo)
    context.insert(mia)
    try context.save()
    return container
  }

  @Test func theDashboardListsBabiesOldestFirstAndFinishesAFeedWithThePrefill() async throws {
    let container = try store()
    defer { try? container.destroy() }
    let screen = try ContentScreen(container: container, cache: LastFeedAmountCache(store: InMemoryKeyValueStore()))
    #expect(screen.babies.results.map(\.name) == ["Mia", "Leo"])
    try screen.startFeeding(mia, at: date("2026-03-14T14:00:00Z"))
    #expect(await until { screen.feedInProgress(of: mia) != nil })
    try screen.finishFeeding(mia, at: date("2026-03-14T14:20:00Z"), amount: LastFeedAmount(amountValue: 120, amountUnitSymbol: "mL"))
    #expect(await until { screen.feedInProgress(of: mia) == nil })
    #expect(try screen.prefilledAmount(for: mia) == LastFeedAmount(amountValue: 120, amountUnitSymbol: "mL"))
  }

  @Test func startingAFeedTwiceAtOneTimeNamesTheStoredFeed() throws {
    let container = try store()
    defer { try? container.destroy() }
    let screen = try ContentScreen(container: container, cache: LastFeedAmountCache(store: InMemoryKeyValueStore()))
    let first = try screen.startFeeding(mia, at: date("2026-03-14T14:00:00Z"))
    let second = try screen.startFeeding(mia, at: date("2026-03-14T14:00:00Z"))
    #expect(second == first, "the second insert merged into the first feed, and the save says so")
  }

  @Test func theHistoryFollowsAnotherProcessAndTheEditKeepsItsMemo() async throws {
    let container = try store()
    defer { try? container.destroy() }
    let history = try HistoryScreen(container: container)
    #expect(history.rows.isEmpty)

    // Another process (the widget: a second container on the same folder) logs a feed and a diaper.
    let widget = try StoreContainer.file(at: try #require(container.directory), schema: BabyDashboardSchema.current)
    let widgetContext = widget.newBackgroundContext(author: "widget")
    let feed = FeedSession(profileID: mia.id, startTime: date("2026-03-14T06:00:00Z"), endTime: date("2026-03-14T06:20:00Z"), amountValue: 90, amountUnitSymbol: "mL", memoText: "#night")
    widgetContext.insert(feed)
    widgetContext.insert(DiaperChange(profileID: leo.id, timestamp: date("2026-03-14T07:00:00Z"), type: .poo))
    try widgetContext.save()
    #expect(await until { history.rows.count == 2 })
    history.hashtagFilter = "night"
    #expect(history.rows.map(\.id) == [feed.objectID])

    // The sheet opens on the row; meanwhile the widget changes the memo; the form saves an amount.
    history.editing = history.rows.first?.id
    let form = try FeedEditScreen(editing: try #require(history.editing), container: container)
    let again = widget.newBackgroundContext(author: "widget")
    try again.edit(FeedSession.self, id: feed.uuid) { $0.memoText = "#night #gas" }
    try again.save()
    form.feed.amountValue = 140
    try form.save()
    #expect(await until { history.rows.first.map { $0.hashtags == ["night", "gas"] } ?? false })
    let stored = try #require(try container.newBackgroundContext().object(FeedSession.self, id: feed.uuid))
    #expect(stored.amountValue == 140 && stored.memoText == "#night #gas")

    try history.delete(feed.objectID)
    #expect(await until { history.rows.isEmpty })
  }

  /// Waits, waking on each change Observation reports, until `condition` holds (30 s at most).
  func until(_ condition: @escaping @MainActor () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now.advanced(by: .seconds(30))
    while !condition() {
      guard ContinuousClock.now < deadline else { return false }
      let (changed, continuation) = AsyncStream<Void>.makeStream()
      withObservationTracking { _ = condition() } onChange: { continuation.yield() }
      if condition() { return true }
      let timeout = Task { try? await Task.sleep(for: .milliseconds(200)); continuation.finish() }
      for await _ in changed { break }
      timeout.cancel()
    }
    return true
  }
}

func date(_ text: String) -> Date {
  guard let date = ISO8601.parse(text) else { preconditionFailure("not ISO 8601: \(text)") }
  return date
}
