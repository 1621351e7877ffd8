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
    func save(_ records: [CloudRecord]) throws { try engine.save(records) }
    func fetchChanges(since state: Data?) throws -> CloudFetch {
      let batch = try engine.fetchChanges(since: state)
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
