import BabyDashboard
import Foundation
import Testing

/// The cache's rules, from every key-value backend.
@Suite struct LastFeedAmountCacheTests {
  @Test(arguments: KeyValueBackend.allCases)
  func anAmountReadsBackForTheBabysName(backend: KeyValueBackend) throws {
    let (store, cleanUp) = try backend.make()
    defer { cleanUp() }
    let cache = LastFeedAmountCache(store: store)
    #expect(try cache.get(forBabyName: "Mia") == nil)
    try cache.set(value: 120, unitSymbol: "mL", forBabyName: "Mia")
    #expect(try cache.get(forBabyName: "Mia") == LastFeedAmount(amountValue: 120, amountUnitSymbol: "mL"))
    #expect(try cache.get(forBabyName: "Leo") == nil)
  }

  @Test(arguments: KeyValueBackend.allCases)
  func theKeyIsLastFeedAmountDotNameAndTheValueIsSmallJSON(backend: KeyValueBackend) throws {
    let (store, cleanUp) = try backend.make()
    defer { cleanUp() }
    try LastFeedAmountCache(store: store).set(value: 4, unitSymbol: "oz", forBabyName: "하늘 Sky")
    #expect(try store.allKeys() == ["lastFeedAmount.하늘 Sky"])
    let json = try #require(try store.data(forKey: "lastFeedAmount.하늘 Sky"))
    #expect(String(decoding: json, as: UTF8.self) == #"{"amountUnitSymbol":"fl oz","amountValue":4}"#)
  }

  @Test(arguments: KeyValueBackend.allCases)
  func typedUnitsAreStoredAsCanonicalSymbols(backend: KeyValueBackend) throws {
    let (store, cleanUp) = try backend.make()
    defer { cleanUp() }
    let cache = LastFeedAmountCache(store: store)
    try cache.set(value: 90, unitSymbol: "ml", forBabyName: "Mia")
    #expect(try cache.get(forBabyName: "Mia")?.amountUnitSymbol == "mL")
    #expect(try cache.get(forBabyName: "Mia")?.measurement == Measurement(value: 90, unit: UnitVolume.milliliters))
  }

  @Test(arguments: KeyValueBackend.allCases)
  func removingForgetsOnlyThatBaby(backend: KeyValueBackend) throws {
    let (store, cleanUp) = try backend.make()
    defer { cleanUp() }
    let cache = LastFeedAmountCache(store: store)
    try cache.set(value: 1, unitSymbol: "mL", forBabyName: "Mia")
    try cache.set(value: 2, unitSymbol: "mL", forBabyName: "Leo")
    try cache.remove(forBabyName: "Mia")
    #expect(try cache.get(forBabyName: "Mia") == nil)
    #expect(try cache.allAmounts() == ["Leo": LastFeedAmount(amountValue: 2, amountUnitSymbol: "mL")])
  }

  @Test(arguments: KeyValueBackend.allCases)
  func theAmountMovesWithTheBabyOnRename(backend: KeyValueBackend) throws {
    let (store, cleanUp) = try backend.make()
    defer { cleanUp() }
    let cache = LastFeedAmountCache(store: store)
    try cache.set(value: 150, unitSymbol: "mL", forBabyName: "Baby")
    try cache.move(fromBabyName: "Baby", toBabyName: "Mia")
    #expect(try cache.get(forBabyName: "Baby") == nil)
    #expect(try cache.get(forBabyName: "Mia")?.amountValue == 150)
  }

  @Test(arguments: KeyValueBackend.allCases)
  func twoBabiesOfOneNameShareOneValueAndTheLastWriteWins(backend: KeyValueBackend) throws {
    // The name-keyed design accepted this ("if babies share a name, the cache may collide; last write wins"): BabyDashboard.docc, DataModel.md.
    let (store, cleanUp) = try backend.make()
    defer { cleanUp() }
    let cache = LastFeedAmountCache(store: store)
    try cache.set(value: 100, unitSymbol: "mL", forBabyName: "Sam")  // the first Sam
    try cache.set(value: 3, unitSymbol: "fl oz", forBabyName: "Sam")  // the second Sam
    #expect(try cache.get(forBabyName: "Sam") == LastFeedAmount(amountValue: 3, amountUnitSymbol: "fl oz"))
    #expect(try store.allKeys().count == 1)
  }

  @Test(arguments: KeyValueBackend.allCases)
  func aValueThatIsNotAnAmountIsReportedNotIgnored(backend: KeyValueBackend) throws {
    let (store, cleanUp) = try backend.make()
    defer { cleanUp() }
    try store.set(Data("oops".utf8), forKey: "lastFeedAmount.Mia")
    let error = try #require(throws: KeyValueStoreError.self) {
      try LastFeedAmountCache(store: store).get(forBabyName: "Mia")
    }
    #expect(error.code == .damaged)
    #expect(error.path == "lastFeedAmount.Mia")
  }

  @Test func aFeedWithoutValueOrUnitHasNoLastAmount() {
    let start = Date(timeIntervalSince1970: 0)
    #expect(LastFeedAmount(feed: FeedSession(profileID: nil, startTime: start, amountValue: 1)) == nil)
    #expect(LastFeedAmount(feed: FeedSession(profileID: nil, startTime: start, amountUnitSymbol: "mL")) == nil)
    #expect(
      LastFeedAmount(feed: FeedSession(profileID: nil, startTime: start, amountValue: 1, amountUnitSymbol: "ML"))
        == LastFeedAmount(amountValue: 1, amountUnitSymbol: "mL"))
  }
}
