import Foundation
import Testing

@testable import PlainStore

/// Versions side by side: two devices share one `changes/` folder, one running today's program
/// (it reads change-file format 2), the other a newer one (it reads and may write format 3, see
/// `StoreOptions.newestChangeFormat`). The newer writes format 3 only once every active device
/// reads it; the older refuses a format-3 file by name and loses nothing.
@Suite struct ChangeFormatNegotiationTests {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent("PlainStoreFormats-\(UUID().uuidString)")
  var changes: URL { folder.appendingPathComponent("changes") }
  var old: URL { folder.appendingPathComponent("old.store") }
  var new: URL { folder.appendingPathComponent("new.store") }

  func options(device: Int, name: String, reads: Int, now: Date = Sample.epoch) -> StoreOptions {
    var options = NoteSchema.options(device: device, syncFolder: changes)
    options.deviceName = name
    options.clock = { now }
    options.newestChangeFormat = reads
    return options
  }

  func open(_ store: URL, device: Int, name: String, reads: Int, now: Date = Sample.epoch) throws -> StoreContainer {
    try StoreContainer.file(at: store, schema: NoteSchema.v1, options: options(device: device, name: name, reads: reads, now: now))
  }

  func add(_ container: StoreContainer, _ number: Int, _ text: String) throws {
    let context = container.newBackgroundContext()
    context.insert(NoteV1(id: Sample.id(number), text: text, stars: 1))
    try context.save()
  }

  func texts(_ container: StoreContainer) throws -> [String] {
    try container.newBackgroundContext().fetch(FetchDescriptor<NoteV1>()).map(\.text).sorted()
  }

  /// The `formatVersion` of a device's change file.
  func format(device: Int, sequence: Int) throws -> Int {
    let url = changes.appendingPathComponent(String(format: "%032x", device)).appendingPathComponent(String(format: "%012d.json", sequence))
    let text = String(decoding: try Data(contentsOf: url), as: UTF8.self)
    let found = try #require(text.firstMatch(of: /"formatVersion":(\d+)/)?.output.1)
    return Int(found)!
  }

  @Test func aNewerProgramWritesTodaysFormatWhileAnActiveDeviceReadsOnlyIt() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let older = try open(old, device: 1, name: "Dad's phone", reads: 2)
    try add(older, 1, "from the old program")
    let newer = try open(new, device: 2, name: "Mum's phone", reads: 3)
    try add(newer, 2, "from the new program")
    #expect(try format(device: 2, sequence: 1) == 2, "Dad's phone reads format 2 only")
    let device = String(decoding: try Data(contentsOf: changes.appendingPathComponent(String(format: "%032x/device.json", 2))), as: UTF8.self)
    #expect(device.contains("\"reads\":3"), "\(device)")
    try older.sync()
    #expect(try texts(older) == ["from the new program", "from the old program"])

    let seenByNewer = try #require(StoreContainer.changeFormats(ofStoreAt: new, options: options(device: 2, name: "Mum's phone", reads: 3)))
    #expect(seenByNewer == ChangeFormats(reads: 3, writes: 2, newer: [], waitingFor: ["Dad's phone"]))
    let seenByOlder = try #require(StoreContainer.changeFormats(ofStoreAt: old, options: options(device: 1, name: "Dad's phone", reads: 2)))
    #expect(seenByOlder == ChangeFormats(reads: 2, writes: 2, newer: ["Mum's phone"], waitingFor: []))

    // Dad's phone is updated: it says so once (its device.json stays as it was written), and
    // Mum's phone writes format 3 from its next sync on.
    let updated = try open(old, device: 1, name: "Dad's phone", reads: 3)
    #expect(FileManager.default.fileExists(atPath: changes.appendingPathComponent(String(format: "%032x/reads-000000000003.json", 1)).path))
    try newer.sync()
    try add(newer, 3, "in the new format")
    #expect(try format(device: 2, sequence: 2) == 3)
    try updated.sync()
    #expect(try texts(updated).contains("in the new format"))
    #expect(try updated.syncStatus()?.awaitingUpdate == [])
  }

  @Test func anOlderDeviceRefusesANewerFileByNameAndFoldsItOnceUpdated() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    // Mum's phone, updated, writes before Dad's has ever written: no one holds it back.
    let newer = try open(new, device: 2, name: "Mum's phone", reads: 3)
    try add(newer, 1, "written in format 3")
    #expect(try format(device: 2, sequence: 1) == 3)

    let older = try open(old, device: 1, name: "Dad's phone", reads: 2)
    try add(older, 2, "written in format 2")
    #expect(try older.sync() == nil, "nothing the old program can read arrived")
    #expect(try texts(older) == ["written in format 2"])
    let status = try #require(try older.syncStatus())
    let path = "changes/\(String(format: "%032x", 2))/000000000001.json"
    #expect(status.awaitingUpdate == ["\(path): written in change-file format 3 by Mum's phone; this app reads up to 2 — update it"])
    #expect(status.notArrived == [] && status.devices.allSatisfy { $0.waiting == 0 }, "whole, and not missing: \(status)")

    // Not acknowledged: Dad's snapshot does not cover it, so Mum's phone keeps it.
    _ = try older.compactChanges()
    try newer.sync()
    let compaction = try #require(try newer.compactChanges())
    #expect(compaction.changeFilesDeleted == 0)
    #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path))
    #expect(try texts(newer) == ["written in format 2", "written in format 3"])

    // Dad's phone is updated: the file it kept waiting folds in.
    let updated = try open(old, device: 1, name: "Dad's phone", reads: 3)
    #expect(try texts(updated) == ["written in format 2", "written in format 3"])
    #expect(try updated.syncStatus()?.awaitingUpdate == [])
  }

  @Test func aDeviceSilentPastTheInactiveIntervalHoldsNoOneBack() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let older = try open(old, device: 1, name: "Old tablet", reads: 2)
    try add(older, 1, "long ago")
    let later = Sample.epoch.addingTimeInterval(91 * 86_400)
    let newer = try open(new, device: 2, name: "Mum's phone", reads: 3, now: later)
    try add(newer, 2, "today")
    #expect(try format(device: 2, sequence: 1) == 3, "the tablet, silent for 91 days, is not waited for")
    let seen = StoreContainer.changeFormats(ofStoreAt: new, options: options(device: 2, name: "Mum's phone", reads: 3, now: later))
    #expect(seen == ChangeFormats(reads: 3, writes: 3, newer: [], waitingFor: []))
  }
}
