import Foundation
import Testing

@testable import PlainStore

/// ``StoreContainer/truthDigest(ofStoreAt:options:)``: read without opening the store, the same
/// while the store's truth is, another once a change file arrives, a commit is made or a
/// compaction removes files.
@Suite struct TruthDigestTests {
  let family: ArrivalOnlyMergeTests.Family
  init() throws { family = try ArrivalOnlyMergeTests.Family() }

  func options(_ name: String, device: Int) -> StoreOptions {
    StoreOptions(author: name, clock: Sample.fixedClock, watchesOtherProcesses: false, syncFolder: family.syncFolder, deviceID: String(format: "%032x", device))
  }

  func digest(_ name: String) -> String {
    StoreContainer.truthDigest(ofStoreAt: family.scratch.url.appendingPathComponent("\(name).store"), options: options(name, device: 0))
  }

  @Test func theDigestChangesWithTheTruthAndOnlyThen() throws {
    defer { family.scratch.remove() }
    let phone = try family.open("phone", device: 1)
    let opened = digest("phone")
    #expect(digest("phone") == opened, "read twice, nothing changed: the same")
    let folder = family.scratch.url.appendingPathComponent("phone.store")
    let files = try FileManager.default.subpathsOfDirectory(atPath: folder.path).sorted()
    _ = digest("phone")
    #expect(try FileManager.default.subpathsOfDirectory(atPath: folder.path).sorted() == files, "reading it writes nothing")

    let context = phone.newBackgroundContext()
    context.insert(Owner(id: Sample.id(1), name: "Mia"))
    try context.save()
    let committed = digest("phone")
    #expect(committed != opened, "a commit")

    let other = try family.open("other", device: 2)
    let otherContext = other.newBackgroundContext()
    otherContext.insert(Owner(id: Sample.id(2), name: "Noah"))
    try otherContext.save()
    #expect(digest("phone") != committed, "another device's file arrived in the shared folder")
    let arrived = digest("phone")
    try phone.sync()
    #expect(digest("phone") == arrived, "merging what arrived writes no change file")

    _ = try phone.compactChanges()
    #expect(digest("phone") != arrived, "a change compaction's snapshot")
  }
}
