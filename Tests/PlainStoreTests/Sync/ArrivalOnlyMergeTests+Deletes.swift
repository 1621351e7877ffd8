import Foundation
import Testing

@testable import PlainStore

/// Arrivals that meet a delete: a delete wins over every edit, before or after it, so neither
/// an edit of an object this device deleted nor a delete of one it edited since needs the
/// whole fold — unless the edit writes a unique key, whose history says which objects are one.
extension ArrivalOnlyMergeTests {
  /// Device 2 logs a nap, which device 1 merges; device 2 then makes `remote` of it and device
  /// 1 (its clock a minute ahead) `local`; only then does device 2's change reach device 1,
  /// which merges it. Returns device 1's container. (A nap: nothing points at it, whose delete
  /// rule would take the whole fold.)
  func meetOnOneNap(remote: (StoreContext) throws -> Void, local: (StoreContext) throws -> Void) throws -> (Devices, StoreContainer) {
    let devices = try Devices()
    let reader = try devices.open(1, schema: Nap.schema, clock: { Sample.epoch.addingTimeInterval(60) })
    let writer = try devices.open(2, schema: Nap.schema)
    let context = writer.newBackgroundContext()
    context.insert(Nap(id: Sample.id(1), start: Sample.epoch))
    try context.save()
    try devices.deliver(from: 2, to: 1)
    try reader.sync()
    try remote(context)
    try context.save()
    let readerContext = reader.newBackgroundContext()
    try local(readerContext)
    try readerContext.save()
    try devices.deliver(from: 2, to: 1)
    try reader.sync()
    return (devices, reader)
  }

  @Test func anEditOfAnObjectThisDeviceDeletedIsFoldedAloneAndChangesNothing() throws {
    let (devices, reader) = try meetOnOneNap(
      remote: { try $0.edit(Nap.self, id: Sample.id(1)) { $0.memo = "cranky" } },
      local: { $0.delete(Nap.self, id: Sample.id(1)) })
    defer { devices.scratch.remove() }
    #expect(reader.statistics.arrivalOnlyMerges == 1)
    #expect(reader.statistics.fullFolds == 1, "only the first merge, of a phone joining")
    #expect(try reader.newBackgroundContext().fetchCount(FetchDescriptor<Nap>()) == 0, "the delete wins")
    #expect(try devices.rebuilt(Nap.self, schema: Nap.schema).isEmpty)
  }

  /// An edit of its key's group (the end shares the start's): which objects held that key, and
  /// when, decides which are one.
  @Test func anEditOfTheKeyOfAnObjectThisDeviceDeletedTakesTheWholeFold() throws {
    let (devices, reader) = try meetOnOneNap(
      remote: { try $0.edit(Nap.self, id: Sample.id(1)) { $0.end = Sample.epoch.addingTimeInterval(600) } },
      local: { $0.delete(Nap.self, id: Sample.id(1)) })
    defer { devices.scratch.remove() }
    #expect(reader.statistics.arrivalOnlyMerges == 0)
    #expect(reader.statistics.fullFolds == 2)
    #expect(try reader.newBackgroundContext().fetchCount(FetchDescriptor<Nap>()) == 0, "the delete wins")
    #expect(try devices.rebuilt(Nap.self, schema: Nap.schema).isEmpty)
  }

  @Test func aDeleteOfAnObjectThisDeviceEditedSinceIsFoldedAloneAndWins() throws {
    let (devices, reader) = try meetOnOneNap(
      remote: { $0.delete(Nap.self, id: Sample.id(1)) },
      local: { try $0.edit(Nap.self, id: Sample.id(1)) { $0.memo = "cranky" } })
    defer { devices.scratch.remove() }
    #expect(reader.statistics.arrivalOnlyMerges == 1)
    #expect(reader.statistics.fullFolds == 1, "only the first merge, of a phone joining")
    #expect(try reader.newBackgroundContext().fetchCount(FetchDescriptor<Nap>()) == 0, "the delete wins")
    #expect(try devices.rebuilt(Nap.self, schema: Nap.schema).isEmpty)
  }

  /// The same field edited on both devices, the arrival the later: it wins, folded alone.
  @Test func aNewerEditOfAFieldThisDeviceEditedIsFoldedAloneAndWins() throws {
    let devices = try Devices()
    defer { devices.scratch.remove() }
    let reader = try devices.open(1)
    let writer = try devices.open(2, clock: { Sample.epoch.addingTimeInterval(60) })
    let context = writer.newBackgroundContext()
    context.insert(Event(uuid: Sample.id(1), ownerID: nil, at: Sample.epoch, title: "feed", amount: nil))
    try context.save()
    try devices.deliver(from: 2, to: 1)
    try reader.sync()
    let readerContext = reader.newBackgroundContext()
    try readerContext.edit(Event.self, id: Sample.id(1)) { $0.title = "cup" }
    try readerContext.save()
    try context.edit(Event.self, id: Sample.id(1)) { $0.title = "bottle" }
    try context.save()
    try devices.deliver(from: 2, to: 1)
    try reader.sync()
    #expect(reader.statistics.arrivalOnlyMerges == 1)
    #expect(reader.statistics.fullFolds == 1)
    let event = try #require(try reader.newBackgroundContext().fetch(FetchDescriptor<Event>()).first)
    #expect(event.title == "bottle")
    #expect(try devices.rebuilt(Event.self) == [event])
  }
}
