import Foundation
import Testing

@testable import PlainStore

/// A device's id is an identity, not a cache: it lives beside `changes/`, so a rebuild of a
/// lost or damaged `local/` goes on under it — the phone stays one device in every sync
/// status, its next change takes the next number under its own name — and a store whose id a
/// program before this one kept only in `local/` moves it out at its next open.
@Suite struct RebuildKeepsIdentityTests {
  typealias Devices = ArrivalOnlyMergeTests.Devices

  /// Device 1 with no device id asked for: its first commit mints one.
  func open(_ devices: Devices) throws -> StoreContainer {
    let options = StoreOptions(author: "phone", clock: Sample.fixedClock, watchesOtherProcesses: false, syncFolder: devices.syncFolder(1))
    return try StoreContainer.file(at: devices.scratch.url.appendingPathComponent("1.store"), schema: TestSchema.v1, options: options)
  }

  func changeNames(_ devices: Devices, _ device: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: devices.syncFolder(1).appendingPathComponent(device).path)
      .filter { $0.hasSuffix(".json") && $0 != "device.json" }.sorted()
  }

  func recordedID(_ store: URL, _ name: String) throws -> String {
    try String(contentsOf: store.appendingPathComponent(name), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
  }

  @Test(arguments: [false, true])
  func aLostCacheIsRebuiltUnderTheSameDevice(writtenByAnOlderProgram: Bool) throws {
    let devices = try Devices()
    defer { devices.scratch.remove() }
    var store: URL
    do {
      let container = try open(devices)
      store = container.directory!
      let context = container.newBackgroundContext()
      context.insert(Owner(id: Sample.id(1), name: "Ava"))
      try context.save()
    }
    let device = try recordedID(store, "device-id")
    #expect(try recordedID(store, "device-id") == device, "kept where older programs read it too")
    if writtenByAnOlderProgram {
      // A store from before: its id in local/ only. It moves out at the next open, before the
      // cache is lost.
      try FileManager.default.removeItem(at: store.appendingPathComponent("device-id"))
      _ = try open(devices)
      #expect(try recordedID(store, "device-id") == device)
    }
    try FileManager.default.removeItem(at: store.appendingPathComponent("local"))

    let reopened = try open(devices)
    let context = reopened.newBackgroundContext()
    #expect(try context.fetch(FetchDescriptor<Owner>()).map(\.name) == ["Ava"], "rebuilt from the change files")
    context.insert(Owner(id: Sample.id(2), name: "Mia"))
    try context.save()
    #expect(try recordedID(store, "device-id") == device, "the same device after the rebuild")
    #expect(try changeNames(devices, device) == ["000000000001.json", "000000000002.json"], "its next change, under its own name")
    let status = try #require(try reopened.syncStatus())
    #expect(status.devices.map(\.id) == [device], "one device, listed once")
  }
}
