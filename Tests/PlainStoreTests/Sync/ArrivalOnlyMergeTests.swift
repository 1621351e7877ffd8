import Foundation
import Testing

@testable import PlainStore

/// Which road a merge takes: the arrived files folded onto the objects they touch, or every
/// file folded again. Both give one answer (DifferentialSyncTests holds them to it); these
/// check that each is taken where it costs less.
@Suite struct ArrivalOnlyMergeTests {
  /// Two devices of one family sharing one sync folder, as a sync engine makes it look.
  struct Family {
    let scratch: ScratchFolder
    var syncFolder: URL { scratch.url.appendingPathComponent("sync") }

    init() throws { scratch = try ScratchFolder() }

    func open(_ name: String, device: Int, compactingEvery threshold: Int = 64) throws -> StoreContainer {
      var options = StoreOptions(
        author: name, clock: Sample.fixedClock, watchesOtherProcesses: false, syncFolder: syncFolder,
        deviceID: String(format: "%032x", device))
      options.compactionThreshold = threshold
      return try StoreContainer.file(at: scratch.url.appendingPathComponent("\(name).store"), schema: TestSchema.v1, options: options)
    }
  }

  func insertOwners(_ numbers: ClosedRange<Int>, into container: StoreContainer, eachSaved: Bool) throws {
    let context = container.newBackgroundContext()
    for number in numbers {
      context.insert(Owner(id: Sample.id(number), name: "Owner \(number)"))
      if eachSaved { try context.save() }
    }
    try context.save()
  }

  /// A writer that saved owners 1 to 5 one at a time, and a reader that joined after them (in
  /// one whole fold): what the writer saves next is the reader's first merge since.
  func openWriterAndJoinedReader(in family: Family) throws -> (writer: StoreContainer, reader: StoreContainer) {
    let writer = try family.open("writer", device: 1)
    try insertOwners(1...5, into: writer, eachSaved: true)
    return (writer, try family.open("reader", device: 2))
  }

  @Test func aPhoneJoiningItsFamilyFoldsEveryFileInOnePass() throws {
    let family = try Family()
    defer { family.scratch.remove() }
    try insertOwners(1...5, into: try family.open("writer", device: 1), eachSaved: true)
    let joined = try family.open("reader", device: 2)
    #expect(joined.statistics.changeFilesMerged == 5)
    #expect(joined.statistics.fullFolds == 1)
    #expect(joined.statistics.arrivalOnlyMerges == 0)
    #expect(try joined.newBackgroundContext().fetchCount(FetchDescriptor<Owner>()) == 5)
  }

  @Test func aChangeThatComesAfterEverythingFoldedIsFoldedAlone() throws {
    let family = try Family()
    defer { family.scratch.remove() }
    let (writer, reader) = try openWriterAndJoinedReader(in: family)
    try insertOwners(6...6, into: writer, eachSaved: false)
    try reader.sync()
    #expect(reader.statistics.arrivalOnlyMerges == 1)
    #expect(reader.statistics.fullFolds == 1, "the join's alone")
    #expect(try reader.newBackgroundContext().fetch(FetchDescriptor<Owner>(sortBy: [SortDescriptor(\.name)])).map(\.name).last == "Owner 6")
  }

  @Test func arrivalsThatRivalTheCacheInSizeTakeTheWholeFold() throws {
    let family = try Family()
    defer { family.scratch.remove() }
    let (writer, reader) = try openWriterAndJoinedReader(in: family)
    try insertOwners(6...1_006, into: writer, eachSaved: false)  // one save of 1,001 objects
    try reader.sync()
    #expect(reader.statistics.arrivalOnlyMerges == 0)
    #expect(reader.statistics.fullFolds == 2)
    #expect(try reader.newBackgroundContext().fetchCount(FetchDescriptor<Owner>()) == 1_006)
  }

  /// A device's own snapshot is the fold of what its cache holds: it is recorded as folded when
  /// written, and the next merge does not fold every file to learn it (before, each compaction —
  /// every 64 commits by default — cost the device a whole fold of its history).
  @Test func aDevicesOwnSnapshotCostsItsNextMergeNothing() throws {
    let family = try Family()
    defer { family.scratch.remove() }
    let (writer, reader) = try openWriterAndJoinedReader(in: family)
    let compaction = try #require(try writer.compactChanges())
    #expect(compaction.snapshotWritten != nil)
    try writer.sync()
    try insertOwners(6...6, into: writer, eachSaved: false)
    try writer.sync()
    #expect(writer.statistics.fullFolds == 0)
    let other = try family.open("writer", device: 1)  // another process of the device: it reads the log
    try other.sync()
    #expect(other.statistics.fullFolds == 0)
    try reader.sync()  // another device folds the snapshot as it did
    #expect(try reader.newBackgroundContext().fetchCount(FetchDescriptor<Owner>()) == 6)
  }

  /// Devices that each have a sync folder of their own, whose files reach the others only when
  /// the test delivers them: arrivals out of the order they were written in.
  struct Devices {
    let scratch: ScratchFolder

    init() throws { scratch = try ScratchFolder() }

    func syncFolder(_ device: Int) -> URL { scratch.url.appendingPathComponent("sync-\(device)") }

    func open(_ device: Int, schema: Schema = TestSchema.v1, clock: @escaping @Sendable () -> Date = Sample.fixedClock) throws -> StoreContainer {
      let options = StoreOptions(
        author: "device \(device)", clock: clock, watchesOtherProcesses: false, syncFolder: syncFolder(device),
        deviceID: Self.deviceID(device))
      return try StoreContainer.file(at: scratch.url.appendingPathComponent("\(device).store"), schema: schema, options: options)
    }

    /// Device 1's objects as a cache rebuilt from its files shows them.
    func rebuilt<E: Entity>(_ type: E.Type, schema: Schema = TestSchema.v1) throws -> [E] {
      let rebuilt = scratch.url.appendingPathComponent("rebuilt.store")
      try FileManager.default.createDirectory(at: rebuilt, withIntermediateDirectories: true)
      try FileManager.default.copyItem(at: scratch.url.appendingPathComponent("1.store/store.json"), to: rebuilt.appendingPathComponent("store.json"))
      let options = StoreOptions(
        author: "rebuild", clock: Sample.fixedClock, watchesOtherProcesses: false, syncFolder: syncFolder(1), deviceID: Self.deviceID(1))
      return try StoreContainer.file(at: rebuilt, schema: schema, options: options).newBackgroundContext().fetch(FetchDescriptor<E>())
    }

    static func deviceID(_ device: Int) -> String { String(format: "%032x", device) }

    /// Copies every file `from` has written into `to`'s sync folder, as a sync engine would.
    func deliver(from: Int, to: Int) throws {
      let files = FileManager.default
      let source = syncFolder(from).appendingPathComponent(Self.deviceID(from))
      let target = syncFolder(to).appendingPathComponent(Self.deviceID(from))
      try files.createDirectory(at: target, withIntermediateDirectories: true)
      for name in try files.contentsOfDirectory(atPath: source.path) where !files.fileExists(atPath: target.appendingPathComponent(name).path) {
        try files.copyItem(at: source.appendingPathComponent(name), to: target.appendingPathComponent(name))
      }
    }
  }

  func setNote(_ note: String, in container: StoreContainer) throws {
    let context = container.newBackgroundContext()
    var owner = try #require(try context.fetch(FetchDescriptor<Owner>()).first)
    owner.note = note
    context.insert(owner)
    try context.save()
  }

  /// Writes that left an object as it was still count: a change that arrives late, stamped
  /// before them, loses to them in the whole fold — and folded onto the object alone, seeded
  /// with its groups' real stamps (``WriteStamps``), which those writes moved on.
  @Test func aLateChangeOlderThanWritesThatLeftTheObjectAsItWasLosesToThem() throws {
    let devices = try Devices()
    defer { devices.scratch.remove() }
    let (reader, first, second) = (try devices.open(1), try devices.open(2), try devices.open(3))
    let context = first.newBackgroundContext()
    context.insert(Owner(id: Sample.id(1), name: "Ava", note: "asleep"))
    try context.save()
    for device in [1, 3] { try devices.deliver(from: 2, to: device) }
    try reader.sync()
    try second.sync()
    try setNote("late", in: second)  // not delivered yet
    try setNote("awake", in: first)
    try setNote("asleep", in: first)  // back as it was: the reader's merge of both changes nothing
    try devices.deliver(from: 2, to: 1)
    try reader.sync()
    #expect(reader.statistics.arrivalOnlyMerges == 1)
    try devices.deliver(from: 3, to: 1)
    try reader.sync()
    #expect(reader.statistics.arrivalOnlyMerges == 2, "the late change is folded alone too")
    #expect(reader.statistics.fullFolds == 1, "only the first merge, of a phone joining")
    let note = try reader.newBackgroundContext().fetch(FetchDescriptor<Owner>()).first?.note
    #expect(note == "asleep", "the first device's last write is later than the late one")
  }

  /// An object that held another's unique key only in between — renamed onto it and back,
  /// on a device that had not seen it — met it then, and the two are one for good. The end of
  /// the arrivals shows no meeting, so they take the whole fold, which keeps one owner, as a
  /// rebuild does.
  @Test func anObjectThatHeldAnothersKeyOnlyInBetweenTakesTheWholeFold() throws {
    let devices = try Devices()
    defer { devices.scratch.remove() }
    let (reader, first, second) = (try devices.open(1), try devices.open(2), try devices.open(3))
    let ava = first.newBackgroundContext()
    ava.insert(Owner(id: Sample.id(1), name: "Ava"))
    try ava.save()
    let context = second.newBackgroundContext()
    context.insert(Owner(id: Sample.id(2), name: "Mia"))
    try context.save()
    for device in [2, 3] { try devices.deliver(from: device, to: 1) }
    try reader.sync()
    #expect(try reader.newBackgroundContext().fetchCount(FetchDescriptor<Owner>()) == 2)
    for name in ["Ava", "Mia"] {  // the second device has not seen the first's Ava
      var mia = try #require(try context.fetch(FetchDescriptor<Owner>()).first)
      mia.name = name
      context.update(mia)
      try context.save()
    }
    try devices.deliver(from: 3, to: 1)
    try reader.sync()
    #expect(reader.statistics.arrivalOnlyMerges == 0)
    #expect(reader.statistics.fullFolds == 2)
    #expect(try reader.newBackgroundContext().fetchCount(FetchDescriptor<Owner>()) == 1, "Mia met Ava as Ava: one for good")
    let rebuilt = devices.scratch.url.appendingPathComponent("rebuilt.store")
    try FileManager.default.createDirectory(at: rebuilt, withIntermediateDirectories: true)
    try FileManager.default.copyItem(at: devices.scratch.url.appendingPathComponent("1.store/store.json"), to: rebuilt.appendingPathComponent("store.json"))
    let options = StoreOptions(author: "rebuild", clock: Sample.fixedClock, watchesOtherProcesses: false, syncFolder: devices.syncFolder(1))
    let rebuild = try StoreContainer.file(at: rebuilt, schema: TestSchema.v1, options: options)
    #expect(try rebuild.newBackgroundContext().fetchCount(FetchDescriptor<Owner>()) == 1)
  }

  /// The other parent's edit of one field, made before this phone edited another field of the
  /// same object and arriving after it: each field goes to its last writer, so the edit is folded
  /// onto the object alone — as a rebuild folds it. Each commit's field groups are in its log
  /// record, from which every process of the phone keeps ``WriteStamps``.
  @Test func anOlderEditOfAnotherFieldOfAnObjectThisDeviceEditedIsFoldedAlone() throws {
    let (devices, reader) = try editOneEventOnTwoDevices { event in event.amount = 90 }
    defer { devices.scratch.remove() }
    #expect(reader.statistics.arrivalOnlyMerges == 1)
    #expect(reader.statistics.fullFolds == 1, "only the first merge, of a phone joining")
    let event = try #require(try reader.newBackgroundContext().fetch(FetchDescriptor<Event>()).first)
    #expect(event.title == "bottle" && event.amount == 90)
    #expect(try devices.rebuilt(Event.self) == [event])
  }

  /// Its edit of the same field, arriving after this phone's later one (crossing edits): the
  /// cache knows the field's last writer's stamp, so the edit is folded alone, and loses.
  @Test func anOlderEditOfAFieldThisDeviceEditedSinceIsFoldedAloneAndLoses() throws {
    let (devices, reader) = try editOneEventOnTwoDevices { event in event.title = "cup" }
    defer { devices.scratch.remove() }
    #expect(reader.statistics.arrivalOnlyMerges == 1)
    #expect(reader.statistics.fullFolds == 1, "only the first merge, of a phone joining")
    let event = try #require(try reader.newBackgroundContext().fetch(FetchDescriptor<Event>()).first)
    #expect(event.title == "cup" && event.amount == nil)
    #expect(try devices.rebuilt(Event.self) == [event])
  }

  /// Device 2 logs an event, which device 1 merges; device 2 retitles it ("bottle"); device 1,
  /// whose clock is a minute ahead, then makes its own `edit` of the event; only then does
  /// device 2's change reach device 1, which merges it. Returns device 1's container.
  func editOneEventOnTwoDevices(_ edit: (inout Event) -> Void) throws -> (Devices, StoreContainer) {
    let devices = try Devices()
    let reader = try devices.open(1, clock: { Sample.epoch.addingTimeInterval(60) })
    let writer = try devices.open(2)
    let context = writer.newBackgroundContext()
    context.insert(Event(uuid: Sample.id(1), ownerID: nil, at: Sample.epoch, title: "feed", amount: nil))
    try context.save()
    try devices.deliver(from: 2, to: 1)
    try reader.sync()
    var event = try #require(try context.fetch(FetchDescriptor<Event>()).first)
    event.title = "bottle"
    context.update(event)
    try context.save()
    let readerContext = reader.newBackgroundContext()
    var own = try #require(try readerContext.fetch(FetchDescriptor<Event>()).first)
    edit(&own)
    readerContext.update(own)
    try readerContext.save()
    try devices.deliver(from: 2, to: 1)
    try reader.sync()
    return (devices, reader)
  }

  /// This device renames Ava to Zoe after the other device, which had not seen her, added an
  /// Ava of its own: in the fold the two held one name at one moment and are one for good, so
  /// the older arrival may not be folded alone onto a cache that shows only a Zoe — nor after
  /// the phone compacted and opened its store again (the manifest keeps `newestKeyChange`).
  @Test(arguments: [false, true])
  func anOlderArrivalBeforeThisDevicesKeyChangeTakesTheWholeFoldAndMeetsTheOldKey(reopening: Bool) throws {
    let devices = try Devices()
    defer { devices.scratch.remove() }
    var reader = try devices.open(1, clock: { Sample.epoch.addingTimeInterval(60) })
    let (first, second) = (try devices.open(2), try devices.open(3, clock: { Sample.epoch.addingTimeInterval(30) }))
    let context = first.newBackgroundContext()
    context.insert(Owner(id: Sample.id(1), name: "Ava"))
    try context.save()
    try devices.deliver(from: 2, to: 1)
    try reader.sync()
    let other = second.newBackgroundContext()
    other.insert(Owner(id: Sample.id(2), name: "Ava"))
    try other.save()
    let readerContext = reader.newBackgroundContext()
    try readerContext.edit(Owner.self, id: Sample.id(1)) { $0.name = "Zoe" }
    try readerContext.save()
    if reopening {
      try reader.compact()
      reader = try devices.open(1, clock: { Sample.epoch.addingTimeInterval(60) })
    }
    try devices.deliver(from: 3, to: 1)
    try reader.sync()
    #expect(reader.statistics.arrivalOnlyMerges == 0)
    #expect(reader.statistics.fullFolds == (reopening ? 1 : 2))
    let owners = try reader.newBackgroundContext().fetch(FetchDescriptor<Owner>())
    #expect(owners.map(\.name) == ["Zoe"], "the two Avas met, and are one Zoe")
    #expect(try devices.rebuilt(Owner.self) == owners)
  }

  /// A nap: its start is its key, and shares a field group with its end, as a feed's does.
  struct Nap: Entity, Hashable {
    static let entityName = "Nap"
    var id: UUID
    var start: Date
    var end: Date?
    var memo: String?

    static let schema = Schema(version: 1, [EntitySchema(Nap.self, unique: [[\.start]], fieldGroups: [[\.start, \.end]])])
  }

  /// Setting the end writes the start's group, but the nap holds its key as before: no key
  /// change, so an older edit of its memo still merges alone — finishing a feed on one phone
  /// and noting its memo on the other is the family's most common crossing.
  @Test func anEndSetWithTheStartKeptChangesNoKeyAndAnOlderMemoStillMergesAlone() throws {
    let (devices, reader) = try meetOnOneNap(
      remote: { try $0.edit(Nap.self, id: Sample.id(1)) { $0.memo = "cranky" } },
      local: { try $0.edit(Nap.self, id: Sample.id(1)) { $0.end = Sample.epoch.addingTimeInterval(3_600) } })
    defer { devices.scratch.remove() }
    #expect(reader.statistics.arrivalOnlyMerges == 1)
    #expect(reader.statistics.fullFolds == 1, "only the first merge, of a phone joining")
    let nap = try #require(try reader.newBackgroundContext().fetch(FetchDescriptor<Nap>()).first)
    #expect(nap.memo == "cranky" && nap.end == Sample.epoch.addingTimeInterval(3_600))
    #expect(try devices.rebuilt(Nap.self, schema: Nap.schema) == [nap])
  }

  /// The segment files' id filters are a hint kept beside the manifest: damaged or lost, they
  /// only cost reads, never an error or a wrong merge.
  @Test func aDamagedFileOfIDFiltersOnlyCostsReads() throws {
    let family = try Family()
    defer { family.scratch.remove() }
    let writer = try family.open("writer", device: 1)
    try insertOwners(1...5, into: writer, eachSaved: true)
    let joined = try family.open("reader", device: 2, compactingEvery: 1)
    try joined.sync()  // compacts: segment files, and their filters
    let filters = family.scratch.url.appendingPathComponent("reader.store/local/segment-ids")
    #expect(FileManager.default.fileExists(atPath: filters.path), "the join kept its cache, filters too")
    try Data("{\"Owner.all.".utf8).write(to: filters)
    let context = writer.newBackgroundContext()
    var owner = try #require(try context.fetch(FetchDescriptor<Owner>()).first { $0.id == Sample.id(3) })
    owner.note = "moved"
    context.insert(owner)
    try context.save()
    let reader = try family.open("reader", device: 2, compactingEvery: 1)  // merges at open, its segments not read yet
    #expect(reader.statistics.arrivalOnlyMerges == 1)
    #expect(try reader.newBackgroundContext().fetch(FetchDescriptor<Owner>()).first { $0.id == Sample.id(3) }?.note == "moved")
  }

  @Test func theRoadFollowsHowManyObjectsArriveAgainstHowManyTheCacheHolds() {
    #expect(StoreCoordinator.isFewerThanAFold(arrived: 1_000, cached: 0))
    #expect(!StoreCoordinator.isFewerThanAFold(arrived: 1_001, cached: 0))
    #expect(StoreCoordinator.isFewerThanAFold(arrived: 25_000, cached: 100_000))
    #expect(!StoreCoordinator.isFewerThanAFold(arrived: 25_001, cached: 100_000))
  }
}
