import BabyDashboard
import BabyDashboardFixtures
import BabyDashboardTesting
import Foundation
import PlainStore
import Testing

/// HistoryView's logic: merged, newest first, filtered, grouped by month and day, deletable.
@MainActor @Suite struct HistoryModelTests {
  let miaNight = makeFeedSession(profile: BabyProfile.mia, start: Fixed.date("2026-03-14T02:00:00Z"), end: Fixed.date("2026-03-14T02:20:00Z"), amountValue: 90, amountUnitSymbol: "mL", memoText: "#Night #gas", uuid: Fixed.id(20))
  let miaMorning = makeFeedSession(profile: BabyProfile.mia, start: Fixed.date("2026-03-14T12:00:00Z"), memoText: "sleepy #night", uuid: Fixed.id(21))
  let leoFeed = makeFeedSession(profile: BabyProfile.leo, start: Fixed.date("2026-03-14T10:00:00Z"), end: Fixed.date("2026-03-14T10:15:00Z"), memoText: "#burp", uuid: Fixed.id(22))
  let orphanFeed = makeFeedSession(profile: nil, start: Fixed.date("2026-03-13T09:00:00Z"), uuid: Fixed.id(23))
  let miaDiaper = makeDiaperChange(profile: BabyProfile.mia, timestamp: Fixed.date("2026-03-14T12:00:00Z"), type: .poo, uuid: Fixed.id(30))
  let leoDiaper = makeDiaperChange(profile: BabyProfile.leo, timestamp: Fixed.date("2026-03-14T11:00:00Z"), type: .pee, uuid: Fixed.id(31))

  func seeded() throws -> TestContainer {
    let store = try TestContainer(clock: { Fixed.now })
    try store.seed(
      [.mia, .leo], feeds: [miaNight, miaMorning, leoFeed, orphanFeed], diapers: [miaDiaper, leoDiaper])
    return store
  }

  func history(_ store: TestContainer, in zone: TimeZone = Fixed.utc) -> HistoryModel {
    HistoryModel(container: store.container, calendar: Fixed.gregorian, timeZone: zone)
  }

  @Test func feedsAndDiapersAreMergedNewestFirst() throws {
    let store = try seeded()
    defer { try? store.tearDown() }
    let model = history(store)
    try model.reload()
    // At one moment a feed comes before a diaper change.
    #expect(model.events.map(\.id) == [miaMorning.uuid, miaDiaper.uuid, leoDiaper.uuid, leoFeed.uuid, miaNight.uuid, orphanFeed.uuid])
    #expect(model.events.map(\.babyName) == ["Mia", "Mia", "Leo", "Leo", "Mia", nil])
    #expect(model.babies.map(\.name) == ["Mia", "Leo"])
    #expect(model.hashtags == ["burp", "gas", "night"])
  }

  @Test func theHistoryFollowsSavesAndKeepsItsFilters() async throws {
    let store = try seeded()
    defer { try? store.tearDown() }
    let model = history(store)
    try model.reload()
    model.hashtagFilter = "night"
    #expect(model.events.map(\.id) == [miaMorning.uuid, miaNight.uuid])

    let late = makeFeedSession(profile: BabyProfile.leo, start: Fixed.date("2026-03-14T23:00:00Z"), memoText: "#night", uuid: Fixed.id(40))
    let context = store.container.newBackgroundContext(author: "widget")
    context.insert(late)
    context.delete(DiaperChange.self, id: leoDiaper.uuid)
    try context.save()
    #expect(await waitUntil { model.events.map(\.id) == [late.uuid, miaMorning.uuid, miaNight.uuid] })
    model.hashtagFilter = nil
    #expect(!model.events.map(\.id).contains(leoDiaper.uuid))
    #expect(model.loadError == nil)
  }

  @Test func filteringByBabyShowsOnlyItsEvents() throws {
    let store = try seeded()
    defer { try? store.tearDown() }
    let model = history(store)
    try model.reload()
    model.babyFilter = BabyProfile.leo.id
    #expect(model.events.map(\.id) == [leoDiaper.uuid, leoFeed.uuid])
    #expect(model.hashtags == ["burp"])
    model.babyFilter = nil
    #expect(model.events.count == 6)
  }

  @Test func filteringByHashtagIgnoresCaseAndTheHashAndHidesDiapers() throws {
    let store = try seeded()
    defer { try? store.tearDown() }
    let model = history(store)
    try model.reload()
    model.hashtagFilter = "#NIGHT"
    #expect(model.events.map(\.id) == [miaMorning.uuid, miaNight.uuid])
    model.babyFilter = BabyProfile.leo.id
    #expect(model.events.isEmpty)
    model.babyFilter = BabyProfile.mia.id
    model.hashtagFilter = "gas"
    #expect(model.events.map(\.id) == [miaNight.uuid])
    model.hashtagFilter = ""
    #expect(model.events.count == 3)
  }

  @Test func deletingAnEventRemovesItFromTheStoreAndTheList() throws {
    let store = try seeded()
    defer { try? store.tearDown() }
    let model = history(store)
    try model.reload()
    let feed = try #require(model.events.first { $0.id == leoFeed.uuid })
    let diaper = try #require(model.events.first { $0.id == miaDiaper.uuid })
    try model.delete(feed)
    try model.delete(diaper)
    #expect(!model.events.contains { $0.id == leoFeed.uuid || $0.id == miaDiaper.uuid })
    #expect(try store.reader.object(FeedSession.self, id: leoFeed.uuid) == nil)
    #expect(try store.reader.object(DiaperChange.self, id: miaDiaper.uuid) == nil)
    #expect(try store.reader.babies().count == 2)
    #expect(throws: ScreenModelError.notFound(entity: "FeedSession", id: leoFeed.uuid)) { try model.delete(feed) }
  }

  @Test func aDeletedBabysEventsStayAsOrphansAndItsFilterIsCleared() throws {
    let store = try seeded()
    defer { try? store.tearDown() }
    let model = history(store)
    try model.reload()
    model.babyFilter = BabyProfile.leo.id
    let context = store.container.newBackgroundContext()
    context.delete(BabyProfile.leo)
    try context.save()
    try model.reload()
    #expect(model.babyFilter == nil)
    #expect(model.events.count == 6)
    #expect(model.events.filter { $0.babyName == nil }.map(\.id) == [leoDiaper.uuid, leoFeed.uuid, orphanFeed.uuid])
  }

  // MARK: - Grouping by month and day

  /// One event per moment, alternating feeds and diaper changes, all Mia's.
  func storeWithEvents(at moments: [String]) throws -> (TestContainer, [UUID]) {
    let store = try TestContainer(clock: { Fixed.now })
    var feeds: [FeedSession] = []
    var diapers: [DiaperChange] = []
    var ids: [UUID] = []
    for (index, moment) in moments.enumerated() {
      let id = Fixed.id(100 + index)
      ids.append(id)
      if index.isMultiple(of: 2) {
        feeds.append(makeFeedSession(profile: BabyProfile.mia, start: Fixed.date(moment), uuid: id))
      } else {
        diapers.append(makeDiaperChange(profile: BabyProfile.mia, timestamp: Fixed.date(moment), type: .pee, uuid: id))
      }
    }
    try store.seed([.mia], feeds: feeds, diapers: diapers)
    return (store, ids)
  }

  @Test func daysFollowNewYorkMidnightsAcrossTheSpringForwardChange() throws {
    // 2026-03-08: clocks in New York jump from 02:00 EST to 03:00 EDT; that day has 23 hours.
    let (store, ids) = try storeWithEvents(at: [
      "2026-03-08T04:59:00Z",  // 23:59 EST, March 7
      "2026-03-08T05:00:00Z",  // 00:00 EST, March 8
      "2026-03-08T06:59:00Z",  // 01:59 EST
      "2026-03-08T07:00:00Z",  // 03:00 EDT
      "2026-03-09T03:59:00Z",  // 23:59 EDT, still March 8
      "2026-03-09T04:00:00Z",  // 00:00 EDT, March 9
    ])
    defer { try? store.tearDown() }
    let model = history(store, in: Fixed.newYork)
    try model.reload()

    #expect(model.sections.map(\.id) == ["2026-03"])
    let days = try #require(model.sections.first?.days)
    #expect(days.map(\.id) == ["2026-03-09", "2026-03-08", "2026-03-07"])
    #expect(days.map { $0.events.map(\.id) } == [[ids[5]], [ids[4], ids[3], ids[2], ids[1]], [ids[0]]])
    #expect(days[1].start == Fixed.date("2026-03-08T05:00:00Z"))
    #expect(days[0].start == Fixed.date("2026-03-09T04:00:00Z"))
    #expect(days[0].start.timeIntervalSince(days[1].start) == 23 * 3_600)
  }

  @Test func daysFollowLordHoweMidnightsAcrossItsHalfHourFallBack() throws {
    // 2026-04-05: Lord Howe Island goes from +11:00 back to +10:30 at 02:00; 01:30–02:00 happens
    // twice and that day has 24.5 hours.
    let (store, ids) = try storeWithEvents(at: [
      "2026-04-04T12:59:00Z",  // 23:59 +11:00, April 4
      "2026-04-04T13:00:00Z",  // 00:00 +11:00, April 5
      "2026-04-04T14:45:00Z",  // 01:45 +11:00
      "2026-04-04T15:15:00Z",  // 01:45 +10:30, the second time
      "2026-04-05T13:29:00Z",  // 23:59 +10:30, still April 5
      "2026-04-05T13:30:00Z",  // 00:00 +10:30, April 6
    ])
    defer { try? store.tearDown() }
    let model = history(store, in: Fixed.lordHowe)
    try model.reload()

    let days = try #require(model.sections.first?.days)
    #expect(days.map(\.id) == ["2026-04-06", "2026-04-05", "2026-04-04"])
    #expect(days.map { $0.events.map(\.id) } == [[ids[5]], [ids[4], ids[3], ids[2], ids[1]], [ids[0]]])
    #expect(days[1].start == Fixed.date("2026-04-04T13:00:00Z"))
    #expect(days[0].start.timeIntervalSince(days[1].start) == 24.5 * 3_600)

    // The same events by UTC days split elsewhere: the zone decides, not the stored instant.
    let utc = history(store, in: Fixed.utc)
    try utc.reload()
    #expect(utc.sections.first?.days.map(\.id) == ["2026-04-05", "2026-04-04"])
    #expect(utc.sections.first?.days.map(\.events.count) == [2, 4])
  }

  @Test func monthsSplitAtLocalMidnightNotAtUTCMidnight() throws {
    let (store, ids) = try storeWithEvents(at: [
      "2026-03-01T04:30:00Z",  // 23:30 EST on February 28 in New York; March 1 in UTC
      "2026-03-01T05:30:00Z",  // 00:30 EST, March 1
      "2026-01-31T23:00:00Z",  // 18:00 EST, January 31
    ])
    defer { try? store.tearDown() }
    let newYork = history(store, in: Fixed.newYork)
    try newYork.reload()
    #expect(newYork.sections.map(\.id) == ["2026-03", "2026-02", "2026-01"])
    #expect(newYork.sections.map { $0.events.map(\.id) } == [[ids[1]], [ids[0]], [ids[2]]])
    #expect(newYork.sections[0].start == Fixed.date("2026-03-01T05:00:00Z"))
    #expect(newYork.sections[1].days.map(\.id) == ["2026-02-28"])

    let utc = history(store, in: Fixed.utc)
    try utc.reload()
    #expect(utc.sections.map(\.id) == ["2026-03", "2026-01"])
    #expect(utc.sections[0].days.map(\.id) == ["2026-03-01"])
  }

  @Test func groupingKeepsTheFilteredEventsOnly() throws {
    let store = try seeded()
    defer { try? store.tearDown() }
    let model = history(store, in: Fixed.newYork)
    try model.reload()
    #expect(model.sections.first?.days.map(\.id) == ["2026-03-14", "2026-03-13"])
    model.hashtagFilter = "night"
    // 02:00Z on March 14 is 22:00 EDT on March 13.
    #expect(model.sections.first?.days.map(\.id) == ["2026-03-14", "2026-03-13"])
    #expect(model.sections.first?.days.map { $0.events.map(\.id) } == [[miaMorning.uuid], [miaNight.uuid]])
  }
}
