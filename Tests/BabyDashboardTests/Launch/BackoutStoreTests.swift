import BabyDashboard
import Foundation
import PlainStore
import Testing

/// What applying a handback means (``BackoutStore/apply(_:)``), on the store that behaves as the
/// app's model context does: every change in order and one save, or nothing at all.
@Suite struct BackoutStoreTests {
  let start = Date(timeIntervalSinceReferenceDate: 800_000_000)
  let mia = LegacyBabyProfile(id: UUID(uuidString: "00000000-0000-0000-0000-00000000000A")!, name: "Mia", feedTerm: 10_800)

  var feed: LegacyFeedSession { LegacyFeedSession(profileID: mia.id, startTime: start, endTime: start + 900, amountValue: 120, amountUnitSymbol: "ml") }
  var diaper: LegacyDiaperChange { LegacyDiaperChange(profileID: mia.id, timestamp: start + 3600, type: .pee) }

  func store() -> LegacyExportBackoutStore {
    LegacyExportBackoutStore(LegacyExport(exportedAt: start, babyProfiles: [mia], feedSessions: [feed], diaperChanges: [diaper]))
  }

  @Test func anObjectReplacesTheRowWithItsIDAndANewOneIsAdded() throws {
    var edited = feed
    edited.memoText = "after the cutover"
    let later = LegacyFeedSession(profileID: mia.id, startTime: start + 7200, amountValue: 90, amountUnitSymbol: "ml")
    var store = store()
    try store.apply(BackoutHandback(changes: [.feedSession(id: feed.backoutID, edited), .feedSession(id: UUID(), later)], through: HistoryToken(sequence: 3)))
    #expect(store.saved.feedSessions == [edited, later])
    #expect(store.saved.babyProfiles == [mia])
  }

  @Test func aDeletionRemovesEveryRowWithItsIDForSwiftDataHasNoUniqueConstraint() throws {
    var store = LegacyExportBackoutStore(LegacyExport(exportedAt: start, babyProfiles: [mia], feedSessions: [feed, feed], diaperChanges: [diaper]))
    try store.apply(BackoutHandback(changes: [.deleted(entity: "FeedSession", id: feed.backoutID)], through: HistoryToken(sequence: 1)))
    #expect(store.saved.feedSessions.isEmpty)
    #expect(store.saved.diaperChanges == [diaper])
  }

  /// A change the store cannot take rolls the whole handback back: nothing before it is saved,
  /// by that apply or by the next one.
  @Test func aChangeTheStoreRefusesLeavesItAsItWas() throws {
    var store = store()
    let before = store.saved
    let handback = BackoutHandback(
      changes: [
        .babyProfile(id: UUID(), LegacyBabyProfile(id: UUID(), name: "Leo", feedTerm: 10_800)),
        .deleted(entity: "DiaperChange", id: diaper.backoutID),
        .deleted(entity: "Note", id: UUID()),
      ],
      through: HistoryToken(sequence: 9))
    #expect(throws: BackoutStoreError.unknownEntity("Note")) { try store.apply(handback) }
    #expect(store.saved == before)
    try store.apply(BackoutHandback(changes: [], through: HistoryToken(sequence: 9)))
    #expect(store.saved == before)
    #expect(BackoutStoreError.unknownEntity("Note").description == "the handback deletes a Note, which the SwiftData store has no model for")
  }

  /// An object the import made of two rows is one row once set: the other goes.
  @Test func anObjectOfTwoRowsIsSetOnceAndItsSecondRowGoes() throws {
    var edited = feed
    edited.memoText = "after the cutover"
    var store = LegacyExportBackoutStore(LegacyExport(exportedAt: start, babyProfiles: [mia], feedSessions: [feed, feed], diaperChanges: [diaper]))
    try store.apply(BackoutHandback(changes: [.feedSession(id: feed.backoutID, edited)], through: HistoryToken(sequence: 2)))
    #expect(store.saved.feedSessions == [edited])
  }

  /// A row found by another id than the object's (``BackoutRowIDs``) is the one set, and the
  /// row ids go through the JSON an app in another process reads; format 1 had none.
  @Test func aRowIDFindsTheRowAndSurvivesTheJSON() throws {
    let logged = UUID(uuidString: "00000000-0000-0000-0000-0000000000F1")!
    var edited = feed
    edited.memoText = "logged after the cutover"
    let handback = BackoutHandback(
      changes: [.feedSession(id: logged, edited)], through: HistoryToken(sequence: 4), rowIDs: [logged: feed.backoutID])
    let decoded = try JSONDecoder().decode(BackoutHandback.self, from: try handback.encoded())
    #expect(decoded == handback)
    var store = store()
    try store.apply(decoded)
    #expect(store.saved.feedSessions == [edited])

    let formatOne = #"{"changes":[],"format":1,"through":3}"#
    let old = try JSONDecoder().decode(BackoutHandback.self, from: Data(formatOne.utf8))
    #expect(old == BackoutHandback(changes: [], through: HistoryToken(sequence: 3)))
  }
}
