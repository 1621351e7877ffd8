import BabyDashboard
import BabyDashboardFixtures
import BabyDashboardTesting
import Foundation
import PlainStore
import Testing

/// ContentView's logic: tiles, starting and finishing feeds, the cache, diapers, babies.
@MainActor @Suite struct DashboardModelTests {
  let clock = TestClock()
  let ids = TestIDs()

  func model(_ store: TestContainer, flags: FeatureFlags = .defaults) -> DashboardModel {
    let clock = clock
    let ids = ids
    return DashboardModel(
      container: store.container, cache: store.cache, flags: flags, now: { clock.now }, newID: { ids.make() })
  }

  @Test func tilesFollowCreatedAtNotTheName() throws {
    let store = try TestContainer(clock: { Fixed.now })
    defer { try? store.tearDown() }
    try store.seed([.leo, .mia])
    let dashboard = model(store)
    try dashboard.reload()
    #expect(dashboard.tiles.map(\.baby.name) == ["Mia", "Leo"])

    try dashboard.addBaby(name: "  Ada ")
    #expect(dashboard.tiles.map(\.baby.name) == ["Mia", "Leo", "Ada"])
    #expect(dashboard.tiles.last?.baby.id == Fixed.id(1000))
    #expect(dashboard.tiles.last?.baby.createdAt == Fixed.now)
  }

  @Test func theTilesFollowSavesOfOtherContextsAndContainers() async throws {
    let store = try TestContainer(clock: { Fixed.now })
    defer { try? store.tearDown() }
    try store.seed([.mia])
    let dashboard = model(store)
    try dashboard.reload()

    // Another context of this process starts a feed: no reload() needed.
    let feed = makeFeedSession(profile: BabyProfile.mia, start: Fixed.now, uuid: Fixed.id(500))
    let other = store.container.newBackgroundContext(author: "widget")
    other.insert(feed)
    try other.save()
    #expect(await waitUntil { dashboard.tile(for: BabyProfile.mia.id)?.inProgressFeed == feed })

    // Another container on the same folder, as another process would be, adds a baby.
    let elsewhere = try StoreContainer.file(at: try #require(store.container.directory), schema: BabyDashboardSchema.current)
    let context = elsewhere.newBackgroundContext()
    context.insert(BabyProfile.leo)
    try context.save()
    #expect(await waitUntil { dashboard.tiles.map(\.baby.name) == ["Mia", "Leo"] })
    #expect(dashboard.loadError == nil)
  }

  @Test func aBabyNeedsAName() throws {
    let store = try TestContainer(clock: { Fixed.now })
    defer { try? store.tearDown() }
    let dashboard = model(store)
    #expect(throws: ScreenModelError.emptyName) { try dashboard.addBaby(name: " \n ") }
    #expect(try store.reader.babies().isEmpty)
  }

  @Test func startingAFeedShowsTheBabyAsFeeding() throws {
    let store = try TestContainer(clock: { Fixed.now })
    defer { try? store.tearDown() }
    try store.seed([.mia])
    let dashboard = model(store)
    let feed = try dashboard.startFeed(for: BabyProfile.mia.id)
    #expect(feed == makeFeedSession(profile: BabyProfile.mia, start: Fixed.now, uuid: Fixed.id(1000)))
    let tile = try #require(dashboard.tile(for: BabyProfile.mia.id))
    #expect(tile.isFeeding)
    #expect(tile.nextFeedDue == Fixed.now.addingTimeInterval(10_800))
    #expect(!tile.isOverdue)
    #expect(try store.reader.inProgressFeed(of: BabyProfile.mia.id) == feed)
  }

  @Test func startingAFeedWhileOneIsInProgressIsAnError() throws {
    let store = try TestContainer(clock: { Fixed.now })
    defer { try? store.tearDown() }
    try store.seed([.mia])
    let dashboard = model(store)
    try dashboard.startFeed(for: BabyProfile.mia.id)
    clock.advance(60)
    let error = try #require(throws: ScreenModelError.self) { try dashboard.startFeed(for: BabyProfile.mia.id) }
    #expect(error == .alreadyFeeding(babyName: "Mia"))
    #expect(error.description == "Mia is already feeding: finish that feed before starting another.")
    #expect(try store.reader.allFeeds().count == 1)
  }

  @Test func finishingWithNoFeedInProgressIsAnError() throws {
    let store = try TestContainer(clock: { Fixed.now })
    defer { try? store.tearDown() }
    try store.seed([.mia])
    let dashboard = model(store)
    let error = try #require(throws: ScreenModelError.self) {
      try dashboard.finishFeed(for: BabyProfile.mia.id, amount: FeedAmountInput(amountText: "120"))
    }
    #expect(error == .noFeedInProgress(babyName: "Mia"))
    #expect(error.description.contains("start a feed first"))
    #expect(try store.reader.allFeeds().isEmpty)
    #expect(try store.cache.get(forBabyName: "Mia") == nil)
  }

  @Test func anUnknownBabyIsAnError() throws {
    let store = try TestContainer(clock: { Fixed.now })
    defer { try? store.tearDown() }
    let dashboard = model(store)
    #expect(throws: ScreenModelError.unknownBaby(Fixed.id(99))) { try dashboard.startFeed(for: Fixed.id(99)) }
    #expect(throws: ScreenModelError.unknownBaby(Fixed.id(99))) { try dashboard.logDiaper(.pee, for: Fixed.id(99)) }
  }

  @Test func finishingPrefillsTheCachedAmountAndSavingCachesTheNewOne() throws {
    let store = try TestContainer(clock: { Fixed.now })
    defer { try? store.tearDown() }
    try store.seed([.mia])
    try store.cache.set(value: 120, unitSymbol: "mL", forBabyName: "Mia")
    let dashboard = model(store)
    let started = try dashboard.startFeed(for: BabyProfile.mia.id)

    var form = try dashboard.finishFeedForm(for: BabyProfile.mia.id)
    #expect(form == FeedAmountInput(amountText: "120", unitSymbol: "mL"))
    form.amountText = "4,5"
    form.unitSymbol = "oz"
    clock.advance(900)
    let finished = try dashboard.finishFeed(for: BabyProfile.mia.id, amount: form)

    #expect(finished.uuid == started.uuid)
    #expect(finished.endTime == Fixed.now.addingTimeInterval(900))
    #expect(finished.amountValue == 4.5)
    #expect(finished.amountUnitSymbol == "fl oz")
    #expect(try store.reader.object(FeedSession.self, id: started.uuid) == finished)
    #expect(try store.cache.amount(for: .mia) == LastFeedAmount(amountValue: 4.5, amountUnitSymbol: "fl oz"))
    let tile = try #require(dashboard.tile(for: BabyProfile.mia.id))
    #expect(tile.lastAmount == LastFeedAmount(amountValue: 4.5, amountUnitSymbol: "fl oz"))
    #expect(tile.lastAmountSource == .cache)
    #expect(tile.lastFinishedFeed == finished)
    #expect(!tile.isFeeding)
    #expect(try dashboard.finishFeedForm(for: BabyProfile.mia.id) == FeedAmountInput(amountText: "4.5", unitSymbol: "fl oz"))
  }

  @Test func withNothingCachedThePrefillComesFromTheLastFeedWithAnAmount() throws {
    let store = try TestContainer(clock: { Fixed.now })
    defer { try? store.tearDown() }
    let fed = makeFeedSession(profile: BabyProfile.mia, start: Fixed.date("2026-03-14T06:00:00Z"), end: Fixed.date("2026-03-14T06:20:00Z"), amountValue: 95, amountUnitSymbol: "mL", uuid: Fixed.id(20))
    try store.seed([.mia, .leo], feeds: [fed])
    let dashboard = model(store)
    #expect(try dashboard.finishFeedForm(for: BabyProfile.mia.id) == FeedAmountInput(amountText: "95", unitSymbol: "mL"))
    #expect(try dashboard.finishFeedForm(for: BabyProfile.leo.id) == FeedAmountInput(amountText: "", unitSymbol: "mL"))
    try dashboard.reload()
    #expect(dashboard.tile(for: BabyProfile.mia.id)?.lastAmountSource == .history)
    #expect(dashboard.tile(for: BabyProfile.leo.id)?.lastAmount == nil)
  }

  @Test func finishingWithAnEmptyAmountSavesNoAmountAndLeavesTheCache() throws {
    let store = try TestContainer(clock: { Fixed.now })
    defer { try? store.tearDown() }
    try store.seed([.mia])
    try store.cache.set(value: 120, unitSymbol: "mL", forBabyName: "Mia")
    let dashboard = model(store)
    try dashboard.startFeed(for: BabyProfile.mia.id)
    let finished = try dashboard.finishFeed(for: BabyProfile.mia.id, amount: FeedAmountInput(amountText: " "))
    #expect(finished.amountValue == nil)
    #expect(finished.amountUnitSymbol == nil)
    #expect(try store.cache.amount(for: .mia)?.amountValue == 120)
  }

  @Test(arguments: [
    ("-5", "mL", "The amount is negative: enter zero or more, or leave it empty."),
    ("lots", "mL", "The amount \"lots\" is not a number: enter digits such as 120 or 4.5, or leave it empty."),
    ("120", "cups", "The unit \"cups\" is not one the app knows: use mL or fl oz."),
    ("120", "", "The amount has no unit: choose mL or fl oz."),
  ])
  func aBadAmountFinishesNothing(amount: String, unit: String, message: String) throws {
    let store = try TestContainer(clock: { Fixed.now })
    defer { try? store.tearDown() }
    try store.seed([.mia])
    let dashboard = model(store)
    let started = try dashboard.startFeed(for: BabyProfile.mia.id)
    let error = try #require(throws: ScreenModelError.self) {
      try dashboard.finishFeed(for: BabyProfile.mia.id, amount: FeedAmountInput(amountText: amount, unitSymbol: unit))
    }
    #expect(error.description == message)
    #expect(try store.reader.inProgressFeed(of: BabyProfile.mia.id) == started)
    #expect(try store.cache.get(forBabyName: "Mia") == nil)
  }

  @Test func aNewFeedAtTheVeryStartOfAFinishedOneIsRefused() throws {
    let store = try TestContainer(clock: { Fixed.now })
    defer { try? store.tearDown() }
    try store.seed([.mia])
    let dashboard = model(store)
    try dashboard.startFeed(for: BabyProfile.mia.id)
    let finished = try dashboard.finishFeed(for: BabyProfile.mia.id, amount: FeedAmountInput(amountText: "80"))
    // The clock has not moved: a second feed would merge into the first and erase its end.
    #expect(throws: ScreenModelError.invalid([.anotherFeedStartsThen])) { try dashboard.startFeed(for: BabyProfile.mia.id) }
    #expect(try store.reader.allFeeds() == [finished])
  }

  @Test func loggingPeeAndPooShowsTheLastDiaper() throws {
    let store = try TestContainer(clock: { Fixed.now })
    defer { try? store.tearDown() }
    try store.seed([.mia])
    let dashboard = model(store)
    let pee = try dashboard.logDiaper(.pee, for: BabyProfile.mia.id)
    #expect(pee == makeDiaperChange(profile: BabyProfile.mia, timestamp: Fixed.now, type: .pee, uuid: Fixed.id(1000)))
    clock.advance(300)
    let poo = try dashboard.logDiaper(.poo, for: BabyProfile.mia.id)
    #expect(dashboard.tile(for: BabyProfile.mia.id)?.lastDiaper == poo)
    #expect(try store.reader.allDiapers() == [poo, pee])
    // The same type again at the same moment would merge into the one logged.
    #expect(throws: ScreenModelError.invalid([.sameDiaperChangeExists])) { try dashboard.logDiaper(.poo, for: BabyProfile.mia.id) }
  }

  @Test func aBabyIsOverdueOnceTheFeedTermHasPassedSinceTheLastStart() throws {
    let store = try TestContainer(clock: { Fixed.now })
    defer { try? store.tearDown() }
    try store.seed([.leo])  // feeds every 2 hours
    let dashboard = model(store)
    try dashboard.startFeed(for: BabyProfile.leo.id)
    clock.advance(1_200)
    try dashboard.finishFeed(for: BabyProfile.leo.id, amount: FeedAmountInput())
    #expect(dashboard.tile(for: BabyProfile.leo.id)?.nextFeedDue == Fixed.now.addingTimeInterval(7_200))
    #expect(dashboard.tile(for: BabyProfile.leo.id)?.isOverdue == false)
    clock.set(Fixed.now.addingTimeInterval(7_200))
    try dashboard.reload()
    #expect(dashboard.tile(for: BabyProfile.leo.id)?.isOverdue == true)
  }

  @Test func renamingABabyKeepsItsCachedAmount() throws {
    let store = try TestContainer(clock: { Fixed.now })
    defer { try? store.tearDown() }
    try store.seed([.mia])
    try store.cache.set(value: 120, unitSymbol: "mL", forBabyName: "Mia")  // Phase A data
    let dashboard = model(store)
    try dashboard.renameBaby(BabyProfile.mia.id, to: "Mia Rose")
    #expect(try store.keyValues.allKeys() == [LastFeedAmountCache.key(forBabyID: BabyProfile.mia.id)])
    #expect(try store.cache.amount(for: .mia)?.amountValue == 120)
    #expect(dashboard.tile(for: BabyProfile.mia.id)?.baby.name == "Mia Rose")
    #expect(dashboard.tile(for: BabyProfile.mia.id)?.lastAmountSource == .cache)
  }

  @Test func editingABabysFeedTermMovesItsNextFeedDue() throws {
    let store = try TestContainer(clock: { Fixed.now })
    defer { try? store.tearDown() }
    try store.seed([.mia])
    let dashboard = model(store)
    try dashboard.editBaby(BabyProfile.mia.id, feedTerm: 5_400)
    #expect(dashboard.tile(for: BabyProfile.mia.id)?.baby.feedTerm == 5_400)
    #expect(dashboard.tile(for: BabyProfile.mia.id)?.baby.name == "Mia")
    #expect(throws: ScreenModelError.invalid([.feedTermOutOfRange])) { try dashboard.editBaby(BabyProfile.mia.id, feedTerm: 30) }
  }

  @Test func twoBabiesOfOneNameNeverShareACachedAmount() throws {
    // The collision was a known risk and keying by id its mitigation (BabyDashboard.docc, DataModel.md): shipped.
    let store = try TestContainer(clock: { Fixed.now })
    defer { try? store.tearDown() }
    let samA = BabyProfile(id: Fixed.id(5), name: "Sam", createdAt: Fixed.date("2026-01-01T00:00:00Z"))
    let samB = BabyProfile(id: Fixed.id(6), name: "Sam", createdAt: Fixed.date("2026-01-02T00:00:00Z"))
    try store.seed([samA, samB])
    let dashboard = model(store)
    try dashboard.startFeed(for: samA.id)
    try dashboard.startFeed(for: samB.id)
    clock.advance(600)
    try dashboard.finishFeed(for: samA.id, amount: FeedAmountInput(amountText: "100", unitSymbol: "mL"))
    try dashboard.finishFeed(for: samB.id, amount: FeedAmountInput(amountText: "3", unitSymbol: "oz"))
    let three = LastFeedAmount(amountValue: 3, amountUnitSymbol: "fl oz")
    #expect(dashboard.tiles.map(\.lastAmount) == [LastFeedAmount(amountValue: 100, amountUnitSymbol: "mL"), three])
    #expect(try store.keyValues.keys(withPrefix: LastFeedAmountCache.keyPrefix).isEmpty)
  }

  @Test func deletingABabyKeepsItsFeedsAsOrphansAndForgetsItsCachedAmount() throws {
    let store = try TestContainer(clock: { Fixed.now })
    defer { try? store.tearDown() }
    let feed = makeFeedSession(profile: BabyProfile.mia, start: Fixed.date("2026-03-14T06:00:00Z"), end: Fixed.date("2026-03-14T06:20:00Z"), amountValue: 95, amountUnitSymbol: "mL", uuid: Fixed.id(20))
    try store.seed([.mia, .leo], feeds: [feed])
    try store.cache.set(value: 95, unitSymbol: "mL", forBabyName: "Mia")
    let dashboard = model(store)
    try dashboard.deleteBaby(BabyProfile.mia.id)
    #expect(dashboard.tiles.map(\.baby.name) == ["Leo"])
    #expect(try store.reader.allFeeds().map(\.profileID) == [nil])
    #expect(try store.cache.get(forBabyName: "Mia") == nil)
    #expect(throws: ScreenModelError.unknownBaby(BabyProfile.mia.id)) { try dashboard.deleteBaby(BabyProfile.mia.id) }
  }

  @Test func aPhaseANameEntryGoesToTheOldestOfTwoBabiesOfThatNameOnly() throws {
    let store = try TestContainer(clock: { Fixed.now })
    defer { try? store.tearDown() }
    let samA = BabyProfile(id: Fixed.id(5), name: "Sam", createdAt: Fixed.date("2026-01-01T00:00:00Z"))
    let samB = BabyProfile(id: Fixed.id(6), name: "Sam", createdAt: Fixed.date("2026-01-02T00:00:00Z"))
    try store.seed([samA, samB])
    try store.cache.set(value: 100, unitSymbol: "mL", forBabyName: "Sam")
    let dashboard = model(store)
    try dashboard.reload()
    #expect(dashboard.tiles.map(\.lastAmount?.amountValue) == [100, nil])
    try dashboard.deleteBaby(samA.id)
    #expect(try store.cache.amount(for: samB) == nil, "the second Sam never borrows the first one's amount")
  }

  // MARK: - The cache flag off (Phase A's backout)

  @Test func withTheCacheFlagOffTheDashboardNeitherReadsNorWritesTheCache() throws {
    let store = try TestContainer(clock: { Fixed.now })
    defer { try? store.tearDown() }
    let fed = makeFeedSession(profile: BabyProfile.mia, start: Fixed.date("2026-03-14T06:00:00Z"), end: Fixed.date("2026-03-14T06:20:00Z"), amountValue: 80, amountUnitSymbol: "mL", uuid: Fixed.id(20))
    try store.seed([.mia], feeds: [fed])
    try store.cache.set(value: 999, unitSymbol: "mL", forBabyName: "Mia")
    let before = try store.keyValues.data(forKey: "lastFeedAmount.Mia")
    let dashboard = model(store, flags: FeatureFlags(lastFeedAmountCache: false))

    // Reads: the amount comes from the store's history, as before the cache existed.
    try dashboard.reload()
    #expect(dashboard.tile(for: BabyProfile.mia.id)?.lastAmount == LastFeedAmount(amountValue: 80, amountUnitSymbol: "mL"))
    #expect(dashboard.tile(for: BabyProfile.mia.id)?.lastAmountSource == .history)
    #expect(try dashboard.finishFeedForm(for: BabyProfile.mia.id).amountText == "80")

    // Writes: finishing, renaming and deleting leave the cache exactly as it was.
    try dashboard.startFeed(for: BabyProfile.mia.id)
    try dashboard.finishFeed(for: BabyProfile.mia.id, amount: FeedAmountInput(amountText: "130"))
    #expect(dashboard.tile(for: BabyProfile.mia.id)?.lastAmount?.amountValue == 130)
    try dashboard.renameBaby(BabyProfile.mia.id, to: "Mia Rose")
    try dashboard.deleteBaby(BabyProfile.mia.id)
    #expect(try store.keyValues.allKeys() == ["lastFeedAmount.Mia"])
    #expect(try store.keyValues.data(forKey: "lastFeedAmount.Mia") == before)
  }

  @Test func turningTheCacheFlagBackOnFindsTheValuesItLeft() throws {
    let store = try TestContainer(clock: { Fixed.now })
    defer { try? store.tearDown() }
    try store.seed([.mia])
    try store.cache.set(value: 120, unitSymbol: "mL", forBabyName: "Mia")
    let dashboard = model(store, flags: FeatureFlags(lastFeedAmountCache: false))
    try dashboard.reload()
    #expect(dashboard.tile(for: BabyProfile.mia.id)?.lastAmount == nil)
    dashboard.flags.lastFeedAmountCache = true
    try dashboard.reload()
    #expect(dashboard.tile(for: BabyProfile.mia.id)?.lastAmount?.amountValue == 120)
  }

  @Test func flagsStoredInTheAppGroupDriveTheDashboard() throws {
    let store = try TestContainer(clock: { Fixed.now })
    defer { try? store.tearDown() }
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let keyValues = FileKeyValueStore(appGroup: .debug, directory: folder.url)
    try FeatureFlags.set(.lastFeedAmountCache, to: false, in: keyValues)
    try store.seed([.mia])
    let dashboard = DashboardModel(
      container: store.container, cache: LastFeedAmountCache(store: keyValues), flags: try FeatureFlags.load(from: keyValues),
      now: { Fixed.now }, newID: { Fixed.id(1000) })
    try dashboard.startFeed(for: BabyProfile.mia.id)
    try dashboard.finishFeed(for: BabyProfile.mia.id, amount: FeedAmountInput(amountText: "60"))
    #expect(try keyValues.allKeys() == ["featureFlag.lastFeedAmountCache"])
  }

  @Test func aDamagedCacheEntryIsReportedAndTheHistoryIsShown() throws {
    let store = try TestContainer(clock: { Fixed.now })
    defer { try? store.tearDown() }
    let fed = makeFeedSession(profile: BabyProfile.mia, start: Fixed.date("2026-03-14T06:00:00Z"), end: Fixed.date("2026-03-14T06:20:00Z"), amountValue: 80, amountUnitSymbol: "mL", uuid: Fixed.id(20))
    try store.seed([.mia], feeds: [fed])
    try store.keyValues.set(Data("oops".utf8), forKey: "lastFeedAmount.Mia")
    let dashboard = model(store)
    try dashboard.reload()
    #expect(dashboard.tile(for: BabyProfile.mia.id)?.lastAmountSource == .history)
    #expect(dashboard.cacheWarning?.contains("lastFeedAmount.Mia") == true)
  }
}
