import BabyDashboardTesting
import Foundation
import Testing

@testable import PlainStore

/// Compaction of the change files: snapshots that acknowledge, deletion of a device's own
/// acknowledged files only, inactive devices that stop holding it back — and through all of
/// it, every device still agrees with a device that kept every change file ever written.
@Suite struct ChangeCompactionTests {
  @Test func aDeviceDeletesItsOwnFilesOnlyOnceEveryActiveDeviceHasAcknowledgedThem() throws {
    let scratch = try ScratchFolder()
    defer { scratch.remove() }
    let clock = TestClock(Sample.epoch)
    let a = SyncedDevice(scratch.url, 1, clock)
    let b = SyncedDevice(scratch.url, 2, clock)
    try a.write { $0.insert(Owner(id: Sample.id(1), name: "Mia")) }
    try mirror([a, b])
    _ = try b.container().sync()
    for hour in 1...4 { try a.write { $0.insert(Event(uuid: Sample.id(100 + hour), ownerID: Sample.id(1), at: Sample.date(days: Double(hour) / 24), title: "feed")) } }
    for hour in 1...3 { try b.write { $0.insert(Event(uuid: Sample.id(200 + hour), ownerID: Sample.id(1), at: Sample.date(days: 1 + Double(hour) / 24), title: "diaper")) } }
    try mirror([a, b])

    let first = try #require(try a.container().compactChanges())
    #expect(first.snapshotWritten == "device1.store/changes/\(a.id.text)/snapshot-000000000001.json")
    #expect(first.changeFilesDeleted == 0 && first.changeFilesKept == 5, "b has acknowledged nothing yet")
    #expect(first.waitingFor == [b.id.text])
    try mirror([a, b])

    let second = try #require(try b.container().compactChanges())
    #expect(second.changeFilesDeleted == 3, "a's snapshot covers all of b's changes")
    #expect(second.waitingFor.isEmpty)
    #expect(a.ownChangeFiles(of: b) == 3, "b never deletes in a's folder; only the sync engine carries the deletion")
    try mirror([a, b])
    #expect(a.ownChangeFiles(of: b) == 0)

    let third = try #require(try a.container().compactChanges())
    #expect(third.changeFilesDeleted == 5, "b's snapshot covers all of a's changes")
    #expect(third.snapshotWritten == nil && third.snapshotsDeleted == 0, "a's view holds nothing its snapshot does not")
    try mirror([a, b])
    #expect(try a.dump() == b.dump())
    #expect(try a.dump().count == 8)

    // Nothing is lost when the cache goes: the snapshots hold what the files held.
    for device in [a, b] {
      device.close()
      try FileManager.default.removeItem(at: device.store.appendingPathComponent("local"))
      #expect(try device.dump().count == 8)
    }
    // Compacting again with nothing new writes nothing and deletes nothing.
    let idle = try #require(try a.container().compactChanges())
    #expect(idle.snapshotWritten == nil && idle.changeFilesDeleted == 0 && idle.snapshotsDeleted == 0)
  }

  /// A snapshot that holds nothing new to a device is folded (the device records it, and does
  /// not merge it again), but it is no transaction: not returned by `sync()`, not in history.
  @Test func aSnapshotThatChangesNothingIsNoTransaction() throws {
    let scratch = try ScratchFolder()
    defer { scratch.remove() }
    let clock = TestClock(Sample.epoch)
    let a = SyncedDevice(scratch.url, 1, clock)
    let b = SyncedDevice(scratch.url, 2, clock)
    try a.write { $0.insert(Owner(id: Sample.id(1), name: "Mia")) }
    try mirror([a, b])
    #expect(try b.container().sync() == nil, "opening merged it already")
    let before = try b.container().currentToken
    #expect(try b.container().history(after: nil).map(\.author) == ["sync"])

    _ = try a.container().compactChanges()
    try mirror([a, b])
    #expect(try b.container().sync() == nil)
    #expect(try b.container().history(after: before).isEmpty)
    #expect(try b.container().history(after: nil).map(\.author) == ["sync"])
    #expect(try b.container().refresh() == false)
    // Folded once: a second copy of the same cache merges nothing more, and the next real
    // change is the next transaction.
    b.close()
    #expect(try b.container().sync() == nil)
    try a.write { $0.insert(Owner(id: Sample.id(2), name: "Noah")) }
    try mirror([a, b])
    let next = try #require(try b.container().sync())
    #expect(next.changes["Owner"]?.inserted == [Sample.id(2)])
    #expect(try b.container().history(after: before).map(\.sequence) == [next.sequence])
  }

  @Test func aDeviceSilentForLongerThanTheIntervalStopsHoldingBackAndMergesWhenItReturns() throws {
    let scratch = try ScratchFolder()
    defer { scratch.remove() }
    let clock = TestClock(Sample.epoch)
    let (a, b, c) = (SyncedDevice(scratch.url, 1, clock), SyncedDevice(scratch.url, 2, clock), SyncedDevice(scratch.url, 3, clock))
    try a.write { $0.insert(Owner(id: Sample.id(1), name: "Mia")) }
    try c.write { $0.insert(Owner(id: Sample.id(2), name: "Noah")) }
    try mirror([a, b, c])
    for device in [a, b, c] { _ = try device.container().sync() }
    c.close()  // c goes quiet: its phone stays in a drawer

    clock.advance(days: 91)
    for day in 1...3 { try a.write { $0.insert(Event(uuid: Sample.id(100 + day), ownerID: Sample.id(1), at: Sample.date(days: 91 + Double(day)), title: "feed")) } }
    try b.write { $0.delete(Owner.self, id: Sample.id(2)) }
    try mirror([a, b])
    _ = try a.container().compactChanges()
    try mirror([a, b])
    _ = try b.container().compactChanges()
    try mirror([a, b])
    let report = try #require(try a.container().compactChanges())
    #expect(report.inactiveDevices == [c.id.text])
    #expect(report.changeFilesDeleted == 4, "c, silent for 91 days, does not hold a's files back")

    // c returns with an edit of its own made offline, and merges from the snapshots.
    try c.write { $0.insert(Event(uuid: Sample.id(300), ownerID: Sample.id(1), at: Sample.date(days: 95), title: "offline")) }
    try mirror([a, b, c])
    for device in [a, b, c] { _ = try device.container().sync() }
    #expect(try a.dump() == c.dump())
    #expect(try b.dump() == c.dump())
    #expect(try c.dump().contains { $0.hasPrefix("Owner Noah") } == false, "b's delete reached c through b's snapshot")
    #expect(try c.dump().filter { $0.hasPrefix("Event") }.count == 4)
  }

  /// The change compaction a save makes due runs once the save has returned, and merges what
  /// has arrived by then: a context that read an object before that merge deleted it is refused
  /// when it saves a reference to it, as against any merge, and one that waits for the
  /// compaction (`waitForHousekeeping()`) reads the merge. (The seeded runs below wait so.)
  @Test func aSaveIsCheckedAgainstTheMergeOfTheChangeCompactionTheSaveBeforeMadeDue() throws {
    let scratch = try ScratchFolder()
    defer { scratch.remove() }
    let clock = TestClock(Sample.epoch)
    let (a, b) = (SyncedDevice(scratch.url, 1, clock), SyncedDevice(scratch.url, 2, clock))
    let (reached, release) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
    let held = StoreMutex(false)
    var options = a.options
    options.changeCompactionThreshold = 2
    options.compactionThreshold = 2  // the change compaction's turn comes with the cache's
    options.phaseObserver = { phase in
      guard phase == "compact: planned", !held.withLock({ held in defer { held = true }; return held }) else { return }
      reached.signal()
      release.wait()
    }
    let container = try StoreContainer.file(at: a.store, schema: TestSchema.v1, options: options)
    let context = container.newBackgroundContext()
    context.insert(Owner(id: Sample.id(1), name: "Mia"))
    try context.save()
    try mirror([a, b])
    _ = try b.container().sync()
    try b.write { context in context.delete(try #require(try context.object(Owner.self, id: Sample.id(1)))) }
    try mirror([a, b])  // b's delete waits in a's folder

    context.insert(Owner(id: Sample.id(2), name: "Noah"))
    try context.save()  // a's second change: its change compaction is due, and follows the save
    reached.wait()
    #expect(try context.object(Owner.self, id: Sample.id(1)) != nil, "b's delete is not merged yet")
    release.signal()
    context.insert(Event(uuid: Sample.id(100), ownerID: Sample.id(1), at: Sample.date(days: 1), title: "feed"))
    let refused = #expect(throws: StoreError.self) { try context.save() }
    #expect(refused?.code == .reference, "the compaction merged b's delete before this commit")
    context.rollback()
    container.waitForHousekeeping()
    #expect(try container.newBackgroundContext().object(Owner.self, id: Sample.id(1)) == nil)
  }

  /// 120 seeded runs of random edits, partial syncs that carry deletions too, compactions and
  /// lost caches on two or three devices: every device ends with the same objects as a device
  /// that holds every change file ever written, and no device ever deletes another's file.
  @Test(arguments: 0..<UInt64(3))
  func compactingAtRandomNeverChangesWhatTheDevicesAgreeOn(part: UInt64) async throws {
    let tests = self
    let (failures, deleted) = try await onOwnThread { () throws -> ([String], Int) in
      var failures: [String] = []
      var deleted = 0
      for seed in (part * 40)..<((part + 1) * 40) {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        if let failure = try tests.run(seed: seed, in: scratch.url, deleted: &deleted) { failures.append("seed \(seed): \(failure)") }
        if failures.count > 2 { break }
      }
      return (failures, deleted)
    }
    #expect(failures.isEmpty, "\(failures)")
    #expect(deleted > 100, "the runs must delete change files to test anything: \(deleted)")
  }

  private func run(seed: UInt64, in root: URL, deleted: inout Int) throws -> String? {
    var random = SplitMix64(seed: seed)
    let clock = TestClock(Sample.epoch)
    let devices = (1...(2 + Int(seed % 2))).map { SyncedDevice(root, $0, clock, compactionThreshold: 4) }
    let archive = root.appendingPathComponent("every-change-ever")
    // The devices are paired first: each knows the others, which hold its deletions back until
    // they acknowledge (a device no one has heard of cannot).
    for device in devices { try device.write { $0.insert(Owner(id: UUID(), name: "first of \(device.number)")) } }
    try archiveChanges(of: devices, into: archive)
    try mirror(devices)
    for step in 0..<30 {
      clock.advance(days: Double.random(in: 0...2, using: &random))
      let device = devices.randomElement(using: &random)!
      switch Int.random(in: 0..<10, using: &random) {
      case 0...4:
        try device.write { context in try randomEdit(context, step: step, random: &random) }
        // The change compaction a save makes due merges, once the save has returned, what has
        // arrived by the time it runs: the run waits for it, so that its merge comes where the
        // step puts it (a save built on a read from before a merge of another device's delete
        // is refused) and the carrier never copies files a compaction is writing or deleting.
        try device.container().waitForHousekeeping()
        try archiveChanges(of: devices, into: archive)
      case 5, 6:
        // The engine carries one device's folder to another: new files and deletions.
        let from = devices.randomElement(using: &random)!
        let to = devices.randomElement(using: &random)!
        try mirror(from.id, from: from, to: to)
      case 7:
        let others = try otherDevicesFiles(device, devices)
        deleted += try device.container().compactChanges()?.changeFilesDeleted ?? 0
        if try otherDevicesFiles(device, devices).subtracting(others).isEmpty == false || !others.isSubset(of: try otherDevicesFiles(device, devices)) {
          return "device \(device.number) deleted or created a file under another device's id"
        }
      case 8:
        device.close()
        try? FileManager.default.removeItem(at: device.store.appendingPathComponent("local"))
      default:
        _ = try device.container().sync()
      }
    }
    try archiveChanges(of: devices, into: archive)
    for _ in 0..<2 {
      try mirror(devices)
      for device in devices { deleted += try device.container().compactChanges()?.changeFilesDeleted ?? 0 }
    }
    try mirror(devices)
    // The reference: a device that was given every change file ever written and never compacted.
    let reference = SyncedDevice(root, 99, clock)
    try FileManager.default.createDirectory(at: reference.store, withIntermediateDirectories: true)
    try FileManager.default.copyItem(at: archive, to: reference.store.appendingPathComponent("changes"))
    let expected = try reference.dump()
    for device in devices {
      _ = try device.container().sync()
      let got = try device.dump()
      if got != expected {
        return "device \(device.number) differs from the reference: missing \(Set(expected).subtracting(got).sorted()), extra \(Set(got).subtracting(expected).sorted())"
      }
    }
    return nil
  }

  private func randomEdit(_ context: StoreContext, step: Int, random: inout SplitMix64) throws {
    let owners = try context.fetch(FetchDescriptor<Owner>(sortBy: [SortDescriptor(\.name)]))
    let events = try context.fetch(FetchDescriptor<Event>(sortBy: [SortDescriptor(\.at), SortDescriptor(\.title)]))
    switch Int.random(in: 0..<6, using: &random) {
    case 0:
      context.insert(Owner(id: UUID(), name: "owner \(Int.random(in: 0..<4, using: &random))"))
    case 1, 2:
      context.insert(
        Event(
          uuid: UUID(), ownerID: owners.randomElement(using: &random)?.id, at: Sample.date(days: Double(Int.random(in: 0..<6, using: &random))),
          title: "event \(step)"))
    case 3 where !events.isEmpty:
      var event = events.randomElement(using: &random)!
      event.title = "edited \(step)"
      event.amount = Double(Int.random(in: 1...200, using: &random))
      context.update(event)
    case 4 where !events.isEmpty:
      context.delete(events.randomElement(using: &random)!)
    case 5 where !owners.isEmpty:
      context.delete(owners.randomElement(using: &random)!)
    default:
      context.insert(Owner(id: UUID(), name: "late \(step)"))
    }
  }

  /// Every change file in any device's folder is copied aside once, before a compaction can
  /// delete it.
  private func archiveChanges(of devices: [SyncedDevice], into archive: URL) throws {
    for device in devices {
      let own = device.changes.appendingPathComponent(device.id.text)
      let target = archive.appendingPathComponent(device.id.text)
      try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
      for name in (try? FileManager.default.contentsOfDirectory(atPath: own.path)) ?? []
      where !name.hasPrefix("snapshot-") && !FileManager.default.fileExists(atPath: target.appendingPathComponent(name).path) {
        try FileManager.default.copyItem(at: own.appendingPathComponent(name), to: target.appendingPathComponent(name))
      }
    }
  }

  private func otherDevicesFiles(_ device: SyncedDevice, _ devices: [SyncedDevice]) throws -> Set<String> {
    var names: Set<String> = []
    for other in devices where other.id != device.id {
      let folder = device.changes.appendingPathComponent(other.id.text)
      for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] { names.insert(other.id.text + "/" + name) }
    }
    return names
  }
}

/// A wall clock the test moves by hand.
final class TestClock: Sendable {
  private let now: StoreMutex<Date>
  init(_ start: Date) { now = StoreMutex(start) }
  func read() -> Date { now.withLock { $0 } }
  func advance(days: Double) { now.withLock { $0 = $0.addingTimeInterval(days * 86_400) } }
}

/// One device's copy of a store, with its own folder and a fixed id.
final class SyncedDevice {
  let number: Int
  let id: DeviceID
  let store: URL
  let options: StoreOptions
  private var open: StoreContainer?

  init(_ root: URL, _ number: Int, _ clock: TestClock, compactionThreshold: Int = 1_000) {
    self.number = number
    id = testDevice(0xd000 + number)
    store = root.appendingPathComponent("device\(number).store")
    options = StoreOptions(
      author: "device\(number)", clock: { clock.read() }, compactionThreshold: compactionThreshold, watchesOtherProcesses: false,
      deviceID: id.text, deviceName: "device \(number)", changeCompactionThreshold: compactionThreshold)
  }

  var changes: URL { store.appendingPathComponent("changes") }

  func container() throws -> StoreContainer {
    if let open { return open }
    let container = try StoreContainer.file(at: store, schema: TestSchema.v1, options: options)
    open = container
    return container
  }

  func close() { open = nil }

  func write(_ edit: (StoreContext) throws -> Void) throws {
    let context = try container().newBackgroundContext()
    try edit(context)
    try context.save()
  }

  /// Every object as one line, sorted: what two devices must agree on.
  func dump() throws -> [String] {
    let context = try container().newBackgroundContext()
    let owners = try context.fetch(FetchDescriptor<Owner>()).map { "Owner \($0.name) \($0.id) \($0.note ?? "-")" }
    let events = try context.fetch(FetchDescriptor<Event>()).map {
      "Event \($0.uuid) \($0.ownerID?.uuidString ?? "-") \(ISO8601.format($0.at)) \($0.title) \($0.amount.map { "\($0)" } ?? "-")"
    }
    return (owners + events).sorted()
  }

  func ownChangeFiles(of owner: SyncedDevice) -> Int {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: changes.appendingPathComponent(owner.id.text).path)) ?? []
    return names.filter { !$0.hasPrefix("snapshot-") && $0 != "device.json" }.count
  }
}

/// A sync engine that carries every device's own folder to every other device: new files are
/// copied, files its owner deleted are deleted.
func mirror(_ devices: [SyncedDevice]) throws {
  for owner in devices {
    for other in devices where other.id != owner.id { try mirror(owner.id, from: owner, to: other) }
  }
}

/// Makes `to`'s copy of `device`'s folder what `from` holds of it.
func mirror(_ device: DeviceID, from: SyncedDevice, to: SyncedDevice) throws {
  guard from.id != to.id else { return }
  let source = from.changes.appendingPathComponent(device.text)
  let target = to.changes.appendingPathComponent(device.text)
  guard FileManager.default.fileExists(atPath: source.path) else { return }
  try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
  let have = Set((try? FileManager.default.contentsOfDirectory(atPath: target.path)) ?? [])
  let want = Set(try FileManager.default.contentsOfDirectory(atPath: source.path))
  for name in want.subtracting(have) {
    try FileManager.default.copyItem(at: source.appendingPathComponent(name), to: target.appendingPathComponent(name))
  }
  for name in have.subtracting(want) { try FileManager.default.removeItem(at: target.appendingPathComponent(name)) }
}
