import BabyDashboard
import BabyDashboardFixtures
import BabyDashboardTesting
import Foundation
import PlainStore
import Testing

/// The store's rules as BabyDashboard.docc's DataModel.md maps them: order, uniqueness, delete rules, identity.
@Suite struct SchemaTests {
  let start = Fixed.date("2026-03-14T09:00:00Z")

  @Test func theSchemaDeclaresTheSpecsConstraintsAndIndexes() throws {
    let entities = Dictionary(uniqueKeysWithValues: BabyDashboardSchema.current.entities.map { ($0.name, $0) })
    #expect(entities.keys.sorted() == ["BabyProfile", "DiaperChange", "FeedSession"])
    let baby = try #require(entities["BabyProfile"])
    #expect(baby.uniqueKeyNames == [["id"]])
    #expect(baby.indexedKeyNames == ["createdAt", "name"])
    let feed = try #require(entities["FeedSession"])
    #expect(feed.uniqueKeyNames == [["profileID", "startTime"]])
    #expect(feed.indexedKeyNames == ["startTime"])
    let diaper = try #require(entities["DiaperChange"])
    #expect(diaper.uniqueKeyNames == [["profileID", "timestamp", "type"]])
    #expect(diaper.indexedKeyNames == ["timestamp"])
    #expect(FeedSession.identityKey == "uuid" && DiaperChange.identityKey == "uuid" && BabyProfile.identityKey == "id")
  }

  @Test func aBabyIsUniqueByItsID() throws {
    let store = try TestContainer(clock: { Fixed.now })
    defer { try? store.tearDown() }
    try store.seed([.mia])
    var again = BabyProfile.mia
    again.feedTerm = 9_000
    try store.seed([again])
    #expect(try store.reader.babies() == [again])
  }

  @Test func babiesAreOrderedByCreatedAtNotByName() throws {
    let store = try TestContainer(clock: { Fixed.now })
    defer { try? store.tearDown() }
    let zoe = BabyProfile(id: Fixed.id(10), name: "Zoe", createdAt: Fixed.date("2025-12-01T00:00:00Z"))
    let ada = BabyProfile(id: Fixed.id(11), name: "Ada", createdAt: Fixed.date("2026-01-01T00:00:00Z"))
    try store.seed([ada, .leo, zoe, .mia])
    #expect(try store.reader.babies().map(\.name) == ["Zoe", "Ada", "Mia", "Leo"])
  }

  @Test func aSecondFeedOfTheSameBabyAndStartMergesIntoTheFirst() throws {
    let store = try TestContainer(clock: { Fixed.now })
    defer { try? store.tearDown() }
    let first = makeFeedSession(profile: BabyProfile.mia, start: start, memoText: "first", uuid: Fixed.id(20))
    try store.seed([.mia], feeds: [first])
    let again = makeFeedSession(profile: BabyProfile.mia, start: start, amountValue: 90, amountUnitSymbol: "mL", uuid: Fixed.id(21))
    try store.seed(feeds: [again])
    let feeds = try store.reader.allFeeds()
    #expect(feeds.count == 1)
    #expect(feeds.first?.uuid == first.uuid)
    #expect(feeds.first?.amountValue == 90)
  }

  @Test func feedsOfTwoBabiesMayStartAtTheSameMoment() throws {
    let store = try TestContainer(clock: { Fixed.now })
    defer { try? store.tearDown() }
    try store.seed(
      [.mia, .leo],
      feeds: [
        makeFeedSession(profile: BabyProfile.mia, start: start, uuid: Fixed.id(20)),
        makeFeedSession(profile: BabyProfile.leo, start: start, uuid: Fixed.id(21)),
      ])
    #expect(try store.reader.allFeeds().count == 2)
  }

  @Test func diaperChangesAreUniqueByBabyTimeAndType() throws {
    let store = try TestContainer(clock: { Fixed.now })
    defer { try? store.tearDown() }
    try store.seed(
      [.mia],
      diapers: [
        makeDiaperChange(profile: BabyProfile.mia, timestamp: start, type: .pee, uuid: Fixed.id(30)),
        makeDiaperChange(profile: BabyProfile.mia, timestamp: start, type: .poo, uuid: Fixed.id(31)),
      ])
    try store.seed(diapers: [makeDiaperChange(profile: BabyProfile.mia, timestamp: start, type: .pee, uuid: Fixed.id(32))])
    let diapers = try store.reader.allDiapers()
    #expect(diapers.count == 2)
    #expect(Set(diapers.map(\.uuid)) == [Fixed.id(30), Fixed.id(31)])
  }

  @Test func deletingABabyLeavesItsFeedsAndDiapersWithNoProfile() throws {
    let store = try TestContainer(clock: { Fixed.now })
    defer { try? store.tearDown() }
    let feed = makeFeedSession(profile: BabyProfile.mia, start: start, uuid: Fixed.id(20))
    let diaper = makeDiaperChange(profile: BabyProfile.mia, timestamp: start, type: .poo, uuid: Fixed.id(30))
    let leosFeed = makeFeedSession(profile: BabyProfile.leo, start: start, uuid: Fixed.id(21))
    try store.seed([.mia, .leo], feeds: [feed, leosFeed], diapers: [diaper])

    let context = store.container.newBackgroundContext()
    context.delete(BabyProfile.mia)
    try context.save()

    let reader = store.reader
    #expect(try reader.object(BabyProfile.self, id: BabyProfile.mia.id) == nil)
    #expect(try reader.object(FeedSession.self, id: feed.uuid)?.profileID == nil)
    #expect(try reader.object(DiaperChange.self, id: diaper.uuid)?.profileID == nil)
    #expect(try reader.object(FeedSession.self, id: leosFeed.uuid)?.profileID == BabyProfile.leo.id)
  }

  @Test func deletingAFeedOrADiaperLeavesTheBaby() throws {
    let store = try TestContainer(clock: { Fixed.now })
    defer { try? store.tearDown() }
    let feed = makeFeedSession(profile: BabyProfile.mia, start: start, uuid: Fixed.id(20))
    let diaper = makeDiaperChange(profile: BabyProfile.mia, timestamp: start, type: .poo, uuid: Fixed.id(30))
    try store.seed([.mia], feeds: [feed], diapers: [diaper])
    let context = store.container.newBackgroundContext()
    context.delete(feed)
    context.delete(diaper)
    try context.save()
    #expect(try store.reader.babies() == [.mia])
    #expect(try store.reader.allFeeds().isEmpty)
  }

  @Test func feedsAndDiapersKeepTheirUUIDAcrossAReopen() throws {
    let store = try TestContainer(clock: { Fixed.now })
    defer { try? store.tearDown() }
    let feed = makeFeedSession(profile: BabyProfile.mia, start: start, end: start.addingTimeInterval(600), amountValue: 4.5, amountUnitSymbol: "fl oz", memoText: "#night", uuid: Fixed.id(20))
    let diaper = makeDiaperChange(profile: nil, timestamp: start, type: .pee, uuid: Fixed.id(30))
    try store.seed([.mia], feeds: [feed], diapers: [diaper])
    let reopened = try StoreContainer.file(at: try #require(store.container.directory), schema: BabyDashboardSchema.current)
    let context = reopened.newBackgroundContext()
    #expect(try context.object(FeedSession.self, id: Fixed.id(20)) == feed)
    #expect(try context.object(DiaperChange.self, id: Fixed.id(30)) == diaper)
    #expect(try context.babies() == [.mia])
  }

  @Test func theBabysLatestFeedsAndDiaperAreFoundByTime() throws {
    let store = try TestContainer(clock: { Fixed.now })
    defer { try? store.tearDown() }
    let older = makeFeedSession(profile: BabyProfile.mia, start: start, end: start.addingTimeInterval(600), amountValue: 100, amountUnitSymbol: "mL", uuid: Fixed.id(20))
    let newer = makeFeedSession(profile: BabyProfile.mia, start: start.addingTimeInterval(3_600), end: start.addingTimeInterval(4_000), uuid: Fixed.id(21))
    let running = makeFeedSession(profile: BabyProfile.mia, start: start.addingTimeInterval(7_200), uuid: Fixed.id(22))
    try store.seed([.mia], feeds: [older, newer, running])
    let reader = store.reader
    #expect(try reader.lastFeed(of: BabyProfile.mia.id) == running)
    #expect(try reader.inProgressFeed(of: BabyProfile.mia.id) == running)
    #expect(try reader.lastFinishedFeed(of: BabyProfile.mia.id) == newer)
    #expect(try reader.lastFeedWithAmount(of: BabyProfile.mia.id) == older)
    #expect(try reader.lastFeed(of: BabyProfile.leo.id) == nil)
  }

  @Test func anUnfinishedFeedFollowedByLaterFeedsIsForgottenNotInProgress() throws {
    let store = try TestContainer(clock: { Fixed.now })
    defer { try? store.tearDown() }
    let forgotten = makeFeedSession(profile: BabyProfile.mia, start: start, uuid: Fixed.id(20))
    let later = makeFeedSession(profile: BabyProfile.mia, start: start.addingTimeInterval(3_600), end: start.addingTimeInterval(4_000), uuid: Fixed.id(21))
    try store.seed([.mia], feeds: [forgotten, later])
    #expect(try store.reader.inProgressFeed(of: BabyProfile.mia.id) == nil)
    #expect(try store.reader.lastFinishedFeed(of: BabyProfile.mia.id) == later)
  }
}
