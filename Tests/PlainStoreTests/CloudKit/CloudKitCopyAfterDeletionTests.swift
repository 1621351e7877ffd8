import Foundation
import PlainStoreTesting
import Testing

@testable import PlainStore

/// A copy of a store (a restored backup, a cloned phone: the same device id) that writes under a
/// name whose record the original has deleted after a change compaction. The name is free on the
/// server, so the copy's file goes up with no conflict, and the original skips it as its own
/// deleted record: nothing on the server tells the two apart. The copy notices the original by
/// its snapshot, which the copy never wrote, takes a new id and writes again what it wrote, so
/// every phone — the original, the other parent's, one joining later — ends with both copies'
/// changes.
@Suite struct CloudKitCopyAfterDeletionTests {
  @Test func aCopyWritingUnderANameTheOriginalDeletedIsMergedByEveryPhone() throws {
    let family = try CloudFamily()
    defer { family.remove() }
    let (one, two) = try family.pair()
    try one.add(1, "Mia")
    try one.add(2, "Leo")
    try two.add(10, "Noah")
    try syncInTurn(one, two, one)
    // The backup, restored later as phone three under phone one's id.
    try FileManager.default.copyItem(at: family.store(1), to: family.store(3))
    try one.add(3, "Ava")
    try syncInTurn(one, two)
    _ = try two.compactChanges()  // phone two's snapshot acknowledges phone one's changes
    try syncInTurn(two, one)
    let compaction = try #require(try one.compactChanges())
    try #require(compaction.changeFilesDeleted > 0)
    let before = Set(family.cloud.recordNames(of: "family"))
    try one.sync()  // deletes the records of the files it compacted away
    let deleted = before.subtracting(family.cloud.recordNames(of: "family"))
    let three = try family.open(3, id: 1)
    let held = Set(try family.files(3).keys)
    try three.add(4, "Zoe")  // its next change: under a name whose record phone one deleted
    let written = Set(try family.files(3).keys).subtracting(held).filter { $0.hasPrefix(testDevice(0xc1).text + "/") && !$0.contains("/name-") }
    #expect(written.count == 1 && deleted.contains(written.first!.replacingOccurrences(of: "/", with: "_")), "the copy writes under a name the original deleted: \(written), \(deleted.sorted())")
    try syncInTurn(three, one, two, three, one, two)
    let everyone = ["Ava", "Leo", "Mia", "Noah", "Zoe"]
    #expect(try one.names() == everyone)
    #expect(try two.names() == everyone)
    #expect(try three.names() == everyone)
    #expect(try family.joined(4).names() == everyone)
  }
}
