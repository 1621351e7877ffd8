import Foundation
import PlainStoreTesting
import Testing

@testable import PlainStore

/// Record deletions after a change compaction (issue #56, item 5): the phone that compacted
/// deletes the records of its own files it deleted, once the snapshot that supersedes them is up;
/// the other phones keep their files; a phone joining afterwards fetches only the snapshot and
/// what came after, and shows what the others show.
@Suite struct CloudKitDeletionTests {
  static let phoneOne = testDevice(0xc1)

  /// The record names of `files` (as `CloudFamily.files` gives them) of `device`, sorted.
  static func recordNames(_ files: [String: Data], of device: DeviceID) -> [String] {
    files.keys.filter { $0.hasPrefix(device.text + "/") }.map { $0.replacingOccurrences(of: "/", with: "_") }.sorted()
  }

  /// Phone one's records on the server.
  static func phoneOneRecords(_ family: CloudFamily) -> [String] {
    family.cloud.recordNames(of: "family").filter { $0.hasPrefix(phoneOne.text + "_") }
  }

  /// Phone one's four babies and phone two's Noah, everywhere, phone one's acknowledged by phone
  /// two's snapshot; then phone one's compaction. Returns the phones, the compaction and phone one's records before it.
  static func compactedFamily(_ family: CloudFamily) throws -> (StoreContainer, StoreContainer, ChangeCompaction, [String]) {
    let (one, two) = try family.pair()
    for (number, name) in ["Mia", "Leo", "Ava", "Zoe"].enumerated() { try one.add(number + 1, name) }
    try two.add(10, "Noah")
    try syncInTurn(one, two, one)  // every file everywhere
    _ = try two.compactChanges()  // phone two's snapshot acknowledges phone one's changes
    try syncInTurn(two, one)
    let before = phoneOneRecords(family)
    let compaction = try #require(try one.compactChanges())
    try #require(compaction.changeFilesDeleted > 0, "the compaction deleted phone one's change files")
    return (one, two, compaction, before)
  }

  @Test func aPhoneThatCompactsLeavesOnTheServerOnlyItsSnapshotAndWhatCameAfter() throws {
    let family = try CloudFamily()
    defer { family.remove() }
    let (one, two, _, before) = try Self.compactedFamily(family)
    try one.add(5, "Eli")  // after the snapshot
    try one.sync()
    let left = Self.phoneOneRecords(family)
    #expect(left == Self.recordNames(try family.files(1), of: Self.phoneOne), "exactly the files phone one holds")
    #expect(left.contains { $0.contains("_snapshot-") }, "its snapshot")
    #expect(left.count < before.count + 2, "the compacted files' records are gone")
    #expect(family.cloud.recordNames(of: "family").filter { $0.hasPrefix(testDevice(0xc2).text) }.isEmpty == false, "phone two's untouched")

    try two.sync()
    let kept = Self.recordNames(try family.files(2), of: Self.phoneOne)
    #expect(Set(before).isSubset(of: Set(kept)), "phone two keeps its copies of the deleted records' files")
    #expect(try two.names() == one.names())

    let fetchedBefore = family.cloud.fetched.records
    let three = try family.joined(3)
    #expect(try three.names() == one.names())
    #expect(try three.names() == ["Ava", "Eli", "Leo", "Mia", "Noah", "Zoe"])
    #expect(Self.recordNames(try family.files(3), of: Self.phoneOne) == left, "the joining phone fetched only what is left")
    #expect(family.cloud.fetched.records - fetchedBefore == family.cloud.recordNames(of: "family").count)
  }

  @Test func aPushDeletesNothingAndAFailedSendDeletesNothing() throws {
    let family = try CloudFamily()
    defer { family.remove() }
    let (one, _, _, before) = try Self.compactedFamily(family)
    try one.sync(.push)
    #expect(family.cloud.deleteRequestSizes.isEmpty, "a push sends nothing, deletes nothing")
    #expect(Self.phoneOneRecords(family) == before)

    family.cloud.failNext(.save, with: CloudError(.networkFailure))
    try one.sync(.save)
    #expect(family.cloud.deleteRequestSizes.isEmpty, "the snapshot is not up: nothing deleted")
    #expect(Self.phoneOneRecords(family) == before)

    try one.sync(.save)
    #expect(family.cloud.deleteRequestSizes.count == 1)
    #expect(Self.phoneOneRecords(family) == Self.recordNames(try family.files(1), of: Self.phoneOne))
  }

  @Test func aDeleteAnsweredServerRecordChangedLeavesTheRecordAndEndsNothing() throws {
    let family = try CloudFamily()
    defer { family.remove() }
    let (one, _, _, before) = try Self.compactedFamily(family)
    let gone = Set(before).subtracting(Self.recordNames(try family.files(1), of: Self.phoneOne)).sorted()
    let left = try #require(gone.first)
    family.cloud.failNext(.delete, with: CloudError(.partialFailure, perRecord: [left: CloudError(.serverRecordChanged)]))
    try one.sync()
    #expect(try one.syncStatus()?.carrierNote == nil, "settled, not a reason to stop")
    #expect(Self.phoneOneRecords(family) == (Self.recordNames(try family.files(1), of: Self.phoneOne) + [left]).sorted(), "that one left there, the others deleted")
    let asked = family.cloud.deleteRequestSizes
    try one.sync()
    #expect(family.cloud.deleteRequestSizes == asked, "not deleted again")
    #expect(try family.joined(3).names() == one.names())
  }

  @Test func manyDeletionsGoInRequestsOfAtMost400() throws {
    let family = try CloudFamily()
    defer { family.remove() }
    let one = try family.open(1)
    for number in 1...420 { try one.add(number, "Baby \(number)") }
    try syncInTurn(one, one)
    let compaction = try #require(try one.compactChanges())
    try one.sync()
    #expect(compaction.changeFilesDeleted >= 401)
    #expect(family.cloud.deleteRequestSizes.first == 400)
    #expect(family.cloud.deleteRequestSizes.allSatisfy { $0 <= 400 })
    #expect(Self.phoneOneRecords(family) == Self.recordNames(try family.files(1), of: Self.phoneOne))
    #expect(try family.joined(2).names().count == 420)
  }

  @Test func aDeletedRecordIsReportedToAFetchSinceAnOlderTokenAndAbsentFromOneFromNoToken() throws {
    let cloud = SimulatedCloudKit()
    let (writer, reader) = (cloud.device(signedInAs: "family"), cloud.device(signedInAs: "family"))
    try writer.createZone()
    try writer.save([CloudRecord(name: "a", bytes: Data("1".utf8)), CloudRecord(name: "b", bytes: Data("2".utf8))], in: .own)
    let first = try reader.fetchChanges(in: .own, since: nil)
    #expect(first.records.map(\.name) == ["a", "b"])

    try writer.delete(["a"], in: .own)
    let since = try reader.fetchChanges(in: .own, since: first.state)
    #expect(since.state != first.state, "the zone's change token moved")
    #expect(since.deletedNames == ["a"])
    #expect(since.records.isEmpty)
    let fresh = try reader.fetchChanges(in: .own, since: nil)
    #expect(fresh.records.map(\.name) == ["b"])
    #expect(fresh.deletedNames.isEmpty)
    #expect(throws: CloudError.self) { try writer.delete(["a"], in: .own) }  // unknownItem: gone already
    #expect(cloud.recordNames(of: "family") == ["b"])
  }
}
