import BabyDashboardTesting
import Foundation
import Testing

@testable import PlainStore

/// Change files that a sync engine brings into the sync folder reach an open live query on
/// their own: the folder is watched, and no call from the app (no `sync()`, no `refresh()`, no
/// save) is needed.
@Suite struct ArrivalWatchTests {
  /// A store that watches, as an app's does, beside a device that writes.
  struct Pair {
    let scratch: ScratchFolder
    let writer: SyncedDevice
    let store: URL
    let container: StoreContainer

    init() throws {
      scratch = try ScratchFolder()
      let clock = TestClock(Sample.epoch)
      writer = SyncedDevice(scratch.url, 1, clock)
      store = scratch.url.appendingPathComponent("phone.store")
      container = try StoreContainer.file(
        at: store, schema: TestSchema.v1,
        options: StoreOptions(author: "phone", clock: { clock.read() }, watchesOtherProcesses: true, deviceID: testDevice(0xe1).text))
    }

    /// What a sync engine does: copies every file of the writer's folder that the phone lacks.
    func carry() throws {
      let source = writer.changes.appendingPathComponent(writer.id.text)
      let target = store.appendingPathComponent("changes").appendingPathComponent(writer.id.text)
      try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
      for name in try FileManager.default.contentsOfDirectory(atPath: source.path)
      where !FileManager.default.fileExists(atPath: target.appendingPathComponent(name).path) {
        try FileManager.default.copyItem(at: source.appendingPathComponent(name), to: target.appendingPathComponent(name))
      }
    }
  }

  @MainActor @Test func aChangeFileDroppedIntoTheSyncFolderUpdatesAnOpenLiveQueryWithinASecond() async throws {
    let pair = try Pair()
    defer { pair.scratch.remove() }
    let query = try pair.container.liveQuery(FetchDescriptor<Owner>(sortBy: [SortDescriptor(\.name)]))
    #expect(query.results.isEmpty)

    // The first file of a device the phone has never heard of: its folder is new too.
    try pair.writer.write { $0.insert(Owner(id: Sample.id(1), name: "Mia")) }
    try pair.carry()
    #expect(await waitUntil(query, within: .seconds(1)) { $0.map(\.name) == ["Mia"] })

    // The next one lands in a folder watched already.
    try pair.writer.write { $0.insert(Owner(id: Sample.id(2), name: "Noah")) }
    try pair.carry()
    #expect(await waitUntil(query, within: .seconds(1)) { $0.map(\.name) == ["Mia", "Noah"] })
    #expect(try pair.container.history(after: nil).map(\.author) == ["sync", "sync"], "merged as arrivals, one at a time")
  }

  /// A sync engine that writes a temporary file and renames it into place (Syncthing) makes an
  /// event for its temporary name first: that one is ignored, the rename is the arrival.
  @MainActor @Test func aFileRenamedIntoPlaceArrivesAndTheEnginesTemporaryFileDoesNot() async throws {
    let pair = try Pair()
    defer { pair.scratch.remove() }
    let changes = pair.container.remoteChanges()
    try pair.writer.write { $0.insert(Owner(id: Sample.id(1), name: "Mia")) }
    let source = pair.writer.changes.appendingPathComponent(pair.writer.id.text)
    let target = pair.store.appendingPathComponent("changes").appendingPathComponent(pair.writer.id.text)
    try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
    for name in try FileManager.default.contentsOfDirectory(atPath: source.path) {
      let temporary = target.appendingPathComponent(".syncthing.\(name).tmp")
      try FileManager.default.copyItem(at: source.appendingPathComponent(name), to: temporary)
      try FileManager.default.moveItem(at: temporary, to: target.appendingPathComponent(name))
    }
    let change = try #require(await firstElement(of: changes, within: .seconds(1)))
    #expect(change.transactions.map(\.author) == ["sync"])
    #expect(try pair.container.newBackgroundContext().fetch(FetchDescriptor<Owner>()).map(\.name) == ["Mia"])
  }

  /// Without watching, nothing arrives until the app asks: the test above can fail.
  @Test func aContainerThatDoesNotWatchMergesOnlyWhenAsked() throws {
    let pair = try Pair()
    defer { pair.scratch.remove() }
    pair.container.stopWatching()
    try pair.writer.write { $0.insert(Owner(id: Sample.id(1), name: "Mia")) }
    try pair.carry()
    #expect(try pair.container.history(after: nil).isEmpty)
    #expect(try pair.container.sync()?.author == "sync")
  }
}
