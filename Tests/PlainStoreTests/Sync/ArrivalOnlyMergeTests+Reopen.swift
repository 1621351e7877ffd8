import Foundation
import Testing

@testable import PlainStore

/// The stamps the merges of arrivals alone need (``WriteStamps``) outlive an open: kept with
/// the cache in a file the manifest names, and kept through every process's commits. So the
/// first crossing arrival after an open (every CLI command is one; the app relaunches) is
/// folded alone, as the ones after it are — and a file that is damaged or of another
/// compaction is not read: the whole fold then, with the same answer.
extension ArrivalOnlyMergeTests {
  /// Device 2 logs `count` events, which device 1 merges (its join: a whole fold, whose stamps
  /// it writes with its cache); device 2 then makes `remote` of them, and device 1, its clock a
  /// minute ahead, `local` (then `afterLocal`); device 1 is closed, `meanwhile` done to its
  /// files, and it is opened again; only then do device 2's changes reach it. Returns the
  /// reopened container.
  func crossBeforeAReopen(
    _ devices: Devices, count: Int = 1, schema: Schema = TestSchema.v1, insert: (Int) -> any Entity = ArrivalOnlyMergeTests.event,
    remote: (StoreContext) throws -> Void, local: (StoreContext) throws -> Void,
    afterLocal: (StoreContainer) throws -> Void = { _ in }, meanwhile: () throws -> Void = {}
  ) throws -> StoreContainer {
    let clock: @Sendable () -> Date = { Sample.epoch.addingTimeInterval(60) }
    let writer = try devices.open(2, schema: schema)
    let context = writer.newBackgroundContext()
    for number in 1...count { context.insert(insert(number)) }
    try context.save()
    try devices.deliver(from: 2, to: 1)
    do {
      let reader = try devices.open(1, schema: schema, clock: clock)
      #expect(reader.statistics.fullFolds == 1, "the join")
      try remote(context)
      try context.save()
      let readerContext = reader.newBackgroundContext()
      try local(readerContext)
      try readerContext.save()
      try afterLocal(reader)
    }
    try meanwhile()
    let reopened = try devices.open(1, schema: schema, clock: clock)
    try devices.deliver(from: 2, to: 1)
    try reopened.sync()
    return reopened
  }

  func stampsFile(_ devices: Devices) -> URL { devices.scratch.url.appendingPathComponent("1.store/local/stamps") }

  static func event(_ number: Int) -> any Entity {
    Event(uuid: Sample.id(number), ownerID: nil, at: Sample.epoch.addingTimeInterval(Double(number) * 600), title: "feed", amount: nil)
  }

  func events(_ container: StoreContainer) throws -> [Event] {
    try container.newBackgroundContext().fetch(FetchDescriptor<Event>()).sorted { uuidPrecedes($0.uuid, $1.uuid) }
  }

  @Test func crossingEditsAfterAReopenAreFoldedAloneAndTheOlderLoses() throws {
    let devices = try Devices()
    defer { devices.scratch.remove() }
    let reader = try crossBeforeAReopen(
      devices,
      remote: { try $0.edit(Event.self, id: Sample.id(1)) { $0.title = "bottle" } },
      local: { try $0.edit(Event.self, id: Sample.id(1)) { $0.title = "cup" } })
    #expect(reader.statistics.arrivalOnlyMerges == 1)
    #expect(reader.statistics.fullFolds == 0, "the stamps came from the cache's file")
    let events = try events(reader)
    #expect(events.map(\.title) == ["cup"])
    #expect(try devices.rebuilt(Event.self) == events)
  }

  @Test func anEditOfAnObjectDeletedBeforeAReopenIsFoldedAloneAndChangesNothing() throws {
    let devices = try Devices()
    defer { devices.scratch.remove() }
    let reader = try crossBeforeAReopen(
      devices,
      schema: Nap.schema, insert: { Nap(id: Sample.id($0), start: Sample.epoch) },
      remote: { try $0.edit(Nap.self, id: Sample.id(1)) { $0.memo = "cranky" } },
      local: { $0.delete(Nap.self, id: Sample.id(1)) })
    #expect(reader.statistics.arrivalOnlyMerges == 1)
    #expect(reader.statistics.fullFolds == 0)
    #expect(try reader.newBackgroundContext().fetchCount(FetchDescriptor<Nap>()) == 0, "the delete wins")
    #expect(try devices.rebuilt(Nap.self, schema: Nap.schema).isEmpty)
  }

  /// A late phone's hour: six edits made before this phone's own edits of the same events,
  /// some of the same field, some of another, arriving after a reopen.
  @Test func aLatePhonesHourAfterAReopenIsFoldedAloneAsARebuildFoldsIt() throws {
    let devices = try Devices()
    defer { devices.scratch.remove() }
    let reader = try crossBeforeAReopen(
      devices,
      count: 6,
      remote: { context in
        for number in 1...6 { try context.edit(Event.self, id: Sample.id(number)) { $0.title = "late \(number)" } }
      },
      local: { context in
        for number in 1...6 {
          try context.edit(Event.self, id: Sample.id(number)) { event in
            if number.isMultiple(of: 2) { event.title = "phone \(number)" } else { event.amount = 120 }
          }
        }
      })
    #expect(reader.statistics.arrivalOnlyMerges == 1)
    #expect(reader.statistics.fullFolds == 0)
    let events = try events(reader)
    #expect(events.map(\.title) == ["late 1", "phone 2", "late 3", "phone 4", "late 5", "phone 6"])
    #expect(events.map(\.amount) == [120, nil, 120, nil, 120, nil])
    #expect(try devices.rebuilt(Event.self).sorted { uuidPrecedes($0.uuid, $1.uuid) } == events)
  }

  /// Another process of the device (here another container on its folder) edits the event:
  /// its commit's stamps are known to this one as its own are, from the log.
  @Test func anotherProcesssEditThenACrossingArrivalIsFoldedAlone() throws {
    let devices = try Devices()
    defer { devices.scratch.remove() }
    let clock: @Sendable () -> Date = { Sample.epoch.addingTimeInterval(60) }
    let writer = try devices.open(2)
    let context = writer.newBackgroundContext()
    context.insert(Self.event(1))
    try context.save()
    try devices.deliver(from: 2, to: 1)
    let reader = try devices.open(1, clock: clock)
    try context.edit(Event.self, id: Sample.id(1)) { $0.title = "bottle" }
    try context.save()
    let other = try devices.open(1, clock: clock)
    let otherContext = other.newBackgroundContext()
    try otherContext.edit(Event.self, id: Sample.id(1)) { $0.title = "cup" }
    try otherContext.save()
    try devices.deliver(from: 2, to: 1)
    try reader.sync()
    #expect(reader.statistics.arrivalOnlyMerges == 1)
    #expect(reader.statistics.fullFolds == 1, "the join's alone")
    let events = try events(reader)
    #expect(events.map(\.title) == ["cup"])
    #expect(try devices.rebuilt(Event.self) == events)
  }

  /// A process that never merged (the widget, a CLI command) reads the stamps when its commit
  /// compacts the cache, and writes them with it, its commits' too.
  @Test func aProcessThatOnlyCommitsKeepsTheStampsInItsCompaction() throws {
    let devices = try Devices()
    defer { devices.scratch.remove() }
    let reader = try crossBeforeAReopen(
      devices,
      remote: { try $0.edit(Event.self, id: Sample.id(1)) { $0.title = "bottle" } },
      local: { try $0.edit(Event.self, id: Sample.id(1)) { $0.title = "cup" } },
      afterLocal: { _ in
        let other = try devices.open(1, clock: { Sample.epoch.addingTimeInterval(90) })
        let context = other.newBackgroundContext()
        try context.edit(Event.self, id: Sample.id(1)) { $0.amount = 5 }
        try context.save()
        let before = try Data(contentsOf: stampsFile(devices))
        try other.compact()
        #expect(try Data(contentsOf: stampsFile(devices)) != before)
      })
    #expect(reader.statistics.arrivalOnlyMerges == 1)
    #expect(reader.statistics.fullFolds == 0)
    let events = try events(reader)
    #expect(events.map(\.title) == ["cup"] && events.map(\.amount) == [5])
    #expect(try devices.rebuilt(Event.self) == events)
  }

  @Test func aDamagedFileOfStampsIsNotReadAndTheWholeFoldGivesTheSameAnswer() throws {
    let devices = try Devices()
    defer { devices.scratch.remove() }
    let reader = try crossBeforeAReopen(
      devices,
      remote: { try $0.edit(Event.self, id: Sample.id(1)) { $0.title = "bottle" } },
      local: { try $0.edit(Event.self, id: Sample.id(1)) { $0.title = "cup" } },
      meanwhile: {
        var bytes = try Data(contentsOf: stampsFile(devices))
        bytes[bytes.count - 20] ^= 0x01
        try bytes.write(to: stampsFile(devices))
      })
    #expect(reader.statistics.arrivalOnlyMerges == 0)
    #expect(reader.statistics.fullFolds == 1)
    let events = try events(reader)
    #expect(events.map(\.title) == ["cup"])
    #expect(try devices.rebuilt(Event.self) == events)
  }

  /// The file of an earlier compaction, put back in place of the last one's (a backup, a
  /// crash between the two writes): its stamps are not this cache's. Read as if they were,
  /// the title's last write would be the insert's, older than the arrival, which would win.
  @Test func aFileOfStampsOfAnotherCompactionIsNotRead() throws {
    let devices = try Devices()
    defer { devices.scratch.remove() }
    var earlier = Data()
    let reader = try crossBeforeAReopen(
      devices,
      remote: { try $0.edit(Event.self, id: Sample.id(1)) { $0.title = "bottle" } },
      local: { context in
        earlier = try Data(contentsOf: stampsFile(devices))  // the join's
        try context.edit(Event.self, id: Sample.id(1)) { $0.title = "cup" }
      },
      afterLocal: { try $0.compact() },
      meanwhile: {
        #expect(try Data(contentsOf: stampsFile(devices)) != earlier, "the compaction wrote its own")
        try earlier.write(to: stampsFile(devices))
      })
    #expect(reader.statistics.arrivalOnlyMerges == 0)
    #expect(reader.statistics.fullFolds == 1)
    let events = try events(reader)
    #expect(events.map(\.title) == ["cup"])
    #expect(try devices.rebuilt(Event.self) == events)
  }

  @Test func theFileOfStampsReadsBackAsWrittenAndRefusesAnyOtherBytes() throws {
    let (a, b) = (DeviceID(String(repeating: "a", count: 32))!, DeviceID(String(repeating: "b", count: 32))!)
    var stamps = WriteStamps()
    var ava = ObjectStamps(stamp: ChangeStamp(hlc: 1 << 40, device: a, sequence: 1))
    ava.write(["title"], at: ChangeStamp(hlc: (1 << 40) + 5, device: b, sequence: 300))
    ava.groups["amount"] = ObjectStamps.GroupStamp(stamp: ChangeStamp(hlc: 7, device: a, sequence: 2), earlier: ["unit": ChangeStamp(hlc: 3, device: b, sequence: 1)])
    stamps.set(ObjectKey(entity: "Event", id: Sample.id(1)), ava)
    // Enough objects of two entities for the binary search to take several steps.
    for number in 4..<60 {
      let entity = number % 3 == 0 ? "Owner" : "Event"
      stamps.set(ObjectKey(entity: entity, id: Sample.id(number)), ObjectStamps(stamp: ChangeStamp(hlc: UInt64(number), device: b, sequence: number)))
    }
    stamps.set(ObjectKey(entity: "Owner", id: Sample.id(2)), ObjectStamps(stamp: ChangeStamp(hlc: 9, device: b, sequence: 4)))
    stamps.delete(ObjectKey(entity: "Event", id: Sample.id(3)))
    let bytes = try #require(stamps.fileBytes(sequence: 42))
    #expect(bytes == stamps.fileBytes(sequence: 42), "the same stamps, the same bytes")
    var read = try #require(WriteStamps(fileBytes: bytes, sequence: 42))
    #expect(read.all?.objects == stamps.all?.objects && read.all?.deleted == stamps.all?.deleted && read.count == stamps.count)
    for entity in ["Event", "Owner", "Nap"] {
      for number in 0..<64 {
        let key = ObjectKey(entity: entity, id: Sample.id(number))
        #expect(read[key] == stamps[key] && read.isDeleted(key) == stamps.isDeleted(key), "\(entity) \(number), found in place")
      }
    }
    #expect(WriteStamps(fileBytes: bytes, sequence: 41) == nil, "another sequence's")
    for length in 0..<bytes.count { #expect(WriteStamps(fileBytes: bytes.prefix(length), sequence: 42) == nil) }
    // What is noted after the file hides what the file says of those objects.
    let (first, deleted, owner) = (ObjectKey(entity: "Event", id: Sample.id(1)), ObjectKey(entity: "Event", id: Sample.id(3)), ObjectKey(entity: "Owner", id: Sample.id(2)))
    read.forget(first)
    read.set(deleted, ObjectStamps(stamp: ChangeStamp(hlc: 11, device: a, sequence: 5)))
    read.delete(owner)
    #expect(read[first] == nil && read[deleted]?.stamp.hlc == 11 && !read.isDeleted(deleted) && read[owner] == nil && read.isDeleted(owner))
    #expect(read.count == stamps.count - 1)
    stamps.forget(first)
    stamps.set(deleted, ObjectStamps(stamp: ChangeStamp(hlc: 11, device: a, sequence: 5)))
    stamps.delete(owner)
    #expect(read.fileBytes(sequence: 43) == stamps.fileBytes(sequence: 43), "written again as the same stamps")
  }
}
