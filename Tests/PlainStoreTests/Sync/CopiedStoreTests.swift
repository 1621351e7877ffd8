import Foundation
import Testing

@testable import PlainStore

/// A store copied to a second machine (or restored from a backup) starts out with the same
/// device id as the original. When both write, the sync engine brings the other's change under
/// the same name as a conflict copy: each copy must keep both changes and stop writing under
/// the shared id.
@Suite struct CopiedStoreTests {
  @Test func twoCopiesThatWroteTheSameSequenceKeepBothChangesAndEachTakesANewID() throws {
    let scratch = try ScratchFolder()
    defer { scratch.remove() }
    let original = scratch.url.appendingPathComponent("original.store")
    let copy = scratch.url.appendingPathComponent("copy.store")
    let options = StoreOptions(author: "test", clock: Sample.fixedClock, watchesOtherProcesses: false)
    do {
      let container = try StoreContainer.file(at: original, schema: TestSchema.v1, options: options)
      let context = container.newBackgroundContext()
      context.insert(Owner(id: Sample.id(1), name: "Mia"))
      try context.save()
    }
    try FileManager.default.copyItem(at: original, to: copy)
    let shared = try String(contentsOf: original.appendingPathComponent("local/device-id"), encoding: .utf8)
      .trimmingCharacters(in: .whitespacesAndNewlines)
    for (store, name) in [(original, "Noah"), (copy, "Ava")] {
      let container = try StoreContainer.file(at: store, schema: TestSchema.v1, options: options)
      let context = container.newBackgroundContext()
      context.insert(Owner(id: UUID(), name: name))
      try context.save()
    }
    // Each side receives the other's change 2 as a conflict copy beside its own.
    let second = "changes/\(shared)/000000000002.json"
    let fromOriginal = try Data(contentsOf: original.appendingPathComponent(second))
    let fromCopy = try Data(contentsOf: copy.appendingPathComponent(second))
    #expect(fromOriginal != fromCopy)
    try fromCopy.write(to: original.appendingPathComponent("changes/\(shared)/000000000002.sync-conflict-20261123-101010-ABCDEFG.json"))
    try fromOriginal.write(to: copy.appendingPathComponent("changes/\(shared)/000000000002 (Dad's conflicted copy 2026-11-23).json"))

    var ids: Set<String> = []
    for store in [original, copy] {
      let container = try StoreContainer.file(at: store, schema: TestSchema.v1, options: options)
      let names = try container.newBackgroundContext().fetch(FetchDescriptor<Owner>(sortBy: [SortDescriptor(\.name)])).map(\.name)
      #expect(names == ["Ava", "Mia", "Noah"], "both changes 2 are kept")
      let id = try String(contentsOf: store.appendingPathComponent("local/device-id"), encoding: .utf8)
        .trimmingCharacters(in: .whitespacesAndNewlines)
      #expect(id != shared, "a copy that found another writer under its id takes a new one")
      ids.insert(id)
      // The next commit goes under the new id, and a second open merges nothing more.
      let context = container.newBackgroundContext()
      context.insert(Owner(id: UUID(), name: "after \(id.prefix(4))"))
      try context.save()
      #expect(FileManager.default.fileExists(atPath: store.appendingPathComponent("changes/\(id)/000000000001.json").path))
      let reopened = try StoreContainer.file(at: store, schema: TestSchema.v1, options: options)
      #expect(reopened.statistics.changeFilesMerged == 0)
    }
    #expect(ids.count == 2)
  }

  @Test func twoDifferentChangesWithOneStampFoldToTheSameStateInEitherOrder() throws {
    let device = testDevice(7)
    let feed = testID(1)
    let changes = ["first", "second"].map { memo in
      ChangeFile(
        device: device, sequence: 3, hlc: 42 << 16, author: "copy", timestamp: Sample.epoch, schemaVersion: 1,
        objects: [
          ObjectChange(
            entity: "Feed", id: feed, kind: .upsert,
            fields: ["profileID": .null, "startTime": rawString("2026-03-10T06:00:00.000Z"), "memoText": rawString(memo)])
        ])
    }
    var forward = MergedState(schema: SyncTestSchema.merge)
    var backward = MergedState(schema: SyncTestSchema.merge)
    for change in changes { forward.apply(change) }
    for change in changes.reversed() { backward.apply(change) }
    #expect(try forward.canonicalExport() == backward.canonicalExport())
    var viaSnapshot = MergedState(schema: SyncTestSchema.merge)
    viaSnapshot.apply(changes[1])
    var other = MergedState(schema: SyncTestSchema.merge)
    other.apply(changes[0])
    viaSnapshot.apply(other.snapshot(device: device, number: 1, hlc: 43 << 16, schemaVersion: 1))
    #expect(try viaSnapshot.canonicalExport() == forward.canonicalExport())
  }
}
