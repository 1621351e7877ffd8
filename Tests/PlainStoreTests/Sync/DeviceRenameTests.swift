import Foundation
import PlainStoreTesting
import Testing

@testable import PlainStore

/// A device whose name changes (a phone renamed; `BABYDASH_DEVICE_NAME` set anew) goes by the
/// new name on every device, through a create-once `name-<number>.json`: `device.json` is never
/// rewritten, and a name said once is not said again.
@Suite struct DeviceRenameTests {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent("PlainStoreRename-\(UUID().uuidString)")
  var changes: URL { folder.appendingPathComponent("changes") }
  var mumsFolder: URL { changes.appendingPathComponent(String(format: "%032x", 1)) }

  func open(_ store: String, device: Int, name: String) throws -> StoreContainer {
    var options = NoteSchema.options(device: device, syncFolder: changes)
    options.deviceName = name
    return try StoreContainer.file(at: folder.appendingPathComponent(store), schema: NoteSchema.v1, options: options)
  }

  func add(_ container: StoreContainer, _ number: Int) throws {
    let context = container.newBackgroundContext()
    context.insert(NoteV1(id: Sample.id(number), text: "note \(number)", stars: 1))
    try context.save()
  }

  func names(seenBy container: StoreContainer) throws -> [String] {
    try #require(try container.syncStatus()).devices.map(\.name).sorted()
  }

  func files() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: mumsFolder.path).sorted() }

  @Test func aNewNameReachesTheOtherDeviceAndDeviceJSONStaysAsWritten() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    try add(try open("mum.store", device: 1, name: "Mum's phone"), 1)
    let deviceJSON = try Data(contentsOf: mumsFolder.appendingPathComponent("device.json"))
    let dad = try open("dad.store", device: 2, name: "Dad's phone")
    try add(dad, 2)
    #expect(try names(seenBy: dad) == ["Dad's phone", "Mum's phone"])

    // Renamed: said once, in a file of its own, at the next commit.
    try add(try open("mum.store", device: 1, name: "Mum's iPhone"), 3)
    #expect(try files().contains("name-000000000001.json"))
    #expect(try Data(contentsOf: mumsFolder.appendingPathComponent("device.json")) == deviceJSON)
    try dad.sync()
    #expect(try names(seenBy: dad) == ["Dad's phone", "Mum's iPhone"])

    // The same name again, or none given: nothing more is written.
    let before = try files()
    try add(try open("mum.store", device: 1, name: "Mum's iPhone"), 4)
    try add(try open("mum.store", device: 1, name: ""), 5)
    #expect(try files().filter { $0.hasPrefix("name-") } == before.filter { $0.hasPrefix("name-") })

    // And back: the newest number wins.
    try add(try open("mum.store", device: 1, name: "Mum's phone"), 6)
    #expect(try files().filter { $0.hasPrefix("name-") } == ["name-000000000001.json", "name-000000000002.json"])
    try dad.sync()
    #expect(try names(seenBy: dad) == ["Dad's phone", "Mum's phone"])
  }

  /// Through CloudKit too: the name travels as a record, like every file of the device's folder.
  @Test func aNewNameTravelsThroughCloudKit() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let cloud = SimulatedCloudKit()
    func open(_ store: String, device: Int, name: String) throws -> StoreContainer {
      var options = NoteSchema.options(device: device)
      options.deviceName = name
      options.carrier = .simulatedCloudKit(cloud, account: "family")
      return try StoreContainer.file(at: folder.appendingPathComponent(store), schema: NoteSchema.v1, options: options)
    }
    let mum = try open("mum.store", device: 1, name: "Mum's phone")
    try add(mum, 1)
    try mum.sync()
    let dad = try open("dad.store", device: 2, name: "Dad's phone")
    try add(dad, 2)
    try dad.sync()
    #expect(try names(seenBy: dad) == ["Dad's phone", "Mum's phone"])
    let renamed = try open("mum.store", device: 1, name: "Mum's iPhone")
    try add(renamed, 3)
    try renamed.sync()
    try dad.sync()
    #expect(try names(seenBy: dad) == ["Dad's phone", "Mum's iPhone"])
  }
}
