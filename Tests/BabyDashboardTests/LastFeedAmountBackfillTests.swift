import BabyDashboard
import BabyDashboardTesting
import Foundation
import PlainStore
import Testing

/// Phase A's one-time backfill of the cache from the store, and its coverage figure.
@Suite struct LastFeedAmountBackfillTests {
  func feed(_ id: Int, _ baby: BabyProfile?, _ start: String, amount: Double? = nil, unit: String? = nil) -> FeedSession {
    FeedSession(
      uuid: Fixed.id(id), profileID: baby?.id, startTime: Fixed.date(start),
      endTime: Fixed.date(start).addingTimeInterval(600), amountValue: amount, amountUnitSymbol: unit)
  }

  @Test(arguments: KeyValueBackend.allCases)
  func eachBabyWithoutAValueGetsItsMostRecentFeedWithAnAmount(backend: KeyValueBackend) throws {
    let store = try TestContainer(clock: { Fixed.now })
    defer { try? store.tearDown() }
    let (keyValues, cleanUp) = try backend.make()
    defer { cleanUp() }
    let ada = BabyProfile(id: Fixed.id(3), name: "Ada", createdAt: Fixed.date("2026-03-01T00:00:00Z"))
    try store.seed(
      [.mia, .leo, ada],
      feeds: [
        feed(20, .mia, "2026-03-10T08:00:00Z", amount: 100, unit: "ml"),
        feed(21, .mia, "2026-03-12T08:00:00Z", amount: 120, unit: "mL"),
        feed(22, .mia, "2026-03-13T08:00:00Z"),  // newer, but without an amount
        feed(23, .leo, "2026-03-13T09:00:00Z", amount: 3, unit: "oz"),
        feed(24, nil, "2026-03-14T09:00:00Z", amount: 999, unit: "mL"),  // an orphan: no baby to fill
      ])
    let cache = LastFeedAmountCache(store: keyValues)
    try cache.set(value: 4, unitSymbol: "fl oz", forBabyName: "Leo")  // already cached: kept

    let report = try cache.backfill(from: store.reader)

    #expect(report == LastFeedAmountBackfillReport(babies: 3, backfilledNames: ["Mia"], alreadyCached: 1, withoutAmount: 1))
    #expect(report.backfilled == 1)
    #expect(report.coverage == 1.0 / 3.0)
    #expect(
      try cache.amountsByBabyID() == [
        BabyProfile.mia.id: LastFeedAmount(amountValue: 120, amountUnitSymbol: "mL"),
        BabyProfile.leo.id: LastFeedAmount(amountValue: 4, amountUnitSymbol: "fl oz"),
      ])
    #expect(try cache.allAmounts().isEmpty, "Leo's name-keyed value moved to his id")
  }

  @Test func runningItAgainChangesNothing() throws {
    let store = try TestContainer(clock: { Fixed.now })
    defer { try? store.tearDown() }
    try store.seed([.mia], feeds: [feed(20, .mia, "2026-03-10T08:00:00Z", amount: 100, unit: "mL")])
    #expect(try store.cache.backfill(from: store.reader).coverage == 1)
    let key = LastFeedAmountCache.key(forBabyID: BabyProfile.mia.id)
    let before = try #require(try store.keyValues.data(forKey: key))
    let again = try store.cache.backfill(from: store.reader)
    #expect(again == LastFeedAmountBackfillReport(babies: 1, backfilledNames: [], alreadyCached: 1, withoutAmount: 0))
    #expect(again.coverage == 0)
    #expect(try store.keyValues.data(forKey: key) == before)
  }

  @Test func anEmptyStoreHasZeroCoverage() throws {
    let store = try TestContainer(clock: { Fixed.now })
    defer { try? store.tearDown() }
    let report = try store.cache.backfill(from: store.reader)
    #expect(report.babies == 0)
    #expect(report.coverage == 0)
  }

  @Test func twoBabiesOfOneNameEachGetTheirOwnAmount() throws {
    let store = try TestContainer(clock: { Fixed.now })
    defer { try? store.tearDown() }
    let samA = BabyProfile(id: Fixed.id(5), name: "Sam", createdAt: Fixed.date("2026-01-01T00:00:00Z"))
    let samB = BabyProfile(id: Fixed.id(6), name: "Sam", createdAt: Fixed.date("2026-01-02T00:00:00Z"))
    try store.seed(
      [samB, samA],
      feeds: [
        feed(20, samA, "2026-03-10T08:00:00Z", amount: 100, unit: "mL"),
        feed(21, samB, "2026-03-11T08:00:00Z", amount: 2, unit: "fl oz"),
      ])
    let report = try store.cache.backfill(from: store.reader)
    #expect(report == LastFeedAmountBackfillReport(babies: 2, backfilledNames: ["Sam", "Sam"], alreadyCached: 0, withoutAmount: 0))
    #expect(try store.cache.amount(for: samA)?.amountValue == 100)
    #expect(try store.cache.amount(for: samB)?.amountValue == 2)
  }

  @Test func withTheCacheFlagOffTheBackfillReadsAndWritesNothing() throws {
    let store = try TestContainer(clock: { Fixed.now })
    defer { try? store.tearDown() }
    try store.seed([.mia], feeds: [feed(20, .mia, "2026-03-10T08:00:00Z", amount: 100, unit: "mL")])
    // A damaged value proves the cache is not even read: reading it would throw.
    try store.keyValues.set(Data("oops".utf8), forKey: "lastFeedAmount.Mia")
    let report = try store.cache.backfill(from: store.reader, flags: FeatureFlags(lastFeedAmountCache: false))
    #expect(report == nil)
    #expect(try store.keyValues.allKeys() == ["lastFeedAmount.Mia"])
    #expect(try store.keyValues.data(forKey: "lastFeedAmount.Mia") == Data("oops".utf8))
    try store.keyValues.remove(forKey: "lastFeedAmount.Mia")
    let on = try store.cache.backfill(from: store.reader, flags: .defaults)
    #expect(on?.backfilledNames == ["Mia"])
  }
}
