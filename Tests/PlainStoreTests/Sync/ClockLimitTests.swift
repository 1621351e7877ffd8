import Foundation
import Testing

@testable import PlainStore

/// A stamp no clock can write (past the year 9999) is damage: the file that carries it is
/// refused and named, and this device's clock never follows it — a clock that did would wrap
/// to 0, and every later local edit would lose to what it had seen.
@Suite struct ClockLimitTests {
  @Test func theLastStampAClockWritesIsReadAndTheNextIsDamage() throws {
    let device = testDevice(7)
    func file(hlc: UInt64) throws -> Data {
      try ChangeFileCodec.encode(
        ChangeFile(
          device: device, sequence: 1, hlc: hlc, author: "test", timestamp: Sample.epoch, schemaVersion: 1,
          objects: [ObjectChange(entity: "Owner", id: Sample.id(1), kind: .delete, fields: nil)]))
    }
    #expect(try ChangeFileCodec.decode(file(hlc: HybridLogicalClock.latest)).get().hlc == HybridLogicalClock.latest)
    for beyond in [HybridLogicalClock.latest + 1, UInt64.max] {
      guard case .failure(.unreadable(let reason)) = ChangeFileCodec.decode(try file(hlc: beyond)) else {
        Issue.record("a file stamped \(HybridLogicalClock.text(beyond)) was read")
        continue
      }
      #expect(reason.contains("past the year 9999"), "\(reason)")
    }
    #expect(ChangeStamp("ffffffffffffffff.\(device.text).000000000001") == nil)
    var clock = HybridLogicalClock(last: 5)
    clock.observe(.max)
    #expect(clock.last == 5, "a stamp no clock writes never moves the clock")
    clock.observe(HybridLogicalClock.latest)
    #expect(clock.tick(now: Sample.epoch) == HybridLogicalClock.latest + 1, "the clock goes on past its last stamp without wrapping")
  }

  @Test func aFileStampedBeyondAnyClockIsNamedAndALaterLocalEditStillWins() throws {
    let scratch = try ScratchFolder()
    defer { scratch.remove() }
    let store = scratch.url.appendingPathComponent("phone.store")
    let options = StoreOptions(author: "test", clock: { Sample.epoch }, watchesOtherProcesses: false)
    let container = try StoreContainer.file(at: store, schema: TestSchema.v1, options: options)
    let context = container.newBackgroundContext()
    context.insert(Owner(id: Sample.id(1), name: "Mia", note: "#one"))
    try context.save()
    // Another device's change, stamped at the end of the clock's range (damaged, crafted, or
    // from a clock gone wrong), sets the note.
    let other = testDevice(9)
    let crafted = ChangeFile(
      device: other, sequence: 1, hlc: .max, author: "test", timestamp: Sample.epoch, schemaVersion: 1,
      objects: [ObjectChange(entity: "Owner", id: Sample.id(1), kind: .upsert, fields: ["note": rawString("#crafted")], groups: ["note"])])
    let folder = store.appendingPathComponent("changes/\(other.text)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try ChangeFileCodec.encode(crafted).write(to: folder.appendingPathComponent("000000000001.json"))
    try container.sync()
    let status = try #require(try container.syncStatus())
    #expect(status.notArrived == ["phone.store/changes/\(other.text)/000000000001.json"], "the damaged file is named")

    try context.edit(Owner.self, id: Sample.id(1)) { $0.note = "#two" }
    try context.save()
    #expect(try context.object(Owner.self, id: Sample.id(1))?.note == "#two")
    let rebuilt = scratch.url.appendingPathComponent("rebuilt.store")
    try FileManager.default.createDirectory(at: rebuilt, withIntermediateDirectories: true)
    for name in ["store.json", "changes"] {
      try FileManager.default.copyItem(at: store.appendingPathComponent(name), to: rebuilt.appendingPathComponent(name))
    }
    let fresh = try StoreContainer.file(at: rebuilt, schema: TestSchema.v1, options: options)
    #expect(try fresh.newBackgroundContext().object(Owner.self, id: Sample.id(1))?.note == "#two", "a rebuild shows the acknowledged edit")
  }

  @Test func aDeviceWhoseClockRunsADayAheadIsNamed() throws {
    let scratch = try ScratchFolder()
    defer { scratch.remove() }
    let now = Sample.epoch
    let ahead = StoreOptions(author: "test", clock: { now.addingTimeInterval(2 * 86_400) }, watchesOtherProcesses: false)
    let here = StoreOptions(author: "test", clock: { now }, watchesOtherProcesses: false)
    let phone = scratch.url.appendingPathComponent("phone.store")
    let tablet = scratch.url.appendingPathComponent("tablet.store")
    for (store, options) in [(phone, here), (tablet, ahead)] {
      let context = try StoreContainer.file(at: store, schema: TestSchema.v1, options: options).newBackgroundContext()
      context.insert(Owner(id: UUID(), name: store.lastPathComponent))
      try context.save()
    }
    let tabletID = try String(contentsOf: tablet.appendingPathComponent("device-id"), encoding: .utf8)
      .trimmingCharacters(in: .whitespacesAndNewlines)
    try FileManager.default.copyItem(
      at: tablet.appendingPathComponent("changes/\(tabletID)"), to: phone.appendingPathComponent("changes/\(tabletID)"))
    let status = try #require(try StoreContainer.file(at: phone, schema: TestSchema.v1, options: here).syncStatus())
    let devices = Dictionary(uniqueKeysWithValues: status.devices.map { ($0.id, $0) })
    #expect(devices[tabletID]?.clockAhead.map { abs($0 - 2 * 86_400) < 1 } == true)
    #expect(status.devices.filter(\.isThisDevice).allSatisfy { $0.clockAhead == nil })
  }
}
