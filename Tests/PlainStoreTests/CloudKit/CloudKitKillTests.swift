import Foundation
import PlainStoreTesting
import Testing

@testable import PlainStore

/// A kill between a fetched batch's files and the engine state that follows them, at every
/// batch of a fetch: the files are durable, the state is the one before them. The phone opened
/// again syncs to every file once — nothing lost, nothing written twice, no conflict copy.
@Suite struct CloudKitKillTests {
  /// A phone's engine that writes batch `killedAt`'s records into `changes/` as the fetch would,
  /// then dies before the state that follows them is saved (a network failure to the exchange,
  /// which keeps the state of the batch before).
  final class KilledEngine: CloudDatabase {
    let engine: SimulatedCloudKit.Device
    let changes: URL
    let killedAt: Int
    private let fetches = StoreMutex(0)

    init(_ engine: SimulatedCloudKit.Device, changes: URL, killedAt: Int) {
      (self.engine, self.changes, self.killedAt) = (engine, changes, killedAt)
    }

    func account() -> CloudAccount { engine.account() }
    func takeEvents() -> [CloudEvent] { engine.takeEvents() }
    func createZone() throws { try engine.createZone() }
    func save(_ records: [CloudRecord], in zone: CloudZone) throws { try engine.save(records, in: zone) }
    func delete(_ names: [String], in zone: CloudZone) throws { try engine.delete(names, in: zone) }
    func fetchChanges(in zone: CloudZone, since state: Data?) throws -> CloudFetch {
      let batch = try engine.fetchChanges(in: zone, since: state)
      guard fetches.withLock({ $0 += 1; return $0 }) == killedAt else { return batch }
      for record in batch.records {
        guard let (device, file) = CloudRecordName.parse(record.name) else { continue }
        let url = changes.appendingPathComponent(device.text).appendingPathComponent(file)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try DurableFile.write(record.bytes, to: url)
      }
      throw CloudError(.networkFailure)
    }
  }

  /// Five changes and a device.json, fetched one record a batch: a kill after each.
  @Test(arguments: 1...6)
  func aKillAfterABatchsFilesAndBeforeItsStateLosesNothingAndWritesNothingTwice(killedAt batch: Int) throws {
    let family = try CloudFamily(cloud: SimulatedCloudKit(fetchBatchSize: 1))
    defer { family.remove() }
    let one = try family.open(1)
    for (number, name) in ["Mia", "Noah", "Leo", "Ava", "Zoe"].enumerated() { try one.add(number + 1, name) }
    try one.sync()
    do {
      let engine = KilledEngine(family.cloud.device(signedInAs: "family"), changes: family.store(2).appendingPathComponent("changes"), killedAt: batch)
      let killed = try family.open(2, carrier: .cloudKit(database: engine))
      try killed.sync()
    }
    let fetched = try family.files(2)
    #expect(fetched.count == batch, "every batch before the kill, and the killed one's files")

    let two = try family.open(2)  // opened again, on a healthy engine
    try two.sync()
    #expect(try family.files(2) == family.files(1), "every file once, no conflict copy")
    #expect(try two.names() == ["Ava", "Leo", "Mia", "Noah", "Zoe"])
  }
}

/// A kill between a delete request and the state that follows it: the server deleted the
/// records, the phone's state still holds them. The next sync deletes them again, where
/// `unknownItem` is success: nothing lost, nothing left.
@Suite struct CloudKitDeletionKillTests {
  /// A phone's engine whose delete reaches the server and whose answer never comes back (the
  /// process killed before the state was saved, as the exchange sees it).
  final class LostAnswerEngine: CloudDatabase {
    let engine: SimulatedCloudKit.Device
    init(_ engine: SimulatedCloudKit.Device) { self.engine = engine }
    func account() -> CloudAccount { engine.account() }
    func takeEvents() -> [CloudEvent] { engine.takeEvents() }
    func createZone() throws { try engine.createZone() }
    func save(_ records: [CloudRecord], in zone: CloudZone) throws { try engine.save(records, in: zone) }
    func delete(_ names: [String], in zone: CloudZone) throws {
      try engine.delete(names, in: zone)
      throw CloudError(.serverResponseLost)
    }
    func fetchChanges(in zone: CloudZone, since state: Data?) throws -> CloudFetch { try engine.fetchChanges(in: zone, since: state) }
  }

  @Test func aKillAfterTheDeleteRequestAndBeforeTheStateLosesNothingAndDeletesAgain() throws {
    let family = try CloudFamily()
    defer { family.remove() }
    do {
      let one = try family.open(1, carrier: .cloudKit(database: LostAnswerEngine(family.cloud.device(signedInAs: "family"))))
      for (number, name) in ["Mia", "Noah", "Leo"].enumerated() { try one.add(number + 1, name) }
      try syncInTurn(one, one)
      #expect(try one.compactChanges()?.changeFilesDeleted == 3)
      try one.sync()
      #expect(family.cloud.deleteRequestSizes == [3], "the server deleted them")
      let state = CloudSyncState.load(CloudSyncState.url(beside: family.store(1).appendingPathComponent("changes")))
      #expect(state.deleted.isEmpty, "the phone does not know it")
    }
    let files = try family.files(1)
    let one = try family.open(1)  // opened again, on a healthy engine
    try one.sync()
    #expect(try one.syncStatus()?.carrierNote == nil)
    #expect(try family.files(1) == files, "nothing lost")
    #expect(family.cloud.deleteRequestSizes == [3], "the second delete met unknownItem on each: success, nothing more sent")
    let state = CloudSyncState.load(CloudSyncState.url(beside: family.store(1).appendingPathComponent("changes")))
    #expect(state.deleted.count == 3)
    #expect(family.cloud.recordNames(of: "family") == files.keys.map { $0.replacingOccurrences(of: "/", with: "_") }.sorted())
    #expect(try family.joined(2).names() == ["Leo", "Mia", "Noah"])
  }
}
