import Foundation
import PlainStoreTesting
import Testing

@testable import PlainStore

/// Every `CKError.Code` through the action table (``CloudErrorAction``): none loses a file, none
/// is dropped — the sync either deals with it or stops short saying why — and the next sync
/// delivers everything. Then the codes whose action is more than waiting, met as the server
/// gives them.
@Suite struct CloudKitErrorTests {
  /// The codes a whole request can fail with (the two of single records have tests below).
  static let requestCodes = CloudError.Code.allCases.filter { $0 != .partialFailure && $0 != .serverRecordChanged }

  /// On `delete`, the request that deletes the records of the files a change compaction deleted
  /// (the sync's send is through, the snapshot up): its codes are the save's, but `unknownItem`
  /// (gone already) and `serverRecordChanged` (left there), which settle it.
  @Test(arguments: requestCodes, [SimulatedCloudKit.Operation.save, .delete, .fetch])
  func everyCodeKeepsEveryFileAndTheNextSyncDeliversIt(_ code: CloudError.Code, on operation: SimulatedCloudKit.Operation) throws {
    let family = try CloudFamily()
    defer { family.remove() }
    let one = try family.open(1)
    try one.add(1, "Mia")
    try one.sync()
    try one.add(2, "Noah")
    if operation == .delete {
      try one.sync()
      #expect(try one.compactChanges()?.changeFilesDeleted == 2, "Mia's and Noah's change files")
    }
    let files = try family.files(1)
    family.cloud.failNext(operation, with: CloudError(code))

    try one.sync()  // an engine error is never thrown at the app
    #expect(try family.files(1) == files, "no file lost or added")
    let note = try one.syncStatus()?.carrierNote
    if case .wait(let condition) = CloudErrorAction.action(for: code) {
      #expect(note == condition.words, "the sync stopped short and says why")
      if condition == .zonePurged {  // the user deleted the data: nothing goes until a sign-in
        let asked = family.cloud.requestCount
        try one.sync()
        #expect(family.cloud.requestCount == asked)
        #expect(try family.files(1) == files)
        return
      }
    } else {
      #expect(note == nil || CloudCondition.allCases.contains { $0.words == note }, "dealt with, or stopped short saying why")
    }

    try one.sync()
    #expect(try one.syncStatus()?.carrierNote == nil)
    let own = testDevice(0xc1).text
    // A delete answered `unknownItem` whole is taken at its word (gone already): not sent again.
    let takenAtItsWord = operation == .delete && CloudErrorAction.actionOnDelete(for: code) == .settled
    #expect(
      try takenAtItsWord
        || family.cloud.recordNames(of: "family").filter { $0.hasPrefix(own) } == family.files(1).keys.map { $0.replacingOccurrences(of: "/", with: "_") }.sorted(),
      "the server holds the phone's files, and no record of a file it compacted away")
    #expect(try family.joined(2).names() == ["Mia", "Noah"])
  }

  @Test func quotaExceededKeepsEveryFileAndSaysICloudStorageIsFull() throws {
    let family = try CloudFamily()
    defer { family.remove() }
    let one = try family.open(1)
    try one.add(1, "Mia")
    family.cloud.setQuota("family", bytes: 10)
    try one.sync()
    #expect(try one.syncStatus()?.carrierNote?.hasPrefix("iCloud storage is full") == true)
    #expect(family.cloud.recordNames(of: "family").isEmpty)
    #expect(try one.names() == ["Mia"])

    family.cloud.setQuota("family", bytes: nil)
    try one.sync()
    #expect(try one.syncStatus()?.carrierNote == nil)
    #expect(family.cloud.recordNames(of: "family").count == 2, "device.json and the change, sent once space is there")
  }

  @Test func requestRateLimitedIsHonouredUntilTheRetryAfterHasPassed() throws {
    let family = try CloudFamily()
    defer { family.remove() }
    let one = try family.open(1)
    try one.add(1, "Mia")
    family.cloud.throttle("family", for: 30)
    try one.sync()
    let asked = family.cloud.requestCount
    #expect(try one.syncStatus()?.carrierNote?.contains("iCloud asked to wait") == true)

    family.cloud.advance(by: 20)
    try one.sync()
    #expect(family.cloud.requestCount == asked, "no request before the time the server asked for")
    family.cloud.advance(by: 11)
    try one.sync()
    #expect(family.cloud.recordNames(of: "family").count == 2)
    #expect(try one.syncStatus()?.carrierNote == nil)
  }

  @Test func limitExceededSplitsTheRequestUntilItFits() throws {
    let family = try CloudFamily(cloud: SimulatedCloudKit(requestLimit: 3))
    defer { family.remove() }
    let one = try family.open(1)
    for number in 1...10 { try one.add(number, "Baby \(number)") }
    try one.sync()
    #expect(family.cloud.saveRequestSizes.allSatisfy { $0 <= 3 })
    #expect(family.cloud.recordNames(of: "family").count == 11)
  }

  @Test func zoneNotFoundRecreatesTheZoneAndSendsEveryFileAgain() throws {
    let family = try CloudFamily()
    defer { family.remove() }
    let (one, two) = try family.pair()
    try one.add(1, "Mia")
    try two.add(2, "Noah")
    try syncInTurn(one, two)
    family.cloud.loseZone(of: "family")
    try one.sync()
    #expect(family.cloud.recordNames(of: "family").count == 2, "phone 1's files, sent again")
    try two.sync()  // its token is of the lost zone: it fetches from the beginning and sends its own again
    #expect(family.cloud.recordNames(of: "family").count == 4)
    #expect(try family.joined(3).names() == ["Mia", "Noah"])
  }

  @Test func changeTokenExpiredFetchesFromTheBeginningWritingNothingTwice() throws {
    let family = try CloudFamily()
    defer { family.remove() }
    let (one, two) = try family.pair()
    try one.add(1, "Mia")
    try syncInTurn(one, two)
    family.cloud.loseZone(of: "family")
    try one.add(2, "Noah")
    try one.sync()  // a new zone: phone 2's token is of the old one
    try two.sync()
    #expect(try two.names() == ["Mia", "Noah"])
    #expect(try family.files(2) == family.files(1))
  }

  @Test func serverRecordChangedWithTheSameBytesIsSuccess() throws {
    let family = try CloudFamily()
    defer { family.remove() }
    let one = try family.open(1)
    try one.add(1, "Mia")
    try one.sync()
    try FileManager.default.removeItem(at: family.store(1).appendingPathComponent("cloudkit-state.json"))
    try one.sync()  // every file offered again: the server holds each, with these bytes
    #expect(try one.syncStatus()?.carrierNote == nil)
    #expect(family.cloud.recordNames(of: "family").count == 2)
    #expect(try family.files(1).keys.filter { $0.contains("conflict") }.isEmpty)
  }

  /// Two copies of a store writing under one device id write change 1 with other bytes: the
  /// server keeps the first, the second goes up as a conflict copy (its batch, refused whole as
  /// CloudKit's zone batches are, goes again), and every phone merges both.
  @Test func serverRecordChangedWithOtherBytesIsASecondCopyThatEveryPhoneMerges() throws {
    let family = try CloudFamily()
    defer { family.remove() }
    let (one, two) = (try family.open(1, id: 7), try family.open(2, id: 7))
    try one.add(1, "Mia")
    try two.add(2, "Noah")
    for _ in 0..<3 {
      try syncInTurn(one, two)
    }
    #expect(family.cloud.recordNames(of: "family").contains { $0.contains(".sync-conflict-") })
    #expect(try family.joined(3).names() == ["Mia", "Noah"])
    #expect(try one.names() == ["Mia", "Noah"])
    #expect(try two.names() == ["Mia", "Noah"])
  }

  /// A phone restored from another's backup (the same device id, its CloudKit state too) that
  /// only reads: what the other writes on under that id is no deletion of its own, and reaches
  /// it.
  @Test func aRestoredCopyReceivesWhatTheOtherWritesUnderTheSameId() throws {
    let family = try CloudFamily()
    defer { family.remove() }
    let one = try family.open(1, id: 7)
    try one.add(1, "Mia")
    try one.sync()
    try FileManager.default.copyItem(at: family.store(1), to: family.store(2))
    let two = try family.open(2, id: 7)
    try one.add(2, "Noah")
    try syncInTurn(one, two)
    #expect(try two.names() == ["Mia", "Noah"])
  }
}
