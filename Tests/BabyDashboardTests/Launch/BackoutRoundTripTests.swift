import BabyDashboard
import BabyDashboardTesting
import Foundation
import PlainStore
import SwiftDataStoreBuilder
import Synchronization
import Testing

/// The backout of Phase B/C, the whole round trip on Linux: import at launch (the cutover), the
/// app writes to the new store, the importer is turned off, the launch hands back what changed,
/// a writer applies it to the fixture SwiftData store, the reader reads it back, and turning
/// the importer on again imports without duplicates.
@Suite struct BackoutRoundTripTests {
  let legacy: SwiftDataStoreFolder
  var appGroup: URL { legacy.store.deletingLastPathComponent() }
  var keyValues: FileKeyValueStore { FileKeyValueStore(appGroup: .current, directory: appGroup) }

  init() throws {
    legacy = try SwiftDataStoreFolder()
    try FileManager.default.createDirectory(at: appGroup, withIntermediateDirectories: true)
  }

  func launch(_ container: StoreContainer) -> LaunchReport {
    let now = LegacyImportHarness.now
    return BabyDashboardLaunch(
      appGroupDirectory: appGroup, keyValueStore: keyValues, deviceID: "phone-1", temporaryDirectory: legacy.readerTemporary,
      clock: { now }
    ).run(openingStore: { container })
  }

  func setImporter(_ state: FlagState) throws {
    try FlagDocument.modify(at: FlagDocument.url(in: appGroup)) { $0.entries[.legacyImporter] = .init(state: state) }
  }

  /// The test's SwiftData side: applies the value to the fixture store's rows through the
  /// backout's store (as the app's model context would), then writes the store whole with the
  /// builder, as SwiftData's save would leave it, and nothing else.
  func applyToFixtureStore(_ handback: BackoutHandback) throws {
    var store = LegacyExportBackoutStore(try legacy.reader().read())
    try store.apply(handback)
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(at: URL(fileURLWithPath: legacy.store.path + suffix)) }
    try SwiftDataStoreBuilder().write(store.saved, to: legacy.store)
  }

  /// The SwiftData store built from `family`, and the new store a launch imported it into: the cutover.
  func cutOver(_ family: LegacyExport) throws -> StoreContainer {
    try legacy.build(family)
    let container = try LegacyImportHarness.openStore(in: appGroup)
    let report = launch(container)
    guard case .imported = report.importStep else { throw CocoaError(.featureUnsupported, userInfo: ["report": "\(report)"]) }
    return container
  }

  /// A feed the app logs after the cutover, half an hour before the launches' clock (a time ahead
  /// of it is refused by the re-import).
  static func feedAfterTheCutover(of baby: UUID) -> FeedSession {
    FeedSession(profileID: baby, startTime: LegacyImportHarness.now - 1800, endTime: LegacyImportHarness.now - 900, amountValue: 120, amountUnitSymbol: "ml")
  }

  @Test func whatTheAppWroteAfterTheCutoverGoesBackToSwiftDataAndComesBackWithoutDuplicates() throws {
    defer { legacy.remove() }
    let family = try SwiftDataStoreFolder.familyExport()
    let container = try cutOver(family)

    // The app, after the cutover: a new feed, an edited one, a deleted diaper change.
    let mia = family.babyProfiles[0].id
    let importedFeed = try #require(family.feedSessions.first { $0.profileID == mia })
    let importedDiaper = try #require(family.diaperChanges.first { $0.profileID == mia })
    let app = container.newBackgroundContext(author: "app")
    let newFeed = Self.feedAfterTheCutover(of: mia)
    app.insert(newFeed)
    _ = try app.edit(FeedSession.self, id: LegacyIdentity.id(of: importedFeed)) { $0.memoText = "after the cutover" }
    app.delete(DiaperChange.self, id: LegacyIdentity.id(of: importedDiaper))
    try app.save()
    var counts = try container.newBackgroundContext().contentCounts()

    // While the importer is on, there is no backout.
    #expect(launch(container).backoutStep == .notNeeded(""))
    try setImporter(.off)
    let backedOut = launch(container)
    guard case .handBack(let handback) = backedOut.backoutStep else { Issue.record("\(backedOut)"); return }
    #expect(handback.summary == "2 to create or edit, 1 to delete")
    #expect(handback.changes.last == .deleted(entity: "DiaperChange", id: LegacyIdentity.id(of: importedDiaper)))
    #expect(backedOut.description.contains("backout: 2 to create or edit, 1 to delete since the cutover — apply to the SwiftData store, then confirm"))

    try applyToFixtureStore(handback)
    try MigrationBackout.confirm(handback, in: container, keyValueStore: keyValues)
    let readBack = try legacy.reader().read()
    #expect(readBack.feedSessions.contains { $0.startTime == newFeed.startTime && $0.amountValue == 120 && $0.profileID == mia })
    #expect(readBack.feedSessions.first { LegacyIdentity.id(of: $0) == LegacyIdentity.id(of: importedFeed) }?.memoText == "after the cutover")
    #expect(!readBack.diaperChanges.contains { LegacyIdentity.id(of: $0) == LegacyIdentity.id(of: importedDiaper) })
    // The fixture holds that feed twice (SwiftData has no unique constraint): the import made the
    // two rows one object, and the backout leaves one row of it.
    #expect(readBack.feedSessions.filter { LegacyIdentity.id(of: $0) == LegacyIdentity.id(of: importedFeed) }.count == 1)
    #expect(readBack.feedSessions.count == family.feedSessions.count + 1 - 1)
    #expect(readBack.diaperChanges.count == family.diaperChanges.count - 1)
    #expect(launch(container).description.contains("backout: nothing to hand back since the cutover"))
    #expect(try launchCountingOpens(container) == (.unchanged, 0), "nothing changed since: the store is not opened")
    let later = container.newBackgroundContext(author: "widget")
    later.insert(FeedSession(profileID: mia, startTime: LegacyImportHarness.now - 600, amountValue: 60, amountUnitSymbol: "ml"))
    try later.save()
    counts = try container.newBackgroundContext().contentCounts()
    let afterTheWrite = try launchCountingOpens(container)
    guard case .handBack(let more) = afterTheWrite.step else { Issue.record("\(afterTheWrite)"); return }
    #expect(afterTheWrite.opens == 1 && more.summary == "1 to create or edit, 0 to delete", "a write since: opened and handed back")
    try applyToFixtureStore(more)
    try MigrationBackout.confirm(more, in: container, keyValueStore: keyValues)

    // On again: the SwiftData store is imported again, and nothing is duplicated.
    try setImporter(.on)
    let again = launch(container)
    guard case .imported(let reimported) = again.importStep else { Issue.record("\(again)"); return }
    #expect(reimported.insertedCount == 0)
    #expect(try container.newBackgroundContext().contentCounts() == counts)
  }

  /// A launch's backout step, and how many times it opened the store.
  func launchCountingOpens(_ container: StoreContainer) throws -> (step: LaunchReport.BackoutStep, opens: Int) {
    let now = LegacyImportHarness.now
    let opens = Mutex(0)
    let report = BabyDashboardLaunch(
      appGroupDirectory: appGroup, keyValueStore: keyValues, deviceID: "phone-1", temporaryDirectory: legacy.readerTemporary,
      clock: { now }
    ).run(openingStore: {
      opens.withLock { $0 += 1 }
      return container
    })
    return (report.backoutStep, opens.withLock { $0 })
  }

  /// The backout, applied and confirmed: the handback of this launch.
  func backOut(_ container: StoreContainer) throws -> BackoutHandback? {
    try setImporter(.off)
    let report = launch(container)
    guard case .handBack(let handback) = report.backoutStep else {
      Issue.record("no handback: \(report)")
      return nil
    }
    try applyToFixtureStore(handback)
    try MigrationBackout.confirm(handback, in: container, keyValueStore: keyValues)
    return handback
  }

  /// A feed logged after the cutover has an id of its own, and an edited start derives another
  /// row id than the import gave: a second backout still edits the row the first one left, never
  /// adding another (the row ids the first recorded, ``BackoutRowIDs``).
  @Test func aSecondBackoutEditsTheRowsTheFirstLeftRatherThanAddingOthers() throws {
    defer { legacy.remove() }
    let family = try SwiftDataStoreFolder.familyExport()
    let container = try cutOver(family)
    let mia = family.babyProfiles[0].id
    let importedFeed = try #require(family.feedSessions.first { $0.profileID == mia })
    let app = container.newBackgroundContext(author: "app")
    let newFeed = Self.feedAfterTheCutover(of: mia)
    app.insert(newFeed)
    let movedStart = importedFeed.startTime - 60
    _ = try app.edit(FeedSession.self, id: LegacyIdentity.id(of: importedFeed)) { $0.startTime = movedStart }
    try app.save()
    _ = try #require(try backOut(container))
    let newRow = LegacyIdentity.id(of: LegacyFeedSession(profileID: mia, startTime: newFeed.startTime))
    #expect(try BackoutRowIDs.load(from: keyValues)[newFeed.uuid] == newRow)

    // On again (the import adds nothing), then off again after more edits of both feeds.
    try setImporter(.on)
    let again = launch(container)
    guard case .imported = again.importStep else { Issue.record("no import: \(again)"); return }
    _ = try app.edit(FeedSession.self, id: newFeed.uuid) { $0.memoText = "second backout" }
    _ = try app.edit(FeedSession.self, id: LegacyIdentity.id(of: importedFeed)) { $0.memoText = "moved, then noted" }
    try app.save()
    let second = try #require(try backOut(container))
    #expect(second.summary == "2 to create or edit, 0 to delete")

    let readBack = try legacy.reader().read()
    #expect(readBack.feedSessions.count == Set(family.feedSessions.map(\.backoutID)).count + 1, "no row was added twice")
    #expect(readBack.feedSessions.filter { $0.startTime == newFeed.startTime && $0.profileID == mia }.map(\.memoText) == ["second backout"])
    #expect(readBack.feedSessions.filter { $0.startTime == movedStart && $0.profileID == mia }.map(\.memoText) == ["moved, then noted"])
    #expect(!readBack.feedSessions.contains { $0.startTime == importedFeed.startTime && $0.profileID == mia })
  }

  /// A rebuilt cache keeps no history and no history reader: the backout then hands back every
  /// object as it is now — what was written since the cutover is not lost, and what was deleted
  /// since comes back in SwiftData (said in the summary) — rather than finding no cutover.
  @Test func afterTheCacheWasRebuiltTheBackoutHandsBackEverythingAndLosesNothing() throws {
    defer { legacy.remove() }
    let family = try SwiftDataStoreFolder.familyExport()
    let mia = family.babyProfiles[0].id
    let newFeed = Self.feedAfterTheCutover(of: mia)
    let importedDiaper = try #require(family.diaperChanges.first { $0.profileID == mia })
    do {
      let container = try cutOver(family)
      let app = container.newBackgroundContext(author: "app")
      app.insert(newFeed)
      app.delete(DiaperChange.self, id: LegacyIdentity.id(of: importedDiaper))
      try app.save()
    }
    // The cache is lost (the app's container cleaned, a damaged file): the next open rebuilds it.
    try FileManager.default.removeItem(at: AppGroup.storeURL(in: appGroup).appendingPathComponent("local"))
    let container = try LegacyImportHarness.openStore(in: appGroup)
    #expect(try MigrationBackout.isCutOver(container) == false, "the reader went with the cache")

    let handback = try #require(try backOut(container))
    #expect(!handback.deletionsKnown)
    #expect(handback.summary.hasSuffix("(the history since the cutover was lost: every object, and no deletion)"))
    let readBack = try legacy.reader().read()
    #expect(readBack.feedSessions.contains { $0.startTime == newFeed.startTime && $0.amountValue == 120 && $0.profileID == mia })
    // Every object is handed back, so the fixture's second rows of one object go too.
    #expect(readBack.feedSessions.count == Set(family.feedSessions.map(\.backoutID)).count + 1)
    #expect(readBack.babyProfiles.count == family.babyProfiles.count)
    #expect(
      readBack.diaperChanges.count == Set(family.diaperChanges.map(\.backoutID)).count,
      "the deleted one comes back: its deletion is not known")
    #expect(try MigrationBackout.isCutOver(container), "confirming marks the reader again")
    #expect(launch(container).description.contains("backout: nothing to hand back since the cutover"))
  }
}
