import BabyDashboard
import PlainStore
import Foundation
import Testing

@Suite struct EntityTests {
  let start = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z

  @Test func aFeedWithoutAnEndIsInProgress() {
    var feed = FeedSession(profileID: UUID(), startTime: start)
    #expect(feed.isInProgress)
    #expect(feed.duration == nil)
    feed.endTime = start.addingTimeInterval(900)
    #expect(!feed.isInProgress)
    #expect(feed.duration == 900)
  }

  /// The store finds an object's identity in its JSON under the entity's identity key: the
  /// SwiftData models' `uuid`, which change files and exports carry.
  @Test func feedsAndDiapersAreStoredUnderTheirUUID() throws {
    let feed = FeedSession(profileID: nil, startTime: start)
    let diaper = DiaperChange(profileID: nil, timestamp: start, type: .poo)
    for (key, id, json) in [
      (FeedSession.identityKey, feed.uuid, try JSONEncoder().encode(feed)), (DiaperChange.identityKey, diaper.uuid, try JSONEncoder().encode(diaper)),
    ] {
      let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
      #expect(key == "uuid")
      #expect(object[key] as? String == id.uuidString)
    }
  }

  @Test func aNewBabyIsDueEveryThreeHoursByDefault() {
    let baby = BabyProfile(name: "Mia", createdAt: start)
    #expect(baby.feedTerm == 10_800)
    #expect(baby.createdAt == start)
  }

  @Test func diaperTypesAreStoredAsPeeAndPoo() throws {
    #expect(DiaperType.allCases.map(\.rawValue) == ["pee", "poo"])
    let diaper = DiaperChange(profileID: nil, timestamp: start, type: .pee)
    let json = String(decoding: try JSONEncoder().encode(diaper), as: UTF8.self)
    #expect(json.contains(#""type":"pee""#))
  }

  @Test func entitiesRoundTripThroughJSON() throws {
    let baby = BabyProfile(name: "Mia", feedTerm: 7_200, createdAt: start)
    let feed = FeedSession(
      profileID: baby.id, startTime: start, endTime: start.addingTimeInterval(600),
      amountValue: 90.5, amountUnitSymbol: "mL", memoText: "#night")
    let diaper = DiaperChange(profileID: baby.id, timestamp: start, type: .poo)
    #expect(try roundTrip(baby) == baby)
    #expect(try roundTrip(feed) == feed)
    #expect(try roundTrip(diaper) == diaper)
  }

  @Test func aBabyProfileHasNoLastFeedAmountFields() throws {
    let json = String(decoding: try JSONEncoder().encode(BabyProfile(name: "Mia", createdAt: start)), as: UTF8.self)
    #expect(!json.contains("lastFeedAmount"))
    #expect(json.contains("createdAt"))
  }

  private func roundTrip<T: Codable>(_ value: T) throws -> T {
    try JSONDecoder().decode(T.self, from: JSONEncoder().encode(value))
  }
}
