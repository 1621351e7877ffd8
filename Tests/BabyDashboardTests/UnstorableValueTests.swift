import BabyDashboard
import BabyDashboardTesting
import Foundation
import PlainStore
import Testing

/// Values no store file can hold, reaching the domain through the API: refused with an error,
/// never a crash, never a file the readers call damaged.
@Suite struct UnstorableValueTests {
  @Test(arguments: [Double.nan, .infinity, -.infinity])
  func aFeedWithANonFiniteAmountIsRefusedAtSaveNamingTheProperty(_ amount: Double) throws {
    let store = try TestContainer(clock: { Fixed.now })
    defer { try? store.tearDown() }
    try store.seed([.mia])
    let context = store.container.newBackgroundContext()
    let feed = FeedSession(
      uuid: Fixed.id(40), profileID: BabyProfile.mia.id, startTime: Fixed.now, amountValue: amount, amountUnitSymbol: "mL")
    context.insert(feed)
    let error = try #require(throws: StoreError.self) { try context.save() }
    #expect(error.code == .invalidObject)
    #expect(error.path == "FeedSession \(Fixed.id(40).uuidString)")
    #expect(error.detail.contains("'amountValue'"))
    #expect(try store.reader.fetch(FetchDescriptor<FeedSession>()).isEmpty)
  }

  @Test func aFeedStartingAfterTheYear9999IsRefusedAtSave() throws {
    let store = try TestContainer(clock: { Fixed.now })
    defer { try? store.tearDown() }
    try store.seed([.mia])
    let context = store.container.newBackgroundContext()
    let start = try #require(ISO8601.parse("9999-12-31T23:00:00-14:00"))
    context.insert(FeedSession(uuid: Fixed.id(41), profileID: BabyProfile.mia.id, startTime: start))
    let error = try #require(throws: StoreError.self) { try context.save() }
    #expect(error.code == .invalidObject)
    #expect(error.detail.contains("'startTime'"))
    #expect(error.detail.contains("+10000-01-01T13:00:00Z"))
    #expect(error.detail.contains("years 0000 to 9999"))
  }

  /// A feed term of 2^63 seconds (stored by an older babydash, or by a script through the API)
  /// puts the next feed beyond any date: the widget shows no due time instead of trapping or
  /// writing a file the widget then refuses.
  @Test(arguments: [9_223_372_036_854_775_807.0, 1e300])
  @MainActor func anEnormousFeedTermGivesNoDueTimeRatherThanACrash(_ feedTerm: TimeInterval) throws {
    let store = try TestContainer(clock: { Fixed.now })
    defer { try? store.tearDown() }
    let baby = BabyProfile(id: Fixed.id(1), name: "Mia", feedTerm: feedTerm, createdAt: Fixed.now.addingTimeInterval(-86_400))
    let feed = FeedSession(uuid: Fixed.id(42), profileID: baby.id, startTime: Fixed.now.addingTimeInterval(-600))
    try store.seed([baby], feeds: [feed])

    #expect(baby.nextFeedDue(afterFeedStartingAt: feed.startTime) == nil)
    let snapshots = try BabyWidgetSnapshots.make(from: store.reader, now: Fixed.now, timeZone: Fixed.utc)
    #expect(snapshots.babies.first?.nextFeedDue == nil)
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let url = folder.url.appendingPathComponent("WidgetCache/snapshots.json")
    try snapshots.write(to: url)
    #expect(try BabyWidgetSnapshots.read(from: url) == snapshots)

    let model = DashboardModel(container: store.container, cache: store.cache, now: { Fixed.now })
    try model.reload()
    #expect(model.tile(for: baby.id)?.nextFeedDue == nil)
  }

  @Test func aSnapshotHoldingADateTheWidgetCannotReadIsNotWritten() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let url = folder.url.appendingPathComponent("snapshots.json")
    let snapshots = BabyWidgetSnapshots(
      generatedAt: Date(timeIntervalSinceReferenceDate: 1e19), timeZone: "UTC", babies: [])
    #expect(throws: EncodingError.self) { try snapshots.write(to: url) }
    #expect(!FileManager.default.fileExists(atPath: url.path))
  }

  @Test func theNextFeedIsDueAFeedTermAfterTheStart() {
    let baby = BabyProfile(id: Fixed.id(1), name: "Mia", feedTerm: 10_800, createdAt: Fixed.now)
    #expect(baby.nextFeedDue(afterFeedStartingAt: Fixed.now) == Fixed.now.addingTimeInterval(10_800))
    let late = Fixed.date("9999-12-31T22:00:00Z")
    #expect(baby.nextFeedDue(afterFeedStartingAt: late) == nil)
  }
}
