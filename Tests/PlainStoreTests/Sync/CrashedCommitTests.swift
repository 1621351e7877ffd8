import Foundation
import Testing

@testable import PlainStore

/// A process killed after its change file was durable but before the cache recorded it leaves a
/// change file that no transaction folded. The next commit of the device must neither overwrite
/// it nor lose it.
@Suite struct CrashedCommitTests {
  @Test func aChangeFileLeftByACrashedCommitIsKeptAndMergedByTheNextCommit() throws {
    try withTemporaryStore { container in
      let context = container.newBackgroundContext()
      context.insert(Owner(id: Sample.id(1), name: "Mia"))
      try context.save()
      // What the crashed process wrote: change 2, durable, with no log entry in local/.
      let device = DeviceID(Sample.device)!
      let orphan = Owner(id: Sample.id(2), name: "Noah")
      let folder = ChangeFolder(url: container.directory!.appendingPathComponent("changes"), displayName: "changes")
      try folder.write(
        ChangeFile(
          device: device, sequence: 2, hlc: HybridLogicalClock.wallBits(Sample.epoch) + 50, author: "crashed", timestamp: Sample.epoch,
          schemaVersion: 1, objects: [ObjectChange(entity: "Owner", id: orphan.id, kind: .upsert, fields: try EntityFields.of(orphan))]))
      let orphanBytes = try Data(contentsOf: folder.deviceURL(device).appendingPathComponent("000000000002.json"))

      context.insert(Owner(id: Sample.id(3), name: "Ava"))
      try context.save()
      #expect(try Data(contentsOf: folder.deviceURL(device).appendingPathComponent("000000000002.json")) == orphanBytes)
      #expect(FileManager.default.fileExists(atPath: folder.deviceURL(device).appendingPathComponent("000000000003.json").path))
      let names = { (container: StoreContainer) in
        try container.newBackgroundContext().fetch(FetchDescriptor<Owner>(sortBy: [SortDescriptor(\.name)])).map(\.name)
      }
      #expect(try names(container) == ["Ava", "Mia", "Noah"])
      let id = try String(contentsOf: container.directory!.appendingPathComponent("device-id"), encoding: .utf8)
      #expect(id == Sample.device + "\n", "a crashed commit of this copy is not another copy: the id stays")
      #expect(try names(try StoreContainer.file(at: container.directory!, schema: TestSchema.v1)) == ["Ava", "Mia", "Noah"])
    }
  }
}
