import BabyDashboardTesting
import Foundation
import Testing

@testable import PlainStore

/// The store over a simulated iCloud Drive container: files from other devices arrive as
/// placeholders and are asked for, evicted files of this device are asked for again, and what is
/// downloaded reaches the screen with no call from the app.
@Suite struct SimulatedICloudTests {
  /// Every file of `device`'s folder in `from`, arriving in `cloud`'s folder at `to`.
  static func arrive(_ device: DeviceID, from: URL, to: URL, in cloud: SimulatedUbiquityContainer) throws {
    let source = from.appendingPathComponent(device.text)
    for name in try FileManager.default.contentsOfDirectory(atPath: source.path).sorted() where !name.hasPrefix(".") {
      let target = to.appendingPathComponent(device.text).appendingPathComponent(name).path
      guard !FileManager.default.fileExists(atPath: target) else { continue }
      try cloud.arrive(Data(contentsOf: source.appendingPathComponent(name)), at: target)
    }
  }

  @MainActor @Test func anotherDevicesFileArrivesAsAPlaceholderIsAskedForAndReachesALiveQueryOnceDownloaded() async throws {
    let scratch = try ScratchFolder()
    defer { scratch.remove() }
    let writer = SyncedDevice(scratch.url, 1, TestClock(Sample.epoch))
    try writer.write { $0.insert(Owner(id: Sample.id(1), name: "Mia")) }
    let cloud = SimulatedUbiquityContainer()
    let store = scratch.url.appendingPathComponent("phone.store")
    var options = StoreOptions(author: "phone", watchesOtherProcesses: true, deviceID: testDevice(0xe1).text)
    options.transport = cloud.transport
    let phone = try StoreContainer.file(at: store, schema: TestSchema.v1, options: options)
    let query = try phone.liveQuery(FetchDescriptor<Owner>())
    let changes = store.appendingPathComponent("changes")

    try Self.arrive(writer.id, from: writer.changes, to: changes, in: cloud)
    #expect(cloud.deliverNotifications())
    let file = changes.appendingPathComponent(writer.id.text).appendingPathComponent("000000000001.json").path
    #expect(cloud.requested.contains(file), "the store asks for what it lacks")
    #expect(try phone.syncStatus()?.waitingForDownload == ["phone.store/changes/\(writer.id.text)/000000000001.json"])
    #expect(query.results.isEmpty)

    #expect(try cloud.finishDownloads() == 2, "the change file and device.json")
    cloud.deliverNotifications()
    #expect(await waitUntil(query, within: .seconds(1)) { $0.map(\.name) == ["Mia"] })
    #expect(try phone.syncStatus()?.notDownloaded == [])
    #expect(try phone.syncStatus()?.devices.first { $0.id == writer.id.text }?.name == "device 1")
  }

  @Test func aRebuildThatNeedsAnEvictedOwnFileAsksForItAndShowsItOnceDownloaded() throws {
    let scratch = try ScratchFolder()
    defer { scratch.remove() }
    let cloud = SimulatedUbiquityContainer()
    var options = StoreOptions(author: "phone", watchesOtherProcesses: false, deviceID: testDevice(0xe1).text)
    options.transport = cloud.transport
    let store = scratch.url.appendingPathComponent("phone.store")
    do {
      let phone = try StoreContainer.file(at: store, schema: TestSchema.v1, options: options)
      for (number, name) in ["Mia", "Noah"].enumerated() {
        let context = phone.newBackgroundContext()
        context.insert(Owner(id: Sample.id(number + 1), name: name))
        try context.save()
      }
    }
    let own = store.appendingPathComponent("changes").appendingPathComponent(testDevice(0xe1).text)
    let file = own.appendingPathComponent("000000000002.json").path
    try cloud.evict(file)
    try FileManager.default.removeItem(at: store.appendingPathComponent("local"))

    let phone = try StoreContainer.file(at: store, schema: TestSchema.v1, options: options)
    #expect(try phone.newBackgroundContext().fetch(FetchDescriptor<Owner>()).map(\.name) == ["Mia"])
    #expect(cloud.requested == [file], "the rebuild asks for the file it needs")
    #expect(try phone.syncStatus()?.waitingForDownload == ["phone.store/changes/\(testDevice(0xe1).text)/000000000002.json"])

    #expect(try cloud.finishDownloads() == 1)
    #expect(try phone.sync() != nil)
    #expect(try phone.newBackgroundContext().fetch(FetchDescriptor<Owner>()).map(\.name).sorted() == ["Mia", "Noah"])
    let context = phone.newBackgroundContext()
    context.insert(Owner(id: Sample.id(3), name: "Leo"))
    try context.save()
    #expect(try phone.syncStatus()?.thisDevice == testDevice(0xe1).text)
    #expect(FileManager.default.fileExists(atPath: own.appendingPathComponent("000000000003.json").path), "its own files, continued")
  }

  /// A merge that must fold every file while one the cache folded is evicted (this device's own
  /// here) waits for it, and is put off if it does not come: a fold without the file would take
  /// its objects out of the cache, until some later whole fold brought them back.
  @Test func aWholeFoldWaitsForAnEvictedFileItFoldedBeforeAndLosesNothingMeanwhile() throws {
    let scratch = try ScratchFolder()
    defer { scratch.remove() }
    let writer = SyncedDevice(scratch.url, 1, TestClock(Sample.epoch))
    let cloud = SimulatedUbiquityContainer()
    var options = StoreOptions(author: "phone", watchesOtherProcesses: false, deviceID: testDevice(0xe1).text)
    options.transport = cloud.transport
    options.downloadWait = .zero
    let store = scratch.url.appendingPathComponent("phone.store")
    let changes = store.appendingPathComponent("changes")
    let phone = try StoreContainer.file(at: store, schema: TestSchema.v1, options: options)
    let context = phone.newBackgroundContext()
    context.insert(Owner(id: Sample.id(1), name: "Mia"))
    try context.save()
    try writer.write { $0.insert(Owner(id: Sample.id(2), name: "Leo")) }
    func arriveFromTheWriter() throws {
      try Self.arrive(writer.id, from: writer.changes, to: changes, in: cloud)
      try phone.sync()  // asks for them
      try cloud.finishDownloads()
      try phone.sync()
    }
    try arriveFromTheWriter()
    func names() throws -> [String] { try phone.newBackgroundContext().fetch(FetchDescriptor<Owner>()).map(\.name).sorted() }
    #expect(try names() == ["Leo", "Mia"])

    // Leo deleted on the writer (others may refer to an owner: the merge folds every file),
    // while iOS evicts the phone's own file of Mia.
    try writer.write { $0.delete(try #require(try $0.fetch(FetchDescriptor<Owner>()).first)) }
    try cloud.evict(changes.appendingPathComponent(testDevice(0xe1).text).appendingPathComponent("000000000001.json").path)
    try arriveFromTheWriter()
    #expect(try names() == ["Leo", "Mia"], "put off: Mia is not taken out while her file is away")
    #expect(cloud.requested.contains { $0.hasSuffix("\(testDevice(0xe1).text)/000000000001.json") }, "and asked for")

    try cloud.finishDownloads()
    try phone.sync()
    #expect(try names() == ["Mia"])
  }
}
