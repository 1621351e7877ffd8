import BabyDashboard
import BabyDashboardFixtures
import BabyDashboardTesting
import Foundation
import PlainStore
import Testing

/// The tracker: the one door every write goes through, with one rule of each kind.
@Suite struct TrackerTests {
  func tracker(_ store: TestContainer, now: Date = Fixed.now) -> Tracker {
    let ids = TestIDs()
    return Tracker(
      context: store.container.newBackgroundContext(), schema: store.container.schema, cache: store.cache,
      now: { now }, newID: { ids.make() })
  }

  @Test func anImportedObjectIsMissingOnlyWhenNoneOfItsUniqueKeysIsTaken() throws {
    let store = try TestContainer(clock: { Fixed.now })
    defer { try? store.tearDown() }
    let start = Fixed.date("2026-03-14T06:00:00Z")
    let stored = makeFeedSession(profile: .mia, start: start, uuid: Fixed.id(20))
    try store.seed([.mia], feeds: [stored])
    let tracker = tracker(store)
    // Same baby and start under another id: the store would merge it, so it is not missing.
    let sameKey = makeFeedSession(profile: .mia, start: start, amountValue: 90, amountUnitSymbol: "mL", uuid: Fixed.id(21))
    let otherStart = makeFeedSession(profile: .mia, start: start.addingTimeInterval(60), uuid: Fixed.id(22))
    let orphan = makeFeedSession(profile: nil, start: start, uuid: Fixed.id(23))
    #expect(try tracker.missing([sameKey, otherStart, orphan]).map(\.uuid) == [Fixed.id(22), Fixed.id(23)])
    #expect(try tracker.missing([BabyProfile.mia, .leo]).map(\.id) == [BabyProfile.leo.id])

    try tracker.insert([BabyProfile.leo, otherStart, orphan], inSavesOf: 2)
    #expect(try store.reader.fetchCount(FetchDescriptor<FeedSession>()) == 3)
    #expect(try tracker.missing([sameKey, otherStart, orphan]).isEmpty)
  }

  @Test func aZeroIsNeverThePrefillNotEvenOneCachedBeforeTheRule() throws {
    let store = try TestContainer(clock: { Fixed.now })
    defer { try? store.tearDown() }
    let fed = makeFeedSession(
      profile: .mia, start: Fixed.date("2026-03-14T06:00:00Z"), end: Fixed.date("2026-03-14T06:20:00Z"), amountValue: 90, amountUnitSymbol: "mL",
      uuid: Fixed.id(20))
    let zero = makeFeedSession(
      profile: .mia, start: Fixed.date("2026-03-14T09:00:00Z"), end: Fixed.date("2026-03-14T09:10:00Z"), amountValue: 0, amountUnitSymbol: "mL",
      uuid: Fixed.id(21))
    try store.seed([.mia], feeds: [fed, zero])
    try store.cache.set(LastFeedAmount(amountValue: 0, amountUnitSymbol: "mL"), forBabyID: BabyProfile.mia.id)
    let (amount, source) = try tracker(store).lastAmount(of: .mia)
    #expect(amount == LastFeedAmount(amountValue: 90, amountUnitSymbol: "mL"))
    #expect(source == .history)
  }

  @Test func renamingABabyToAnotherBabysNameNeverTouchesThatBabysAmount() throws {
    let store = try TestContainer(clock: { Fixed.now })
    defer { try? store.tearDown() }
    try store.seed([.mia, .leo])
    let tracker = tracker(store)
    try tracker.logFeed(for: BabyProfile.mia.id, start: Fixed.date("2026-03-14T06:00:00Z"), end: Fixed.date("2026-03-14T06:20:00Z"), amount: LastFeedAmount(amountValue: 120, amountUnitSymbol: "mL"))
    try tracker.logFeed(for: BabyProfile.leo.id, start: Fixed.date("2026-03-14T07:00:00Z"), end: Fixed.date("2026-03-14T07:20:00Z"), amount: LastFeedAmount(amountValue: 4, amountUnitSymbol: "fl oz"))
    #expect(throws: ScreenModelError.nameInUse(name: "Mia", babyIDs: [BabyProfile.mia.id])) {
      try tracker.renameBaby(BabyProfile.leo.id, to: "Mia")
    }
    try tracker.renameBaby(BabyProfile.leo.id, to: "Mia", allowingSameName: true)
    #expect(try store.cache.amount(for: .mia) == LastFeedAmount(amountValue: 120, amountUnitSymbol: "mL"))
    #expect(try store.cache.amount(for: .leo) == LastFeedAmount(amountValue: 4, amountUnitSymbol: "fl oz"))
  }

  @Test func loggingAFeedOnAnExistingStartChangesOnlyWhatIsGiven() throws {
    let store = try TestContainer(clock: { Fixed.now })
    defer { try? store.tearDown() }
    try store.seed([.mia])
    let tracker = tracker(store)
    let start = Fixed.date("2026-03-14T06:00:00Z")
    let (first, updatedFirst) = try tracker.logFeed(
      for: BabyProfile.mia.id, start: start, end: start.addingTimeInterval(1200),
      amount: LastFeedAmount(amountValue: 100, amountUnitSymbol: "mL"), memo: "#night")
    let (second, updated) = try tracker.logFeed(for: BabyProfile.mia.id, start: start, end: start.addingTimeInterval(1800))
    #expect(!updatedFirst && updated)
    #expect(second.uuid == first.uuid)
    #expect(second.amountValue == 100 && second.memoText == "#night")
    #expect(second.endTime == start.addingTimeInterval(1800))
  }

  @Test func theClashRuleComesFromTheSchemasUniqueKeysAndNothingIsSaved() throws {
    let store = try TestContainer(clock: { Fixed.now })
    defer { try? store.tearDown() }
    try store.seed([.mia])
    let tracker = tracker(store)
    let a = try tracker.logFeed(for: BabyProfile.mia.id, start: Fixed.date("2026-03-14T06:00:00Z"), end: Fixed.date("2026-03-14T06:10:00Z")).feed
    let b = try tracker.logFeed(for: BabyProfile.mia.id, start: Fixed.date("2026-03-14T08:00:00Z"), end: Fixed.date("2026-03-14T08:10:00Z")).feed
    #expect(throws: ScreenModelError.invalid([.anotherFeedStartsThen])) {
      try tracker.editFeed(b.uuid, FeedChanges(startTime: a.startTime))
    }
    #expect(try store.reader.object(FeedSession.self, id: b.uuid) == b)
    #expect(!tracker.context.hasChanges)
    // A diaper of another type at the same moment is no clash: the type is part of the key.
    let diaper = try tracker.logDiaper(.pee, for: BabyProfile.mia.id, at: a.startTime)
    try tracker.logDiaper(.poo, for: BabyProfile.mia.id, at: a.startTime)
    #expect(throws: ScreenModelError.invalid([.sameDiaperChangeExists])) {
      try tracker.logDiaper(.pee, for: BabyProfile.mia.id, at: diaper.timestamp)
    }
  }

  @Test func everyRangeIsCheckedBeforeAnythingIsWritten() throws {
    let store = try TestContainer(clock: { Fixed.now })
    defer { try? store.tearDown() }
    try store.seed([.mia])
    let tracker = tracker(store)
    let future = Fixed.now.addingTimeInterval(120)
    #expect(throws: ScreenModelError.invalid([.inTheFuture])) { try tracker.startFeed(for: BabyProfile.mia.id, at: future) }
    #expect(throws: ScreenModelError.invalid([.inTheFuture])) { try tracker.logDiaper(.pee, for: BabyProfile.mia.id, at: future) }
    #expect(throws: ScreenModelError.invalid([.beforeEarliestTime])) {
      try tracker.logDiaper(.pee, for: BabyProfile.mia.id, at: Fixed.date("0026-03-14T06:00:00Z"))
    }
    #expect(throws: ScreenModelError.invalid([.nameHasControlCharacters])) { try tracker.addBaby(name: "Bo\u{1B}[31m") }
    #expect(throws: ScreenModelError.invalid([.nameTooLong(limit: 100)])) { try tracker.addBaby(name: String(repeating: "a", count: 101)) }
    #expect(throws: ScreenModelError.invalid([.feedTermOutOfRange])) { try tracker.addBaby(name: "Bo", feedTerm: -60) }
    #expect(throws: ScreenModelError.invalid([.amountTooLarge])) {
      try tracker.logFeed(for: BabyProfile.mia.id, start: Fixed.date("2026-03-14T06:00:00Z"), amount: LastFeedAmount(amountValue: 1000, amountUnitSymbol: "fl oz"))
    }
    #expect(throws: ScreenModelError.invalid([.endBeforeStart])) {
      try tracker.logFeed(for: BabyProfile.mia.id, start: Fixed.date("2026-03-14T06:00:00Z"), end: Fixed.date("2026-03-14T05:00:00Z"))
    }
    #expect(try store.reader.contentCounts() == StoreContentCounts(babies: 1, feeds: 0, diapers: 0))
  }

  @Test func aFeedCannotBeStartedBeforeTheBabysNewestFeed() throws {
    let store = try TestContainer(clock: { Fixed.now })
    defer { try? store.tearDown() }
    try store.seed([.mia])
    let tracker = tracker(store)
    try tracker.logFeed(for: BabyProfile.mia.id, start: Fixed.date("2026-03-14T09:00:00Z"), end: Fixed.date("2026-03-14T09:20:00Z"))
    #expect(throws: ScreenModelError.invalid([.laterFeedExists])) {
      try tracker.startFeed(for: BabyProfile.mia.id, at: Fixed.date("2026-03-14T08:00:00Z"))
    }
  }

  @Test func anOldFeedLoggedLateDoesNotReplaceTheCachedAmount() throws {
    let store = try TestContainer(clock: { Fixed.now })
    defer { try? store.tearDown() }
    try store.seed([.mia])
    let tracker = tracker(store)
    try tracker.logFeed(for: BabyProfile.mia.id, start: Fixed.date("2026-03-14T09:00:00Z"), end: Fixed.date("2026-03-14T09:20:00Z"), amount: LastFeedAmount(amountValue: 130, amountUnitSymbol: "mL"))
    try tracker.logFeed(for: BabyProfile.mia.id, start: Fixed.date("2026-03-14T03:00:00Z"), end: Fixed.date("2026-03-14T03:20:00Z"), amount: LastFeedAmount(amountValue: 60, amountUnitSymbol: "mL"))
    #expect(try store.cache.amount(for: .mia)?.amountValue == 130)
  }

  @Test func prefillsAreCountedAsHitsAndMisses() throws {
    let store = try TestContainer(clock: { Fixed.now })
    defer { try? store.tearDown() }
    try store.seed([.mia, .leo])
    try store.cache.set(LastFeedAmount(amountValue: 90, amountUnitSymbol: "mL"), forBabyID: BabyProfile.mia.id)
    let tracker = tracker(store)
    #expect(try tracker.prefill(for: BabyProfile.mia.id)?.amountValue == 90)
    #expect(try tracker.prefill(for: BabyProfile.leo.id) == nil)
    #expect(try store.cache.lookups() == LastFeedAmountCache.Lookups(hits: 1, misses: 1))
  }

  @Test func anOrphanFeedCanBeGivenToABaby() throws {
    let store = try TestContainer(clock: { Fixed.now })
    defer { try? store.tearDown() }
    let orphan = makeFeedSession(profile: nil, start: Fixed.date("2026-03-14T06:00:00Z"), end: Fixed.date("2026-03-14T06:20:00Z"), uuid: Fixed.id(30))
    try store.seed([.mia], feeds: [orphan])
    let edited = try tracker(store).editFeed(orphan.uuid, FeedChanges(profileID: .some(BabyProfile.mia.id)))
    #expect(edited.profileID == BabyProfile.mia.id)
    #expect(throws: ScreenModelError.unknownBaby(Fixed.id(99))) {
      try tracker(store).editFeed(orphan.uuid, FeedChanges(profileID: .some(Fixed.id(99))))
    }
  }

  @Test func anEventIsFoundByAnyPrefixOfItsIDThatOnlyItHas() throws {
    let store = try TestContainer(clock: { Fixed.now })
    defer { try? store.tearDown() }
    let feed = makeFeedSession(profile: BabyProfile.mia, start: Fixed.date("2026-03-14T06:00:00Z"), uuid: UUID(uuidString: "3F2A9C1E-0000-4000-8000-000000000001")!)
    let diaper = makeDiaperChange(profile: BabyProfile.mia, timestamp: Fixed.date("2026-03-14T07:00:00Z"), type: .pee, uuid: UUID(uuidString: "3F2B0000-0000-4000-8000-000000000002")!)
    try store.seed([.mia], feeds: [feed], diapers: [diaper])
    #expect(try store.reader.events(withIDPrefix: "3f2a") == [.feed(feed)])
    #expect(try store.reader.events(withIDPrefix: "3F2B") == [.diaper(diaper)])
    #expect(try store.reader.events(withIDPrefix: "3f2").count == 2)
    #expect(try store.reader.events(withIDPrefix: "").isEmpty)
  }
}
