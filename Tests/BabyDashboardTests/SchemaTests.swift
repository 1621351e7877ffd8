import BabyDashboard
import Foundation
import PlainStore
import Testing

/// The store's rules as SEED-SPEC.md maps them: order, uniqueness, delete rules, identity.
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
    let store = try TestStore()
    defer { store.destroy() }
    try store.seed([.mia])
    var again = BabyProfile.mia
    again.feedTerm = 9_000
    try store.seed([again])
    #expect(try store.reader.babies() == [again])
  }

  @Test func babiesAreOrderedByCreatedAtNotByName() throws {
    let store = try TestStore()
    defer { store.destroy() }
    let zoe = BabyProfile(id: Fixed.id(10), name: "Zoe", createdAt: Fixed.date("2025-12-01T00:00:00Z"))
    let ada = BabyProfile(id: Fixed.id(11), name: "Ada", createdAt: Fixed.date("2026-01-01T00:00:00Z"))
    try store.seed([ada, .leo, zoe, .mia])
    #expect(try store.reader.babies().map(\.name) == ["Zoe", "Ada", "Mia", "Leo"])
  }

  @Test func aSecondFeedOfTheSameBabyAndStartMergesIntoTheFirst() throws {
    let store = try TestStore()
    defer { store.destroy() }
    let first = FeedSession(uuid: Fixed.id(20), profileID: BabyProfile.mia.id, startTime: start, memoText: "first")
    try store.seed([.mia], feeds: [first])
    let again = FeedSession(
      uuid: Fixed.id(21), profileID: BabyProfile.mia.id, startTime: start, amountValue: 90, amountUnitSymbol: "mL")
    try store.seed(feeds: [again])
    let feeds = try store.reader.allFeeds()
    #expect(feeds.count == 1)
    #expect(feeds.first?.uuid == first.uuid)
    #expect(feeds.first?.amountValue == 90)
  }

  @Test func feedsOfTwoBabiesMayStartAtTheSameMoment() throws {
    let store = try TestStore()
    defer { store.destroy() }
    try store.seed(
      [.mia, .leo],
      feeds: [
        FeedSession(uuid: Fixed.id(20), profileID: BabyProfile.mia.id, startTime: start),
        FeedSession(uuid: Fixed.id(21), profileID: BabyProfile.leo.id, startTime: start),
      ])
    #expect(try store.reader.allFeeds().count == 2)
  }

  @Test func diaperChangesAreUniqueByBabyTimeAndType() throws {
    let store = try TestStore()
    defer { store.destroy() }
    try store.seed(
      [.mia],
      diapers: [
        DiaperChange(uuid: Fixed.id(30), profileID: BabyProfile.mia.id, timestamp: start, type: .pee),
        DiaperChange(uuid: Fixed.id(31), profileID: BabyProfile.mia.id, timestamp: start, type: .poo),
      ])
    try store.seed(diapers: [DiaperChange(uuid: Fixed.id(32), profileID: BabyProfile.mia.id, timestamp: start, type: .pee)])
    let diapers = try store.reader.allDiapers()
    #expect(diapers.count == 2)
    #expect(Set(diapers.map(\.uuid)) == [Fixed.id(30), Fixed.id(31)])
  }

  @Test func deletingABabyLeavesItsFeedsAndDiapersWithNoProfile() throws {
    let store = try TestStore()
    defer { store.destroy() }
    let feed = FeedSession(uuid: Fixed.id(20), profileID: BabyProfile.mia.id, startTime: start)
    let diaper = DiaperChange(uuid: Fixed.id(30), profileID: BabyProfile.mia.id, timestamp: start, type: .poo)
    let leosFeed = FeedSession(uuid: Fixed.id(21), profileID: BabyProfile.leo.id, startTime: start)
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
    let store = try TestStore()
    defer { store.destroy() }
    let feed = FeedSession(uuid: Fixed.id(20), profileID: BabyProfile.mia.id, startTime: start)
    let diaper = DiaperChange(uuid: Fixed.id(30), profileID: BabyProfile.mia.id, timestamp: start, type: .poo)
    try store.seed([.mia], feeds: [feed], diapers: [diaper])
    let context = store.container.newBackgroundContext()
    context.delete(feed)
    context.delete(diaper)
    try context.save()
    #expect(try store.reader.babies() == [.mia])
    #expect(try store.reader.allFeeds().isEmpty)
  }

  @Test func feedsAndDiapersKeepTheirUUIDAcrossAReopen() throws {
    let store = try TestStore()
    defer { store.destroy() }
    let feed = FeedSession(
      uuid: Fixed.id(20), profileID: BabyProfile.mia.id, startTime: start, endTime: start.addingTimeInterval(600),
      amountValue: 4.5, amountUnitSymbol: "fl oz", memoText: "#night")
    let diaper = DiaperChange(uuid: Fixed.id(30), profileID: nil, timestamp: start, type: .pee)
    try store.seed([.mia], feeds: [feed], diapers: [diaper])
    let reopened = try StoreContainer.file(at: try #require(store.container.directory), schema: BabyDashboardSchema.current)
    let context = reopened.newBackgroundContext()
    #expect(try context.object(FeedSession.self, id: Fixed.id(20)) == feed)
    #expect(try context.object(DiaperChange.self, id: Fixed.id(30)) == diaper)
    #expect(try context.babies() == [.mia])
  }

  @Test func theBabysLatestFeedsAndDiaperAreFoundByTime() throws {
    let store = try TestStore()
    defer { store.destroy() }
    let older = FeedSession(
      uuid: Fixed.id(20), profileID: BabyProfile.mia.id, startTime: start, endTime: start.addingTimeInterval(600),
      amountValue: 100, amountUnitSymbol: "mL")
    let newer = FeedSession(
      uuid: Fixed.id(21), profileID: BabyProfile.mia.id, startTime: start.addingTimeInterval(3_600),
      endTime: start.addingTimeInterval(4_000))
    let running = FeedSession(uuid: Fixed.id(22), profileID: BabyProfile.mia.id, startTime: start.addingTimeInterval(7_200))
    try store.seed([.mia], feeds: [older, newer, running])
    let reader = store.reader
    #expect(try reader.lastFeed(of: BabyProfile.mia.id) == running)
    #expect(try reader.inProgressFeed(of: BabyProfile.mia.id) == running)
    #expect(try reader.lastFinishedFeed(of: BabyProfile.mia.id) == newer)
    #expect(try reader.lastFeedWithAmount(of: BabyProfile.mia.id) == older)
    #expect(try reader.lastFeed(of: BabyProfile.leo.id) == nil)
  }

  @Test func anUnfinishedFeedFollowedByLaterFeedsIsForgottenNotInProgress() throws {
    let store = try TestStore()
    defer { store.destroy() }
    let forgotten = FeedSession(uuid: Fixed.id(20), profileID: BabyProfile.mia.id, startTime: start)
    let later = FeedSession(
      uuid: Fixed.id(21), profileID: BabyProfile.mia.id, startTime: start.addingTimeInterval(3_600),
      endTime: start.addingTimeInterval(4_000))
    try store.seed([.mia], feeds: [forgotten, later])
    #expect(try store.reader.inProgressFeed(of: BabyProfile.mia.id) == nil)
    #expect(try store.reader.lastFinishedFeed(of: BabyProfile.mia.id) == later)
  }
}
