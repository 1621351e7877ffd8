import Foundation
import Testing

@testable import PlainStore

/// A store copied to a second machine (or restored from a backup) starts out with the same
/// device id as the original. When both write, the sync engine brings the other's change under
/// the same name as a conflict copy: each copy must keep both changes and stop writing under
/// the shared id.
@Suite struct CopiedStoreTests {
  static let options = StoreOptions(author: "test", clock: Sample.fixedClock, watchesOtherProcesses: false)

  /// A store that saved Mia, copied beside itself (`copy.store`) as a restored backup or a cloned
  /// phone would be: both copies hold one device id, `shared`. The container is the original's,
  /// still open.
  static func storeAndItsCopy(in scratch: ScratchFolder) throws -> (original: URL, copy: URL, shared: String, container: StoreContainer) {
    let original = scratch.url.appendingPathComponent("original.store")
    let copy = scratch.url.appendingPathComponent("copy.store")
    let container = try StoreContainer.file(at: original, schema: TestSchema.v1, options: Self.options)
    let context = container.newBackgroundContext()
    context.insert(Owner(id: Sample.id(1), name: "Mia"))
    try context.save()
    try FileManager.default.copyItem(at: original, to: copy)
    return (original, copy, try deviceID(of: original), container)
  }

  /// A store and its copy (``storeAndItsCopy(in:)``), each saving one owner (Noah, then Ava)
  /// and compacting before either has seen the other's files. Both containers stay open.
  static func copiesThatBothCompacted(
    in scratch: ScratchFolder
  ) throws -> (original: URL, copy: URL, shared: String, container: StoreContainer, copyContainer: StoreContainer) {
    let (original, copy, shared, container) = try storeAndItsCopy(in: scratch)
    let copyContainer = try StoreContainer.file(at: copy, schema: TestSchema.v1, options: Self.options)
    for (opened, owner) in [(container, Owner(id: Sample.id(2), name: "Noah")), (copyContainer, Owner(id: Sample.id(3), name: "Ava"))] {
      let context = opened.newBackgroundContext()
      context.insert(owner)
      try context.save()
      _ = try #require(try opened.compactChanges())
    }
    return (original, copy, shared, container, copyContainer)
  }

  /// Saves each owner, one save each, in the store at `store`, opened for it (and closed).
  static func save(_ owners: [Owner], at store: URL) throws {
    let context = try StoreContainer.file(at: store, schema: TestSchema.v1, options: Self.options).newBackgroundContext()
    for owner in owners {
      context.insert(owner)
      try context.save()
    }
  }

  /// The owners' names in the store `container` shows, sorted.
  static func names(_ container: StoreContainer) throws -> [String] {
    try container.newBackgroundContext().fetch(FetchDescriptor<Owner>(sortBy: [SortDescriptor(\.name)])).map(\.name)
  }

  /// The owners' names in a rebuild of the store at `store`: its `store.json` and `changes/`
  /// copied into `name`, without `local/`.
  static func rebuilt(_ store: URL, in scratch: ScratchFolder, as name: String) throws -> [String] {
    let rebuilt = scratch.url.appendingPathComponent(name)
    try FileManager.default.createDirectory(at: rebuilt, withIntermediateDirectories: true)
    for item in ["store.json", "changes"] {
      try FileManager.default.copyItem(at: store.appendingPathComponent(item), to: rebuilt.appendingPathComponent(item))
    }
    return try names(StoreContainer.file(at: rebuilt, schema: TestSchema.v1, options: Self.options))
  }

  /// The id the store at `store` writes its changes under.
  static func deviceID(of store: URL) throws -> String {
    try String(contentsOf: store.appendingPathComponent("device-id"), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
  }

  @Test func twoCopiesThatWroteTheSameSequenceKeepBothChangesAndEachTakesANewID() throws {
    let scratch = try ScratchFolder()
    defer { scratch.remove() }
    let (original, copy, shared, _) = try Self.storeAndItsCopy(in: scratch)
    for (store, name) in [(original, "Noah"), (copy, "Ava")] { try Self.save([Owner(id: UUID(), name: name)], at: store) }
    // Each side receives the other's change 2 as a conflict copy beside its own.
    let second = "changes/\(shared)/000000000002.json"
    let fromOriginal = try Data(contentsOf: original.appendingPathComponent(second))
    let fromCopy = try Data(contentsOf: copy.appendingPathComponent(second))
    #expect(fromOriginal != fromCopy)
    try fromCopy.write(to: original.appendingPathComponent("changes/\(shared)/000000000002.sync-conflict-20261123-101010-ABCDEFG.json"))
    try fromOriginal.write(to: copy.appendingPathComponent("changes/\(shared)/000000000002 (Dad's conflicted copy 2026-11-23).json"))

    var ids: Set<String> = []
    for store in [original, copy] {
      let container = try StoreContainer.file(at: store, schema: TestSchema.v1, options: Self.options)
      #expect(try Self.names(container) == ["Ava", "Mia", "Noah"], "both changes 2 are kept")
      let id = try Self.deviceID(of: store)
      #expect(id != shared, "a copy that found another writer under its id takes a new one")
      ids.insert(id)
      // The next commit goes under the new id, and a second open merges nothing more.
      let context = container.newBackgroundContext()
      context.insert(Owner(id: UUID(), name: "after \(id.prefix(4))"))
      try context.save()
      #expect(FileManager.default.fileExists(atPath: store.appendingPathComponent("changes/\(id)/000000000001.json").path))
      let reopened = try StoreContainer.file(at: store, schema: TestSchema.v1, options: Self.options)
      #expect(reopened.statistics.changeFilesMerged == 0)
    }
    #expect(ids.count == 2)
  }

  /// Syncthing and Dropbox keep the newer of two files written under one name and rename the
  /// other, this copy's own change among them, beside it.
  static let ownConflictCopies = [
    "000000000002.sync-conflict-20261123-101010-ABCDEFG.json", "000000000002 (Dad's conflicted copy 2026-11-23).json",
  ]

  @Test(arguments: ownConflictCopies)
  func aCopyWhoseOwnChangeTheEngineRenamedToAConflictCopyStillOpensAndLosesNothing(conflictCopy: String) throws {
    let scratch = try ScratchFolder()
    defer { scratch.remove() }
    let (original, copy, shared, container) = try Self.storeAndItsCopy(in: scratch)
    let context = container.newBackgroundContext()
    context.insert(Owner(id: Sample.id(2), name: "Noah"))
    try context.save()
    try Self.save([Owner(id: Sample.id(3), name: "Ava")], at: copy)
    // The engine met the two changes 2: the copy's took the name here, this copy's own went
    // beside it as a conflict copy.
    let folder = original.appendingPathComponent("changes/\(shared)")
    try FileManager.default.moveItem(at: folder.appendingPathComponent("000000000002.json"), to: folder.appendingPathComponent(conflictCopy))
    try FileManager.default.copyItem(
      at: copy.appendingPathComponent("changes/\(shared)/000000000002.json"), to: folder.appendingPathComponent("000000000002.json"))

    // Another process of this device (the widget, `babydash`) reads this copy's change 2 back
    // from the conflict copy; it failed before with "holds no value for Owner …, which
    // local/log/… puts".
    let other = try StoreContainer.file(at: original, schema: TestSchema.v1, options: Self.options)
    #expect(try Self.names(other).contains("Noah"), "the commit this copy acknowledged is there")
    _ = try other.sync()
    #expect(try Self.names(other) == ["Ava", "Mia", "Noah"], "both changes 2 are kept")
    _ = try container.sync()
    #expect(try Self.names(container) == ["Ava", "Mia", "Noah"])
    let id = try Self.deviceID(of: original)
    #expect(id != shared, "a copy that found another writer under its id takes a new one")
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

  /// Every commit of a copy is folded as it is written; a file under its id that arrives
  /// unfolded is another copy's, whatever its sequence — here above this copy's newest, where a
  /// check for "below the newest" saw nothing, and both copies went on to write change 4.
  @Test func aCopyThatReceivesTheOtherCopysLaterChangesTakesANewID() throws {
    let scratch = try ScratchFolder()
    defer { scratch.remove() }
    let (original, copy, shared, container) = try Self.storeAndItsCopy(in: scratch)
    let context = container.newBackgroundContext()
    try Self.save([Owner(id: Sample.id(2), name: "Ava"), Owner(id: Sample.id(3), name: "Leo")], at: copy)
    for sequence in ["000000000002.json", "000000000003.json"] {
      try FileManager.default.copyItem(
        at: copy.appendingPathComponent("changes/\(shared)/\(sequence)"), to: original.appendingPathComponent("changes/\(shared)/\(sequence)"))
    }

    _ = try container.sync()
    let names = try context.fetch(FetchDescriptor<Owner>(sortBy: [SortDescriptor(\.name)])).map(\.name)
    #expect(names == ["Ava", "Leo", "Mia"], "the other copy's changes are merged")
    let id = try Self.deviceID(of: original)
    #expect(id != shared, "a copy that found another writer under its id takes a new one")
    context.insert(Owner(id: Sample.id(4), name: "Noah"))
    try context.save()
    #expect(FileManager.default.fileExists(atPath: original.appendingPathComponent("changes/\(id)/000000000001.json").path))
    #expect(!FileManager.default.fileExists(atPath: original.appendingPathComponent("changes/\(shared)/000000000004.json").path))
  }

  /// A snapshot stands for every change it covers. When another copy wrote a different change
  /// under a covered name after this copy compacted its own away, a merge (which skips covered
  /// names) and a rebuild (which reads a device's newest file for its clock) both leave it out
  /// here: before, the rebuild folded it and the cache did not. The copy that wrote it, once the
  /// snapshot reaches it, takes a new id and re-publishes under it what the snapshot covers
  /// (its own change with the rest), and every store then holds it: before, it was lost on every
  /// device, the writer's own included.
  @Test func aChangeAnotherCopyWroteUnderANumberASnapshotCoversIsRepublishedByItsWriter() throws {
    let scratch = try ScratchFolder()
    defer { scratch.remove() }
    let (original, copy, shared, container) = try Self.storeAndItsCopy(in: scratch)
    let context = container.newBackgroundContext()
    context.insert(Owner(id: Sample.id(2), name: "Noah"))
    try context.save()
    let compaction = try #require(try container.compactChanges())
    #expect(compaction.changeFilesDeleted == 2, "the snapshot covers changes 1 and 2, and they go")
    try Self.save([Owner(id: Sample.id(3), name: "Ava")], at: copy)
    let second = "changes/\(shared)/000000000002.json"
    try FileManager.default.copyItem(at: copy.appendingPathComponent(second), to: original.appendingPathComponent(second))

    _ = try container.sync()
    #expect(try Self.names(container) == ["Mia", "Noah"])
    #expect(try container.syncStatus()?.devices.map(\.readyToMerge) == [0], "the status agrees that nothing waits")
    #expect(try Self.rebuilt(original, in: scratch, as: "rebuilt.store") == ["Mia", "Noah"], "a rebuild agrees")

    // The original's snapshot reaches the copy, which did not make it: another copy writes
    // under its id, and the snapshot leaves out the copy's change 2.
    let snapshot = try #require(
      try FileManager.default.contentsOfDirectory(atPath: original.appendingPathComponent("changes/\(shared)").path).first { $0.hasPrefix("snapshot") })
    try FileManager.default.copyItem(
      at: original.appendingPathComponent("changes/\(shared)/\(snapshot)"), to: copy.appendingPathComponent("changes/\(shared)/\(snapshot)"))
    let copyContainer = try StoreContainer.file(at: copy, schema: TestSchema.v1, options: Self.options)
    _ = try copyContainer.sync()
    let id = try Self.deviceID(of: copy)
    #expect(id != shared, "the copy that found another writer under its id takes a new one")
    let republished = try FileManager.default.contentsOfDirectory(atPath: copy.appendingPathComponent("changes/\(id)").path).sorted()
    #expect(republished.filter { $0.hasSuffix(".json") && $0.first?.isNumber == true } == ["000000000001.json", "000000000002.json"],
      "its changes 1 and 2 are re-published under its new id")
    #expect(try Self.names(copyContainer) == ["Ava", "Mia", "Noah"], "the copy keeps Ava and takes Noah")
    #expect(try Self.rebuilt(copy, in: scratch, as: "rebuilt-copy.store") == ["Ava", "Mia", "Noah"], "a rebuild of the copy agrees")

    // The new id's files reach the original.
    try FileManager.default.copyItem(at: copy.appendingPathComponent("changes/\(id)"), to: original.appendingPathComponent("changes/\(id)"))
    _ = try container.sync()
    #expect(try Self.names(container) == ["Ava", "Mia", "Noah"], "Ava reaches the original")
    #expect(try Self.deviceID(of: original) == shared, "the original saw no other writer: it keeps its id")
    #expect(try Self.rebuilt(original, in: scratch, as: "rebuilt-again.store") == ["Ava", "Mia", "Noah"], "a rebuild of the original agrees")
  }

  /// The copy notices the original first (the original's change 2 arrives as a conflict copy
  /// beside its own), before any snapshot covers change 2; the original, which has not seen the
  /// copy's change 2, compacts later, and its snapshot stands for change 2 — its own. The copy's
  /// change 2 is folded by no one unless the copy re-published it when it took its new id:
  /// it re-publishes every change of the shared id it holds, not only those a snapshot covered
  /// then (none: before, Ava was lost on every device but the copy's cache).
  @Test func aChangeOfTheSharedIDASnapshotCoversLaterSurvivesThroughItsWritersNewID() throws {
    let scratch = try ScratchFolder()
    defer { scratch.remove() }
    let (original, copy, shared, container) = try Self.storeAndItsCopy(in: scratch)
    let context = container.newBackgroundContext()
    context.insert(Owner(id: Sample.id(2), name: "Noah"))
    try context.save()
    try Self.save([Owner(id: Sample.id(3), name: "Ava")], at: copy)
    let second = "changes/\(shared)/000000000002.json"
    try FileManager.default.copyItem(
      at: original.appendingPathComponent(second), to: copy.appendingPathComponent("changes/\(shared)/000000000002 2.json"))
    let copyContainer = try StoreContainer.file(at: copy, schema: TestSchema.v1, options: Self.options)
    _ = try copyContainer.sync()
    let id = try Self.deviceID(of: copy)
    #expect(id != shared, "the copy found another writer under its id")

    // The original compacts, having seen none of the copy's files: its snapshot covers 1 and 2.
    _ = try #require(try container.compactChanges())
    // Every file meets every other: the copy's change 2 beside the original's, its new id's.
    let files = FileManager.default
    try files.copyItem(at: copy.appendingPathComponent(second), to: original.appendingPathComponent("changes/\(shared)/000000000002 2.json"))
    try files.copyItem(at: copy.appendingPathComponent("changes/\(id)"), to: original.appendingPathComponent("changes/\(id)"))
    for name in try files.contentsOfDirectory(atPath: original.appendingPathComponent("changes/\(shared)").path) where name.hasPrefix("snapshot") {
      try files.copyItem(
        at: original.appendingPathComponent("changes/\(shared)/\(name)"), to: copy.appendingPathComponent("changes/\(shared)/\(name)"))
    }
    _ = try container.sync()
    _ = try copyContainer.sync()
    #expect(try Self.names(container) == ["Ava", "Mia", "Noah"], "Ava reaches the original")
    #expect(try Self.names(copyContainer) == ["Ava", "Mia", "Noah"])
    #expect(try Self.rebuilt(original, in: scratch, as: "rebuilt.store") == ["Ava", "Mia", "Noah"], "a rebuild agrees")
    #expect(try Self.rebuilt(copy, in: scratch, as: "rebuilt-copy.store") == ["Ava", "Mia", "Noah"], "a rebuild of the copy agrees")
  }

  /// A copy whose local log still names changes that the original then compacted into a
  /// snapshot, the engine bringing the snapshot and the changes' removal: the copy's cache can
  /// no longer be read back from its files, and it opens rebuilt from them, with all data.
  @Test func aCopyWhoseLogNamesChangesTheOriginalCompactedAwayOpensRebuilt() throws {
    let scratch = try ScratchFolder()
    defer { scratch.remove() }
    let (original, copy, shared, container) = try Self.storeAndItsCopy(in: scratch)
    let context = container.newBackgroundContext()
    context.insert(Owner(id: Sample.id(2), name: "Noah"))
    try context.save()
    try FileManager.default.removeItem(at: copy)
    try FileManager.default.copyItem(at: original, to: copy)
    // The copy's journal settled, as it is once its change files are on disk: it holds none of them.
    try Data().write(to: copy.appendingPathComponent("local/journal"))
    _ = try #require(try container.compactChanges())
    // The engine carries the original's folder over: the snapshot comes, the changes go.
    let folder = "changes/\(shared)"
    try FileManager.default.removeItem(at: copy.appendingPathComponent(folder))
    try FileManager.default.copyItem(at: original.appendingPathComponent(folder), to: copy.appendingPathComponent(folder))
    #expect(!FileManager.default.fileExists(atPath: copy.appendingPathComponent("\(folder)/000000000001.json").path))

    let reopened = try StoreContainer.file(at: copy, schema: TestSchema.v1, options: Self.options)
    #expect(try Self.names(reopened) == ["Mia", "Noah"])
    #expect(try Self.rebuilt(copy, in: scratch, as: "rebuilt.store") == ["Mia", "Noah"])
  }

  /// Both copies compact before either has seen the other's snapshot: each writes snapshot 1
  /// under the shared id, over changes the other's does not hold, and deletes its change files.
  /// The engine keeps one snapshot under the name and the other beside it as a conflict copy,
  /// on every device alike. Both snapshots count, and each copy's own change survives on both.
  @Test func twoCopiesThatBothCompactedKeepBothSnapshots() throws {
    let scratch = try ScratchFolder()
    defer { scratch.remove() }
    let (original, copy, shared, container, copyContainer) = try Self.copiesThatBothCompacted(in: scratch)
    let snapshot = "changes/\(shared)/snapshot-000000000001.json"
    let conflictCopy = "changes/\(shared)/snapshot-000000000001.sync-conflict-20261123-101010-ABCDEFG.json"
    // The original's snapshot won the name; the copy's own went beside it, on both sides.
    try FileManager.default.copyItem(at: copy.appendingPathComponent(snapshot), to: original.appendingPathComponent(conflictCopy))
    try FileManager.default.moveItem(at: copy.appendingPathComponent(snapshot), to: copy.appendingPathComponent(conflictCopy))
    try FileManager.default.copyItem(at: original.appendingPathComponent(snapshot), to: copy.appendingPathComponent(snapshot))

    for (store, opened, label) in [(original, container, "original"), (copy, copyContainer, "copy")] {
      _ = try opened.sync()
      #expect(try Self.names(opened) == ["Ava", "Mia", "Noah"], "the \(label) holds both copies' changes")
      #expect(try Self.rebuilt(store, in: scratch, as: "rebuilt-\(label).store") == ["Ava", "Mia", "Noah"], "a rebuild of the \(label) agrees")
      #expect(try Self.deviceID(of: store) != shared, "the \(label) found another writer under its id and takes a new one")
      let folds = opened.statistics.fullFolds
      _ = try opened.sync()
      #expect(opened.statistics.fullFolds == folds, "both versions are recorded as folded: the next merge folds nothing again")
    }
  }

  /// The copy compacts its change with Ava away into its snapshot 1; the original, having
  /// compacted once before, compacts again into snapshot 2. A device's newest snapshot stands for
  /// its older ones, so every reader leaves out the copy's snapshot 1 once the original's 2 is
  /// there — a rebuild as the cache. The copy, finding snapshot 2 under its id, takes a new id
  /// and re-publishes its snapshots joined into one under it: Ava reaches every store.
  @Test func aCopysSnapshotTheOtherCompactedPastIsRepublishedJoinedUnderItsNewID() throws {
    let scratch = try ScratchFolder()
    defer { scratch.remove() }
    let (original, copy, shared, container, copyContainer) = try Self.copiesThatBothCompacted(in: scratch)
    let context = container.newBackgroundContext()
    context.insert(Owner(id: Sample.id(4), name: "Leo"))
    try context.save()
    _ = try #require(try container.compactChanges())
    let folder = "changes/\(shared)/"
    #expect(!FileManager.default.fileExists(atPath: original.appendingPathComponent(folder + "snapshot-000000000001.json").path))
    // Each side's snapshot reaches the other, where its name is free.
    try FileManager.default.copyItem(
      at: copy.appendingPathComponent(folder + "snapshot-000000000001.json"), to: original.appendingPathComponent(folder + "snapshot-000000000001.json"))
    try FileManager.default.copyItem(
      at: original.appendingPathComponent(folder + "snapshot-000000000002.json"), to: copy.appendingPathComponent(folder + "snapshot-000000000002.json"))

    _ = try container.sync()
    #expect(try Self.names(container) == ["Leo", "Mia", "Noah"], "the copy's older snapshot 1 is left out")
    #expect(try Self.rebuilt(original, in: scratch, as: "rebuilt.store") == ["Leo", "Mia", "Noah"], "by a rebuild too")
    _ = try copyContainer.sync()
    let id = try Self.deviceID(of: copy)
    #expect(id != shared, "the copy found another writer under its id")
    #expect(try Self.names(copyContainer) == ["Ava", "Leo", "Mia", "Noah"])
    #expect(try Self.rebuilt(copy, in: scratch, as: "rebuilt-copy.store") == ["Ava", "Leo", "Mia", "Noah"])
    try FileManager.default.copyItem(at: copy.appendingPathComponent("changes/\(id)"), to: original.appendingPathComponent("changes/\(id)"))
    _ = try container.sync()
    #expect(try Self.names(container) == ["Ava", "Leo", "Mia", "Noah"], "Ava reaches the original")
    #expect(try Self.rebuilt(original, in: scratch, as: "rebuilt-again.store") == ["Ava", "Leo", "Mia", "Noah"])
  }

  /// Once both copies took new ids, the conflict copy under the old id stays in the folder for
  /// good (no device writes under that id any more). Its second change is folded and recorded:
  /// a later arrival is merged on its own, where before every arrival after a copy folded every
  /// file again.
  @Test func afterTwoCopiesMetALaterArrivalIsMergedAlone() throws {
    let scratch = try ScratchFolder()
    defer { scratch.remove() }
    let (original, copy, shared, container) = try Self.storeAndItsCopy(in: scratch)
    let context = container.newBackgroundContext()
    context.insert(Owner(id: Sample.id(2), name: "Noah"))
    try context.save()
    try Self.save([Owner(id: Sample.id(3), name: "Ava")], at: copy)
    let second = "changes/\(shared)/000000000002.json"
    try FileManager.default.copyItem(
      at: copy.appendingPathComponent(second),
      to: original.appendingPathComponent("changes/\(shared)/000000000002.sync-conflict-20261123-101010-ABCDEFG.json"))
    _ = try container.sync()
    let id = try Self.deviceID(of: original)
    #expect(id != shared)

    // Another device's change arrives.
    let other = scratch.url.appendingPathComponent("other.store")
    try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
    try FileManager.default.copyItem(at: original.appendingPathComponent("changes"), to: other.appendingPathComponent("changes"))
    try FileManager.default.copyItem(at: original.appendingPathComponent("store.json"), to: other.appendingPathComponent("store.json"))
    try Self.save([Owner(id: Sample.id(4), name: "Leo")], at: other)
    let otherID = try Self.deviceID(of: other)
    try FileManager.default.copyItem(
      at: other.appendingPathComponent("changes/\(otherID)"), to: original.appendingPathComponent("changes/\(otherID)"))
    let before = container.statistics
    _ = try container.sync()
    let names = try context.fetch(FetchDescriptor<Owner>(sortBy: [SortDescriptor(\.name)])).map(\.name)
    #expect(names == ["Ava", "Leo", "Mia", "Noah"])
    #expect(container.statistics.arrivalOnlyMerges == before.arrivalOnlyMerges + 1, "merged on its own")
    #expect(container.statistics.fullFolds == before.fullFolds, "not by folding every file again")
  }

  /// An engine that met a snapshot twice keeps a conflict copy of the same bytes beside it
  /// (iCloud Drive's `NAME 2.json`): one snapshot, nothing new, and no sign of another copy.
  @Test(arguments: ["snapshot-000000000001 2.json", "snapshot-000000000001.sync-conflict-20261123-101010-ABCDEFG.json"])
  func aSnapshotsConflictCopyOfTheSameBytesIsNothingNew(conflictCopy: String) throws {
    let scratch = try ScratchFolder()
    defer { scratch.remove() }
    let (original, _, shared, container) = try Self.storeAndItsCopy(in: scratch)
    _ = try #require(try container.compactChanges())
    let folder = original.appendingPathComponent("changes/\(shared)")
    try FileManager.default.copyItem(at: folder.appendingPathComponent("snapshot-000000000001.json"), to: folder.appendingPathComponent(conflictCopy))
    let before = container.statistics
    #expect(try container.sync() == nil, "nothing merged")
    #expect(container.statistics.fullFolds == before.fullFolds)
    #expect(try Self.deviceID(of: original) == shared, "no other copy writes under this id")
    let reopened = try StoreContainer.file(at: original, schema: TestSchema.v1, options: Self.options)
    #expect(try reopened.newBackgroundContext().fetch(FetchDescriptor<Owner>()).map(\.name) == ["Mia"])
  }
}
