import BabyDashboard
import BabyDashboardFixtures
import BabyDashboardTesting
import Foundation
import PlainStore
import Testing

/// A feed logged again (same baby, same start) sets what it carries and nothing else.
@Suite struct HonestFeedInsertTests {
  @Test func insertingAFeedWithAStoredStartButNoEndKeepsTheStoredEndAndAmount() throws {
    let store = try TestContainer(clock: { Fixed.now })
    defer { try? store.tearDown() }
    let start = Fixed.date("2026-03-14T06:00:00Z")
    let stored = makeFeedSession(
      profile: BabyProfile.mia, start: start, end: Fixed.date("2026-03-14T06:20:00Z"), amountValue: 90, amountUnitSymbol: "mL",
      uuid: Fixed.id(20))
    try store.seed([.mia], feeds: [stored])

    let context = store.container.newBackgroundContext()
    let again = FeedSession(uuid: Fixed.id(99), profileID: BabyProfile.mia.id, startTime: start, memoText: "#again")
    context.insert(again)
    let saved = try context.save()

    var expected = stored
    expected.memoText = "#again"
    #expect(try store.reader.fetch(FetchDescriptor<FeedSession>()) == [expected])
    #expect(saved.id(of: FeedSession.self, again.uuid) == stored.uuid, "the save names the feed the insert became")
    #expect(try store.reader.object(FeedSession.self, id: again.uuid) == nil)
  }
}
