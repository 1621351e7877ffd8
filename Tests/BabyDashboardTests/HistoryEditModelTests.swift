import BabyDashboard
import BabyDashboardFixtures
import BabyDashboardTesting
import Foundation
import PlainStore
import Testing

/// HistoryEditView's logic: edit a feed or a diaper change, validate, save, update the cache.
@MainActor @Suite struct HistoryEditModelTests {
  let feed = makeFeedSession(profile: BabyProfile.mia, start: Fixed.date("2026-03-14T06:00:00Z"), end: Fixed.date("2026-03-14T06:20:00Z"), amountValue: 90, amountUnitSymbol: "mL", memoText: "#night", uuid: Fixed.id(20))
  let earlierFeed = makeFeedSession(profile: BabyProfile.mia, start: Fixed.date("2026-03-14T02:00:00Z"), end: Fixed.date("2026-03-14T02:30:00Z"), uuid: Fixed.id(21))
  let diaper = makeDiaperChange(profile: BabyProfile.mia, timestamp: Fixed.date("2026-03-14T07:00:00Z"), type: .pee, uuid: Fixed.id(30))

  func seeded() throws -> TestContainer {
    let store = try TestContainer(clock: { Fixed.now })
    try store.seed([.mia], feeds: [feed, earlierFeed], diapers: [diaper])
    return store
  }

  func editor(
    _ store: TestContainer, _ kind: HistoryEvent.Kind, babyName: String? = "Mia", flags: FeatureFlags = .defaults
  ) throws -> HistoryEditModel {
    try HistoryEditModel(
      editing: HistoryEvent(kind, babyName: babyName), container: store.container, cache: store.cache, flags: flags, now: { Fixed.now })
  }

  func feedForm(_ model: HistoryEditModel) throws -> FeedDraft {
    guard case .feed(let form) = model.draft else { throw ScreenModelError.invalid([]) }
    return form
  }

  @Test func theFormOpensWithTheStoredValues() throws {
    let store = try seeded()
    defer { try? store.tearDown() }
    let model = try editor(store, .feed(feed))
    #expect(
      model.draft
        == .feed(FeedDraft(startTime: feed.startTime, endTime: feed.endTime, amountText: "90", unitSymbol: "mL", memoText: "#night")))
    #expect(model.canSave)
    let diaperModel = try editor(store, .diaper(diaper))
    #expect(diaperModel.draft == .diaper(DiaperDraft(timestamp: diaper.timestamp, type: .pee)))
  }

  @Test func editingAFeedSavesEveryFieldWithTheUnitCanonical() throws {
    let store = try seeded()
    defer { try? store.tearDown() }
    let model = try editor(store, .feed(feed))
    var form = try feedForm(model)
    form.startTime = Fixed.date("2026-03-14T05:50:00Z")
    form.endTime = Fixed.date("2026-03-14T06:30:00Z")
    form.amountText = "3.5"
    form.unitSymbol = "fl. oz"
    form.memoText = "#Gas then #sleep"
    model.draft = .feed(form)
    let saved = try model.save()

    let expected = makeFeedSession(profile: BabyProfile.mia, start: Fixed.date("2026-03-14T05:50:00Z"), end: Fixed.date("2026-03-14T06:30:00Z"), amountValue: 3.5, amountUnitSymbol: "fl oz", memoText: "#Gas then #sleep", uuid: feed.uuid)
    #expect(saved == HistoryEvent(.feed(expected), babyName: "Mia"))
    #expect(try store.reader.object(FeedSession.self, id: feed.uuid) == expected)
    #expect(expected.hashtags == ["gas", "sleep"])
    #expect(try feedForm(model).unitSymbol == "fl oz")
  }

  @Test func aMemoAnotherProcessChangedWhileTheFormWasOpenIsNotReverted() throws {
    let store = try seeded()
    defer { try? store.tearDown() }
    let model = try editor(store, .feed(feed))
    // Another process (a second container on the same folder: the widget, the CLI) edits the memo.
    let other = try StoreContainer.file(
      at: try #require(store.container.directory), schema: BabyDashboardSchema.current, options: StoreOptions(author: "widget", watchesOtherProcesses: false))
    let otherContext = other.newBackgroundContext()
    try otherContext.edit(FeedSession.self, id: feed.uuid) { $0.memoText = "#night #gas" }
    try otherContext.save()
    var form = try feedForm(model)
    form.amountText = "140"
    model.draft = .feed(form)
    try model.save()
    let stored = try #require(try store.reader.object(FeedSession.self, id: feed.uuid))
    #expect(stored.amountValue == 140)
    #expect(stored.memoText == "#night #gas", "the form changed only the amount")
  }

  @Test func aDiaperTypeAnotherProcessChangedIsKeptWhenTheFormMovesOnlyTheTime() throws {
    let store = try seeded()
    defer { try? store.tearDown() }
    let model = try editor(store, .diaper(diaper))
    let other = store.container.newBackgroundContext(author: "widget")
    try other.edit(DiaperChange.self, id: diaper.uuid) { $0.type = .poo }
    try other.save()
    model.draft = .diaper(DiaperDraft(timestamp: Fixed.date("2026-03-14T07:10:00Z"), type: .pee))
    try model.save()
    let stored = try #require(try store.reader.object(DiaperChange.self, id: diaper.uuid))
    #expect(stored.timestamp == Fixed.date("2026-03-14T07:10:00Z") && stored.type == .poo)
  }

  @Test func clearingTheAmountAndMemoStoresNone() throws {
    let store = try seeded()
    defer { try? store.tearDown() }
    try store.cache.set(value: 90, unitSymbol: "mL", forBabyName: "Mia")
    let model = try editor(store, .feed(feed))
    var form = try feedForm(model)
    form.amountText = ""
    form.memoText = "  "
    model.draft = .feed(form)
    try model.save()
    let stored = try #require(try store.reader.object(FeedSession.self, id: feed.uuid))
    #expect(stored.amountValue == nil && stored.amountUnitSymbol == nil && stored.memoText == nil)
    #expect(try store.cache.get(forBabyName: "Mia")?.amountValue == 90)
  }

  @Test(arguments: [
    (
      "2026-03-14T05:00:00Z", "90", "mL",
      ["The feed ends before it starts: set the end at or after the start."]
    ),
    ("2026-03-14T06:20:00Z", "-1", "mL", ["The amount is negative: enter zero or more, or leave it empty."]),
    (
      "2026-03-14T06:20:00Z", "ninety", "mL",
      ["The amount \"ninety\" is not a number: enter digits such as 120 or 4.5, or leave it empty."]
    ),
    ("2026-03-14T06:20:00Z", "90", "cup", ["The unit \"cup\" is not one the app knows: use mL or fl oz."]),
    (
      "2026-03-14T05:00:00Z", "-1", "gallon",
      [
        "The feed ends before it starts: set the end at or after the start.",
        "The amount is negative: enter zero or more, or leave it empty.",
        "The unit \"gallon\" is not one the app knows: use mL or fl oz.",
      ]
    ),
  ])
  func anInvalidFeedFormSaysWhatToFixAndSavesNothing(end: String, amount: String, unit: String, messages: [String]) throws {
    let store = try seeded()
    defer { try? store.tearDown() }
    try store.cache.set(value: 90, unitSymbol: "mL", forBabyName: "Mia")
    let model = try editor(store, .feed(feed))
    var form = try feedForm(model)
    form.endTime = Fixed.date(end)
    form.amountText = amount
    form.unitSymbol = unit
    model.draft = .feed(form)
    #expect(model.messages == messages)
    #expect(!model.canSave)
    let error = try #require(throws: ScreenModelError.self) { try model.save() }
    #expect(error.description == messages.joined(separator: " "))
    #expect(try store.reader.object(FeedSession.self, id: feed.uuid) == feed)
    #expect(try store.cache.get(forBabyName: "Mia")?.amountValue == 90)
  }

  @Test func anEndEqualToTheStartIsValidAndAZeroAmountIsSavedOnceConfirmed() throws {
    let store = try seeded()
    defer { try? store.tearDown() }
    let model = try editor(store, .feed(feed))
    var form = try feedForm(model)
    form.endTime = form.startTime
    form.amountText = "0"
    model.draft = .feed(form)
    #expect(model.issues.isEmpty)
    #expect(try model.doubts() == [.zeroAmount])
    #expect(throws: ScreenModelError.unconfirmed([.zeroAmount])) { try model.save() }
    #expect(try store.reader.object(FeedSession.self, id: feed.uuid) == feed)
    try model.save(confirmed: true)
    #expect(try store.reader.object(FeedSession.self, id: feed.uuid)?.amountValue == 0)
  }

  @Test func theFormAsksToConfirmTheTrackersDoubts() throws {
    let store = try seeded()
    defer { try? store.tearDown() }
    let model = try editor(store, .feed(feed))
    var form = try feedForm(model)
    // Back over the earlier feed (02:00–02:30) and longer than four hours.
    form.startTime = Fixed.date("2026-03-14T01:00:00Z")
    model.draft = .feed(form)
    #expect(try model.doubts() == [.feedTooLong(5 * 3600 + 20 * 60), .overlapsFeeds([earlierFeed.uuid])])
    #expect(throws: ScreenModelError.unconfirmed([.feedTooLong(5 * 3600 + 20 * 60), .overlapsFeeds([earlierFeed.uuid])])) { try model.save() }
    // A memo alone asks nothing.
    let memoOnly = try editor(store, .feed(feed))
    var memoForm = try feedForm(memoOnly)
    memoForm.memoText = "#night #calm"
    memoOnly.draft = .feed(memoForm)
    #expect(try memoOnly.doubts().isEmpty)
    try memoOnly.save()
  }

  @Test func movingAFeedOntoAnotherFeedsStartIsRefused() throws {
    let store = try seeded()
    defer { try? store.tearDown() }
    let model = try editor(store, .feed(feed))
    var form = try feedForm(model)
    form.startTime = earlierFeed.startTime
    model.draft = .feed(form)
    #expect(model.canSave)  // only the store knows
    #expect(throws: ScreenModelError.invalid([.anotherFeedStartsThen])) { try model.save() }
    #expect(try store.reader.allFeeds() == [feed, earlierFeed])
  }

  @Test func editingADiaperChangeSavesItsTimeAndType() throws {
    let store = try seeded()
    defer { try? store.tearDown() }
    let model = try editor(store, .diaper(diaper))
    model.draft = .diaper(DiaperDraft(timestamp: Fixed.date("2026-03-14T07:05:00Z"), type: .poo))
    try model.save()
    #expect(
      try store.reader.allDiapers()
        == [makeDiaperChange(profile: BabyProfile.mia, timestamp: Fixed.date("2026-03-14T07:05:00Z"), type: .poo, uuid: diaper.uuid)])
    #expect(try store.cache.get(forBabyName: "Mia") == nil)
  }

  @Test func aDiaperChangeCannotTakeTheTimeAndTypeOfAnother() throws {
    let store = try seeded()
    defer { try? store.tearDown() }
    let other = makeDiaperChange(profile: BabyProfile.mia, timestamp: Fixed.date("2026-03-14T08:00:00Z"), type: .poo, uuid: Fixed.id(31))
    try store.seed(diapers: [other])
    let model = try editor(store, .diaper(diaper))
    model.draft = .diaper(DiaperDraft(timestamp: other.timestamp, type: .poo))
    #expect(throws: ScreenModelError.invalid([.sameDiaperChangeExists])) { try model.save() }
    // The same time with the other type is a different change.
    model.draft = .diaper(DiaperDraft(timestamp: other.timestamp, type: .pee))
    try model.save()
    #expect(try store.reader.allDiapers().count == 2)
  }

  @Test func savingAFeedWithAnAmountUpdatesTheDashboardsLastAmount() throws {
    let store = try seeded()
    defer { try? store.tearDown() }
    let dashboard = DashboardModel(container: store.container, cache: store.cache, now: { Fixed.now })
    try dashboard.reload()
    #expect(dashboard.tile(for: BabyProfile.mia.id)?.lastAmount == LastFeedAmount(amountValue: 90, amountUnitSymbol: "mL"))

    let model = try editor(store, .feed(feed))
    var form = try feedForm(model)
    form.amountText = "150"
    form.unitSymbol = "ml"
    model.draft = .feed(form)
    try model.save()

    #expect(try store.cache.amount(for: .mia) == LastFeedAmount(amountValue: 150, amountUnitSymbol: "mL"))
    try dashboard.reload()
    #expect(dashboard.tile(for: BabyProfile.mia.id)?.lastAmount == LastFeedAmount(amountValue: 150, amountUnitSymbol: "mL"))
    #expect(try dashboard.finishFeedForm(for: BabyProfile.mia.id) == FeedAmountInput(amountText: "150", unitSymbol: "mL"))
  }

  @Test func theCacheIsKeyedByTheBabysIDWhateverItsName() throws {
    let store = try seeded()
    defer { try? store.tearDown() }
    // The row was listed before a rename elsewhere: the cache follows the store, not the row.
    let model = try editor(store, .feed(feed), babyName: "Old name")
    var renamed = BabyProfile.mia
    renamed.name = "Mia Rose"
    let context = store.container.newBackgroundContext()
    context.update(renamed)
    try context.save()
    var form = try feedForm(model)
    form.amountText = "95"
    model.draft = .feed(form)
    try model.save()
    #expect(try store.keyValues.allKeys() == [LastFeedAmountCache.key(forBabyID: BabyProfile.mia.id)])
  }

  @Test func anOrphanFeedWritesNoCache() throws {
    let store = try TestContainer(clock: { Fixed.now })
    defer { try? store.tearDown() }
    let orphan = makeFeedSession(profile: nil, start: Fixed.now, amountValue: 60, amountUnitSymbol: "mL", uuid: Fixed.id(40))
    try store.seed(feeds: [orphan])
    let model = try editor(store, .feed(orphan), babyName: nil)
    try model.save()
    #expect(try store.keyValues.allKeys().isEmpty)
  }

  @Test func withTheCacheFlagOffSavingWritesNothingToTheCache() throws {
    let store = try seeded()
    defer { try? store.tearDown() }
    let model = try editor(store, .feed(feed), flags: FeatureFlags(lastFeedAmountCache: false))
    var form = try feedForm(model)
    form.amountText = "150"
    model.draft = .feed(form)
    try model.save()
    #expect(try store.reader.object(FeedSession.self, id: feed.uuid)?.amountValue == 150)
    #expect(try store.keyValues.allKeys().isEmpty)
  }

  @Test func aRowDeletedMeanwhileCannotBeEditedOrSaved() throws {
    let store = try seeded()
    defer { try? store.tearDown() }
    let model = try editor(store, .feed(feed))
    let context = store.container.newBackgroundContext()
    context.delete(feed)
    try context.save()
    #expect(throws: ScreenModelError.notFound(entity: "FeedSession", id: feed.uuid)) { try model.save() }
    #expect(throws: ScreenModelError.notFound(entity: "FeedSession", id: feed.uuid)) { try editor(store, .feed(feed)) }
  }

  @Test func deletingFromTheFormRemovesTheRow() throws {
    let store = try seeded()
    defer { try? store.tearDown() }
    try editor(store, .diaper(diaper)).delete()
    try editor(store, .feed(feed)).delete()
    #expect(try store.reader.allDiapers().isEmpty)
    #expect(try store.reader.allFeeds() == [earlierFeed])
  }
}
