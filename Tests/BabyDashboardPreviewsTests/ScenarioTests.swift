import BabyDashboard
import BabyDashboardFixtures
import BabyDashboardPreviews
import BabyDashboardTesting
import BabyDashboardText
import Foundation
import PlainStore
import Testing

@Suite struct ScenarioTests {
  @Test func everyScenarioHasAUniqueNameItIsFoundBy() {
    #expect(Scenario.all.map(\.name) == ["empty", "two-babies", "history", "edge-cases"])
    for scenario in Scenario.all {
      #expect(Scenario.named(scenario.name)?.name == scenario.name)
      #expect(!scenario.summary.isEmpty)
    }
    #expect(Scenario.named("nope") == nil)
  }

  @Test(arguments: Scenario.all.map(\.name))
  func aScenarioBuildsTheSameFixturesTwice(name: String) throws {
    let scenario = try #require(Scenario.named(name))
    #expect(scenario.fixtures(in: .standard) == scenario.fixtures(in: .standard))
  }

  @Test @MainActor func renderingEveryPreviewTwiceGivesTheSameBytes() throws {
    let first = try PreviewFiles.render().map(\.text)
    let second = try PreviewFiles.render().map(\.text)
    #expect(first == second)
  }

  @Test func buildersUseFixedIdsAndCanonicalUnits() {
    let world = PreviewWorld.standard
    let mia = makeBabyProfile(id: world.ids.uuid(1), name: "Mia", createdAt: world.ago(days: 3))
    #expect(mia.id.uuidString == "00000000-0000-4000-8000-000000000001")
    #expect(mia.feedTerm == BabyProfile.defaultFeedTerm)
    let feed = makeFeedSession(profile: mia, start: world.ago(hours: 1), end: world.now, amountValue: 4, amountUnitSymbol: "oz")
    #expect(feed.amountUnitSymbol == "fl oz")
    #expect(feed.profileID == mia.id)
    #expect(feed.uuid == makeFeedSession(profile: mia, start: world.ago(hours: 1)).uuid)
    #expect(feed.uuid != makeFeedSession(profile: mia, start: world.ago(hours: 2)).uuid)
    #expect(feed.uuid != makeFeedSession(profile: nil, start: world.ago(hours: 1)).uuid)
    #expect(makeFeedSession(profile: mia, start: world.now, amountValue: 1, amountUnitSymbol: "ml").amountUnitSymbol == "mL")
    let pee = makeDiaperChange(profile: mia, timestamp: world.now, type: .pee)
    #expect(pee.uuid != makeDiaperChange(profile: mia, timestamp: world.now, type: .poo).uuid)
    #expect(IDSequence(namespace: 7).uuid(1) != world.ids.uuid(1))
  }

  @Test func seedingTheCacheNormalisesTheUnit() throws {
    let cache = LastFeedAmountCache(store: InMemoryKeyValueStore())
    try seedLastFeedAmount(forBabyName: "Mia", amountValue: 120, amountUnitSymbol: "ml", in: cache)
    #expect(try cache.get(forBabyName: "Mia") == LastFeedAmount(amountValue: 120, amountUnitSymbol: "mL"))
  }

  @Test func thePreviewContainerIsSeededAndSavedBeforeItReturns() throws {
    let world = PreviewWorld.standard
    let container = try PreviewContainers.default { context in
      context.insert(makeBabyProfile(id: world.ids.uuid(9), name: "Noa", createdAt: world.now))
    }
    #expect(container.directory == nil)
    // A fresh context sees only what was saved.
    let babies = try container.newBackgroundContext().fetch(FetchDescriptor<BabyProfile>())
    #expect(babies.map(\.name) == ["Noa"])

    let store = try PreviewContainers.default(scenario: .twoBabies, world: world)
    let context = store.container.newBackgroundContext()
    let fixtures = Scenario.twoBabies.fixtures(in: world)
    #expect(try context.babies().map(\.name) == ["Mia", "Leo"])
    #expect(try context.fetchCount(FetchDescriptor<FeedSession>()) == fixtures.feeds.count)
    #expect(try context.fetchCount(FetchDescriptor<DiaperChange>()) == fixtures.diapers.count)
    #expect(try store.cache.get(forBabyName: "Leo") == LastFeedAmount(amountValue: 4, amountUnitSymbol: "fl oz"))
  }

  @Test func theTestContainerIsSeededOnDiskAndTornDown() throws {
    let store = try PreviewContainers.test(scenario: .monthsOfHistory, world: .standard)
    let folder = try #require(store.directory)
    #expect(FileManager.default.fileExists(atPath: folder.path))
    let fixtures = Scenario.monthsOfHistory.fixtures(in: .standard)
    let context = store.container.newBackgroundContext()
    #expect(try context.fetchCount(FetchDescriptor<FeedSession>()) == fixtures.feeds.count)
    #expect(try context.fetchCount(FetchDescriptor<DiaperChange>()) == fixtures.diapers.count)
    #expect(fixtures.feeds.count > 50)

    try store.tearDown()
    #expect(!FileManager.default.fileExists(atPath: folder.path))
    try store.tearDown()  // a second teardown is harmless
  }

  @Test func aFailingSeedLeavesNoTestFolderBehind() throws {
    struct SeedFailed: Error {}
    #expect(throws: SeedFailed.self) {
      _ = try PreviewContainers.test { _ in throw SeedFailed() }
    }
  }

  @Test @MainActor func theEdgeCasesHoldWhatTheyPromise() throws {
    let world = PreviewWorld.standard
    let fixtures = Scenario.edgeCases.fixtures(in: world)
    let names = fixtures.babies.map(\.name)
    #expect(names.filter { $0 == "Alex" }.count == 2)
    #expect(names.contains { $0.count > 40 })
    #expect(names.contains { $0.unicodeScalars.contains { $0.value >= 0xAC00 && $0.value <= 0xD7A3 } })
    #expect(fixtures.feeds.contains { $0.profileID == nil })
    let term = try #require(fixtures.babies.first?.feedTerm)
    #expect(fixtures.feeds.contains { $0.isInProgress && world.now.timeIntervalSince($0.startTime) > term })

    let store = try PreviewContainers.default(scenario: .edgeCases, world: world)
    let history = HistoryModel(container: store.container, calendar: world.calendar, timeZone: world.timeZone)
    try history.reload()
    let dayLengths = history.sections.flatMap(\.days).map { day in
      world.calendar.date(byAdding: .day, value: 1, to: day.start)!.timeIntervalSince(day.start)
    }
    #expect(dayLengths.contains(23 * 3600))
  }

  @Test func scenariosSeedInAZoneWithoutDaylightSaving() throws {
    let world = PreviewWorld(now: PreviewWorld.standard.now, timeZone: TimeZone(identifier: "UTC")!)
    for scenario in Scenario.all where scenario.name != "empty" {
      let fresh = StoreContainer.inMemory(schema: BabyDashboardSchema.current)
      try scenario.seed(fresh, cache: nil, now: world.now, timeZone: world.timeZone)
      #expect(try fresh.newBackgroundContext().babies().count >= 2)
    }
  }

  @Test func theCatalogCoversEveryScreenAndScenarioWithUniqueNames() throws {
    let entries = PreviewCatalog.entries
    #expect(entries.count >= 12)
    #expect(Set(entries.map(\.screen)) == Set(PreviewScreen.allCases))
    #expect(Set(entries.map(\.scenario.name)) == Set(Scenario.all.map(\.name)))
    #expect(Set(entries.map(\.name)).count == entries.count)
    try PreviewCatalog.validate()
    for entry in entries {
      let parts = entry.relativePath.split(separator: "/")
      #expect(parts.count == 2 && parts[0] == entry.screen.rawValue && parts[1].hasSuffix(".txt"))
    }
  }

  @Test func aNameCollisionInTheCatalogIsRefused() {
    let one = PreviewEntry(screen: .widget, scenario: .empty, variant: "small", summary: "a") { _ in "a\n" }
    let two = PreviewEntry(screen: .widget, scenario: .empty, variant: "Small", summary: "b") { _ in "b\n" }
    #expect {
      try PreviewCatalog.validate([one, one])
    } throws: { error in
      "\(error)".contains("'Widget/empty.small' and 'Widget/empty.small' have the same name")
    }
    #expect(throws: PreviewError.self) { try PreviewCatalog.validate([two]) }
  }
}
