import Foundation
import Testing

@testable import PlainStore

/// iCloud Drive's placeholders (`.NAME.icloud`): a file another device wrote that is not
/// downloaded yet, or a file iOS evicted to free space, this device's own included. Not
/// downloaded is never damage and never lost: every command keeps working, nothing is written
/// beside a placeholder, and what waits for a download is named.
@Suite struct PlaceholderTests {
  /// Turns a device's file into a placeholder, as iOS does when it evicts it; returns its bytes.
  @discardableResult
  static func evict(_ name: String, of device: DeviceID, in changes: URL) throws -> Data {
    let folder = changes.appendingPathComponent(device.text)
    let file = folder.appendingPathComponent(name)
    let bytes = try Data(contentsOf: file)
    try FileManager.default.removeItem(at: file)
    try Data("placeholder".utf8).write(to: folder.appendingPathComponent(ChangeFileName.placeholderName(of: name)))
    return bytes
  }

  /// Puts a file back where its placeholder was, as a download does.
  static func download(_ name: String, _ bytes: Data, of device: DeviceID, in changes: URL) throws {
    let folder = changes.appendingPathComponent(device.text)
    try bytes.write(to: folder.appendingPathComponent(name))
    try FileManager.default.removeItem(at: folder.appendingPathComponent(ChangeFileName.placeholderName(of: name)))
  }

  static func names(of device: DeviceID, in changes: URL) -> Set<String> {
    Set((try? FileManager.default.contentsOfDirectory(atPath: changes.appendingPathComponent(device.text).path)) ?? [])
  }

  @Test func anEvictedOwnChangeFileLeavesEveryDataShownAndIsNeverWrittenAgain() throws {
    let scratch = try ScratchFolder()
    defer { scratch.remove() }
    let a = SyncedDevice(scratch.url, 1, TestClock(Sample.epoch))
    for (number, name) in ["Mia", "Noah", "Leo"].enumerated() { try a.write { $0.insert(Owner(id: Sample.id(number + 1), name: name)) } }
    a.close()
    // Its bytes are still in local/journal, which would write it again at the next open.
    try Self.evict(ChangeFileName.changeName(sequence: 2), of: a.id, in: a.changes)

    #expect(try a.dump().count == 3, "the cache holds it")
    let status = try #require(try a.container().syncStatus())
    #expect(status.notDownloaded == ["device1.store/changes/\(a.id.text)/000000000002.json"])
    #expect(status.waitingForDownload.isEmpty, "merged here already")
    #expect(status.notArrived.isEmpty && status.devices.first?.waiting == 0)
    try a.write { $0.insert(Owner(id: Sample.id(4), name: "Ada")) }
    a.close()
    #expect(try a.dump().count == 4)
    let names = Self.names(of: a.id, in: a.changes)
    #expect(!names.contains("000000000002.json"), "written again beside its placeholder")
    #expect(names.contains(".000000000002.json.icloud") && names.contains("000000000004.json"))
  }

  /// With the cache gone too, the evicted file's data cannot be shown from a plain folder (it
  /// cannot ask for a download): it is named as waiting, its sequence stays taken, and once it
  /// is downloaded it is merged as this device's own.
  @Test func aRebuildThatNeedsAnEvictedFileSaysItWaitsAndMergesItOnceDownloaded() throws {
    let scratch = try ScratchFolder()
    defer { scratch.remove() }
    let a = SyncedDevice(scratch.url, 1, TestClock(Sample.epoch))
    try a.write { $0.insert(Owner(id: Sample.id(1), name: "Mia")) }
    try a.write { $0.insert(Owner(id: Sample.id(2), name: "Noah")) }
    a.close()
    let name = ChangeFileName.changeName(sequence: 2)
    let bytes = try Self.evict(name, of: a.id, in: a.changes)
    try FileManager.default.removeItem(at: a.store.appendingPathComponent("local"))

    #expect(try a.dump() == ["Owner Mia \(Sample.id(1)) -"])
    let status = try #require(try a.container().syncStatus())
    #expect(status.waitingForDownload == ["device1.store/changes/\(a.id.text)/000000000002.json"])
    try a.write { $0.insert(Owner(id: Sample.id(3), name: "Leo")) }
    #expect(!Self.names(of: a.id, in: a.changes).contains(name), "its sequence stays taken")
    #expect(Self.names(of: a.id, in: a.changes).contains(ChangeFileName.changeName(sequence: 3)))

    try Self.download(name, bytes, of: a.id, in: a.changes)
    #expect(try a.container().sync() != nil)
    #expect(try a.dump().count == 3)
    #expect(try a.container().syncStatus()?.thisDevice == a.id.text, "its own file came back: no other copy uses its id")
    #expect(try a.container().syncStatus()?.notDownloaded == [])
  }

  @Test func anotherDevicesFileNotDownloadedIsWaitingNeverDamageAndArrivesOnceDownloaded() throws {
    let scratch = try ScratchFolder()
    defer { scratch.remove() }
    let clock = TestClock(Sample.epoch)
    let a = SyncedDevice(scratch.url, 1, clock)
    let b = SyncedDevice(scratch.url, 2, clock)
    try a.write { $0.insert(Owner(id: Sample.id(1), name: "Mia")) }
    try a.write { $0.insert(Owner(id: Sample.id(2), name: "Noah")) }
    try mirror([a, b])
    let name = ChangeFileName.changeName(sequence: 2)
    let bytes = try Self.evict(name, of: a.id, in: b.changes)

    #expect(try b.dump().map { $0.hasPrefix("Owner Mia") } == [true])
    let status = try #require(try b.container().syncStatus())
    #expect(status.waitingForDownload == ["device2.store/changes/\(a.id.text)/000000000002.json"])
    #expect(status.notArrived.isEmpty, "not downloaded is not damage")
    #expect(status.devices.first { $0.id == a.id.text }?.waiting == 0)

    try Self.download(name, bytes, of: a.id, in: b.changes)
    #expect(try b.container().sync() != nil)
    #expect(try b.dump().count == 2)
  }

  @Test func aChangeCompactionNeverCoversAFileItHasNotRead() throws {
    let scratch = try ScratchFolder()
    defer { scratch.remove() }
    let clock = TestClock(Sample.epoch)
    let a = SyncedDevice(scratch.url, 1, clock)
    let b = SyncedDevice(scratch.url, 2, clock)
    for number in 1...3 { try a.write { $0.insert(Owner(id: Sample.id(number), name: "baby \(number)")) } }
    try mirror([a, b])
    try Self.evict(ChangeFileName.changeName(sequence: 2), of: a.id, in: b.changes)

    let report = try #require(try b.container().compactChanges())
    let written = try #require(report.snapshotWritten)
    let snapshot = try ChangeFileCodec.decodeSnapshot(Data(contentsOf: scratch.url.appendingPathComponent(written))).get()
    #expect(snapshot.covers[a.id] == 1, "it read a's change 3, but not 2")
  }

  /// Found by the seeded iCloud runs: a compaction made without an evicted snapshot of this
  /// device's would hold less than it, and deleted it unread, with the change files it covered.
  @Test func aChangeCompactionWaitsForAnEvictedOwnSnapshotRatherThanDeleteItUnread() throws {
    let scratch = try ScratchFolder()
    defer { scratch.remove() }
    let a = SyncedDevice(scratch.url, 1, TestClock(Sample.epoch))
    for number in 1...2 { try a.write { $0.insert(Owner(id: Sample.id(number), name: "baby \(number)")) } }
    let first = try #require(try a.container().compactChanges())
    #expect(first.snapshotWritten != nil && first.changeFilesDeleted == 2, "alone, it acknowledges its own changes")
    let snapshot = ChangeFileName.snapshotName(number: 1)
    let bytes = try Self.evict(snapshot, of: a.id, in: a.changes)
    try a.write { $0.insert(Owner(id: Sample.id(3), name: "baby 3")) }

    let second = try #require(try a.container().compactChanges())
    #expect(second.snapshotWritten == nil && second.snapshotsDeleted == 0 && second.changeFilesDeleted == 0)
    #expect(Self.names(of: a.id, in: a.changes).contains(ChangeFileName.placeholderName(of: snapshot)))
    a.close()
    try FileManager.default.removeItem(at: a.store.appendingPathComponent("local"))
    try Self.download(snapshot, bytes, of: a.id, in: a.changes)
    #expect(try a.dump().count == 3)
  }
}
