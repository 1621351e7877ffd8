import BabyDashboardTesting
import Foundation
import Testing

@testable import PlainStore

/// The iCloud Drive carrier's rules, held by the engine's own ``UbiquityTransport`` over a
/// simulated container: what is not downloaded (a placeholder, or a dataless file that keeps its
/// name) is never read, never damage and never written again; everything goes through the file
/// coordinator; a rebuild or a compaction that needs an evicted file asks for it and waits for it,
/// bounded, and says what did not come.
@Suite struct UbiquityTransportTests {
  /// A phone over a simulated container, with two of its own feeds written.
  struct Phone {
    let scratch: ScratchFolder
    let cloud: SimulatedUbiquityContainer
    let store: URL
    var options: StoreOptions
    var own: URL { store.appendingPathComponent("changes").appendingPathComponent(testDevice(0xe1).text) }

    init(downloadsFinishOnTheirOwn: Bool, downloadWait: Duration = .seconds(10)) throws {
      scratch = try ScratchFolder()
      cloud = SimulatedUbiquityContainer(downloadsFinishOnTheirOwn: downloadsFinishOnTheirOwn)
      store = scratch.url.appendingPathComponent("phone.store")
      options = StoreOptions(author: "phone", watchesOtherProcesses: false, deviceID: testDevice(0xe1).text, changeCompactionThreshold: 0)
      options.transport = cloud.transport
      options.downloadWait = downloadWait
      let phone = try StoreContainer.file(at: store, schema: TestSchema.v1, options: options)
      for (number, name) in ["Mia", "Noah"].enumerated() {
        let context = phone.newBackgroundContext()
        context.insert(Owner(id: Sample.id(number + 1), name: name))
        try context.save()
      }
    }

    func open() throws -> StoreContainer { try StoreContainer.file(at: store, schema: TestSchema.v1, options: options) }
    func names(_ container: StoreContainer) throws -> [String] {
      try container.newBackgroundContext().fetch(FetchDescriptor<Owner>()).map(\.name).sorted()
    }
  }

  @Test func aPlaceholderAndADatalessFileAreBothNotDownloadedAndNeverReadNorWrittenAgain() throws {
    let phone = try Phone(downloadsFinishOnTheirOwn: false)
    defer { phone.scratch.remove() }
    let transport = phone.cloud.transport
    let first = phone.own.appendingPathComponent("000000000001.json").path
    let second = phone.own.appendingPathComponent("000000000002.json").path
    try phone.cloud.evict(first)
    try phone.cloud.evictInPlace(second)

    let listing = transport.list(phone.own.path)
    #expect(listing.notDownloaded == ["000000000001.json", "000000000002.json"])
    #expect(!listing.arrived.contains { $0.hasSuffix(".icloud") || $0.hasPrefix("0000") })
    let coordinatedBefore = phone.cloud.coordinated.count
    #expect(try transport.read(atPath: first, displayPath: "first") == nil)
    #expect(try transport.read(atPath: second, displayPath: "second") == nil, "an empty dataless file is not an empty change")
    #expect(phone.cloud.coordinated.count == coordinatedBefore, "a coordinated read would wait for iCloud to fetch it")
    #expect(try !transport.createOnce(Data("x".utf8), atPath: first, displayPath: "first"))
    #expect(try !transport.createOnce(Data("x".utf8), atPath: second, displayPath: "second"))
    #expect(!FileManager.default.fileExists(atPath: first), "nothing written beside its placeholder")
    #expect(try Data(contentsOf: URL(fileURLWithPath: second)).isEmpty, "the dataless file is left as it is")
  }

  @Test func everyReadAndWriteOfTheStoreGoesThroughTheFileCoordinator() throws {
    let phone = try Phone(downloadsFinishOnTheirOwn: false)
    defer { phone.scratch.remove() }
    let written = Set(phone.cloud.coordinated)
    let files = try FileManager.default.contentsOfDirectory(atPath: phone.own.path).map { phone.own.appendingPathComponent($0).path }
    #expect(!files.isEmpty)
    for file in files { #expect(written.contains(file), "\(file) was created inside a coordinated write") }
  }

  @Test func aRebuildThatNeedsEvictedFilesWaitsForTheirDownloadAndShowsEverything() throws {
    let phone = try Phone(downloadsFinishOnTheirOwn: true)
    defer { phone.scratch.remove() }
    try phone.cloud.evict(phone.own.appendingPathComponent("000000000001.json").path)
    try phone.cloud.evictInPlace(phone.own.appendingPathComponent("000000000002.json").path)
    try FileManager.default.removeItem(at: phone.store.appendingPathComponent("local"))

    let container = try phone.open()
    #expect(try phone.names(container) == ["Mia", "Noah"], "the downloads came while the rebuild waited")
    #expect(try container.syncStatus()?.notDownloaded == [])
  }

  @Test func aRebuildWhoseDownloadsDoNotComeStopsWaitingAndSaysWhatItWaitsFor() throws {
    let phone = try Phone(downloadsFinishOnTheirOwn: false, downloadWait: .milliseconds(200))
    defer { phone.scratch.remove() }
    let file = phone.own.appendingPathComponent("000000000002.json").path
    try phone.cloud.evictInPlace(file)
    try FileManager.default.removeItem(at: phone.store.appendingPathComponent("local"))

    let started = ContinuousClock.now
    let container = try phone.open()
    #expect(ContinuousClock.now - started >= .milliseconds(200), "it waited")
    #expect(try phone.names(container) == ["Mia"])
    #expect(phone.cloud.requested == [file], "and asked")
    #expect(try container.syncStatus()?.waitingForDownload == ["phone.store/changes/\(testDevice(0xe1).text)/000000000002.json"])
  }

  @Test func aCompactionThatNeedsAnEvictedOwnSnapshotWaitsForItsDownloadThenCompacts() throws {
    let phone = try Phone(downloadsFinishOnTheirOwn: true)
    defer { phone.scratch.remove() }
    let first = try #require(try phone.open().compactChanges())
    #expect(first.snapshotWritten != nil && first.changeFilesDeleted == 2)
    let snapshot = phone.own.appendingPathComponent(ChangeFileName.snapshotName(number: 1)).path
    try phone.cloud.evict(snapshot)
    let container = try phone.open()
    let context = container.newBackgroundContext()
    context.insert(Owner(id: Sample.id(3), name: "Leo"))
    try context.save()

    let second = try #require(try container.compactChanges())
    #expect(second.waitingForDownload == [])
    #expect(second.snapshotWritten != nil && second.snapshotsDeleted == 1, "the old snapshot was read, then replaced")
    try FileManager.default.removeItem(at: phone.store.appendingPathComponent("local"))
    #expect(try phone.names(try phone.open()) == ["Leo", "Mia", "Noah"])
  }

  @Test func aCompactionWhoseSnapshotDoesNotComeWritesAndDeletesNothingAndNamesIt() throws {
    let phone = try Phone(downloadsFinishOnTheirOwn: false, downloadWait: .milliseconds(100))
    defer { phone.scratch.remove() }
    _ = try phone.open().compactChanges()
    let name = ChangeFileName.snapshotName(number: 1)
    try phone.cloud.evict(phone.own.appendingPathComponent(name).path)
    let before = try FileManager.default.contentsOfDirectory(atPath: phone.own.path).sorted()

    let report = try #require(try phone.open().compactChanges())
    #expect(report.waitingForDownload == ["phone.store/changes/\(testDevice(0xe1).text)/\(name)"])
    #expect(report.snapshotWritten == nil && report.snapshotsDeleted == 0 && report.changeFilesDeleted == 0)
    #expect(try FileManager.default.contentsOfDirectory(atPath: phone.own.path).sorted() == before)
  }
}
