import BabyDashboardTesting
import Foundation
import Testing

@testable import PlainStore

/// A phone without its iCloud container (signed out, iCloud Drive off, another account): the
/// store works from the app group, its commits wait in the outbox, and move into the container,
/// in order, once it is back — never mixing two accounts, never overwriting a file.
@Suite struct OutboxTests {
  /// A phone over a simulated container, its store in `phone.store` (the container is its `changes/`).
  struct Phone {
    let cloud = SimulatedUbiquityContainer()
    let store: URL
    let options: StoreOptions
    let id = testDevice(0xa1)

    init(_ scratch: ScratchFolder, account: Data? = nil, watching: Bool = false) {
      store = scratch.url.appendingPathComponent("phone.store")
      var options = StoreOptions(
        author: "phone", clock: { Sample.epoch }, watchesOtherProcesses: watching, deviceID: testDevice(0xa1).text, deviceName: "Mum's phone")
      options.transport = cloud.transport
      self.options = options
      if let account { cloud.switchAccount(to: account) }
    }

    var changes: URL { store.appendingPathComponent("changes") }
    var outbox: URL { store.appendingPathComponent("outbox") }
    func open() throws -> StoreContainer { try StoreContainer.file(at: store, schema: TestSchema.v1, options: options) }

    func add(_ container: StoreContainer, _ number: Int, _ name: String) throws {
      let context = container.newBackgroundContext()
      context.insert(Owner(id: Sample.id(number), name: name))
      try context.save()
    }

    func names(_ container: StoreContainer) throws -> [String] {
      try container.newBackgroundContext().fetch(FetchDescriptor<Owner>()).map(\.name).sorted()
    }

    /// The names of a folder's files, in every device folder it has (a phone whose first
    /// commit is made signed out takes a random id: it cannot see whether the one asked for is taken).
    func files(in folder: URL) -> [String] {
      let devices = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
      return devices.flatMap { device in
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(device).path)) ?? []).filter { !$0.hasPrefix(".") }
      }.sorted()
    }
  }

  /// Each reason iOS gives for no account, and an account token the binding cannot archive
  /// (never a constant under which every account looks the same), stops the carrier alike.
  @Test(arguments: [
    SyncStatus.UnavailableReason.signedOut, .signedOutOrDriveOff,
    .accountUnreadable("iCloud's account token could not be archived: the data couldn't be written"),
  ])
  func commitsWhileSignedOutWaitInTheOutboxAndMoveInOrderWhenICloudReturns(reason: SyncStatus.UnavailableReason) throws {
    let scratch = try ScratchFolder()
    defer { scratch.remove() }
    let phone = Phone(scratch)
    let container = try phone.open()
    try phone.add(container, 1, "Mia")
    phone.cloud.setAvailable(false, reason: reason)
    try phone.add(container, 2, "Noah")
    try phone.add(container, 3, "Leo")

    #expect(phone.files(in: phone.changes) == ["000000000001.json", "device.json"])
    #expect(phone.files(in: phone.outbox) == ["000000000002.json", "000000000003.json"])
    #expect(try phone.names(container) == ["Leo", "Mia", "Noah"], "the store works from the app group as ever")
    let status = try #require(try container.syncStatus())
    #expect(status.carrier == .unavailable(reason))
    #expect(status.outbox == ["phone.store/outbox/\(phone.id.text)/000000000002.json", "phone.store/outbox/\(phone.id.text)/000000000003.json"])
    #expect(status.outboxOldest == Sample.epoch)
    #expect(try container.sync() == nil, "nothing is read or merged while signed out")

    phone.cloud.setAvailable(true)
    _ = try container.sync()
    #expect(phone.files(in: phone.changes) == ["000000000001.json", "000000000002.json", "000000000003.json", "device.json"])
    #expect(!FileManager.default.fileExists(atPath: phone.outbox.path), "an empty outbox is no folder")
    #expect(container.statistics.outboxFilesMoved == 2)
    #expect(try container.syncStatus()?.outbox == [])
    try phone.add(container, 4, "Ava")
    #expect(phone.files(in: phone.changes).last == "device.json" && phone.files(in: phone.changes).contains("000000000004.json"))
  }

  /// A drain killed between removing its last device folder and the outbox's leaves the outbox
  /// empty: the next open removes it, and commits go straight into the container again.
  @Test func anEmptyOutboxAKilledMoveLeftIsRemovedAtTheNextOpen() throws {
    let scratch = try ScratchFolder()
    defer { scratch.remove() }
    let phone = Phone(scratch)
    try phone.add(try phone.open(), 1, "Mia")
    try FileManager.default.createDirectory(at: phone.outbox, withIntermediateDirectories: false)
    let container = try phone.open()
    #expect(!FileManager.default.fileExists(atPath: phone.outbox.path))
    try phone.add(container, 2, "Noah")
    #expect(phone.files(in: phone.changes) == ["device.json", "\(ChangeFileName.changeName(sequence: 1))", "\(ChangeFileName.changeName(sequence: 2))"].sorted())
    #expect(!FileManager.default.fileExists(atPath: phone.outbox.path), "the commit went straight into the container")
  }

  @Test func theFirstCommitOfANewPhoneWhileSignedOutPutsItsDeviceFileInTheOutboxAndOpeningMovesBoth() throws {
    let scratch = try ScratchFolder()
    defer { scratch.remove() }
    let phone = Phone(scratch)
    phone.cloud.setAvailable(false, reason: .notResolvedYet)
    do {
      let container = try phone.open()
      try phone.add(container, 1, "Mia")
      #expect(try container.syncStatus()?.carrier == .unavailable(.notResolvedYet))
    }
    #expect(phone.files(in: phone.outbox) == ["000000000001.json", "device.json"])
    #expect(!FileManager.default.fileExists(atPath: phone.changes.path), "no container is made while there is none")
    phone.cloud.setAvailable(true)
    let container = try phone.open()
    #expect(phone.files(in: phone.changes) == ["000000000001.json", "device.json"])
    #expect(try phone.names(container) == ["Mia"])
  }

  @Test func aRebuildWithTheOutboxFullFoldsItsFilesAndTheContainersOnceBack() throws {
    let scratch = try ScratchFolder()
    defer { scratch.remove() }
    let phone = Phone(scratch)
    do {
      let container = try phone.open()
      try phone.add(container, 1, "Mia")
      phone.cloud.setAvailable(false)
      try phone.add(container, 2, "Noah")
    }
    // The cache is lost while still signed out: rebuilt from what can be read, the outbox.
    try FileManager.default.removeItem(at: phone.store.appendingPathComponent("local"))
    do {
      let container = try phone.open()
      #expect(try phone.names(container) == ["Noah"])
      try phone.add(container, 3, "Leo")
      #expect(try container.syncStatus()?.thisDevice != phone.id.text, "it no longer knows its newest change there: a new id")
    }
    // Back: the container's files come back, the outbox moves, and a full rebuild agrees.
    phone.cloud.setAvailable(true)
    let container = try phone.open()
    #expect(try phone.names(container) == ["Leo", "Mia", "Noah"])
    #expect(!FileManager.default.fileExists(atPath: phone.outbox.path))
    try FileManager.default.removeItem(at: phone.store.appendingPathComponent("local"))
    #expect(try phone.names(try phone.open()) == ["Leo", "Mia", "Noah"])
  }

  @Test func aMoveThatFindsItsFileAlreadyThereWithTheSameBytesFinishesAndWithOtherBytesIsReportedAndOverwritesNothing() throws {
    let scratch = try ScratchFolder()
    defer { scratch.remove() }
    let phone = Phone(scratch)
    let container = try phone.open()
    try phone.add(container, 1, "Mia")
    phone.cloud.setAvailable(false)
    try phone.add(container, 2, "Noah")
    try phone.add(container, 3, "Leo")
    let waiting2 = phone.outbox.appendingPathComponent(phone.id.text).appendingPathComponent("000000000002.json")
    let waiting3 = phone.outbox.appendingPathComponent(phone.id.text).appendingPathComponent("000000000003.json")
    let target2 = phone.changes.appendingPathComponent(phone.id.text).appendingPathComponent("000000000002.json")
    let target3 = phone.changes.appendingPathComponent(phone.id.text).appendingPathComponent("000000000003.json")
    // A kill after the copy of 2, before its removal from the outbox: same bytes there.
    try FileManager.default.copyItem(at: waiting2, to: target2)
    // Another copy of the store wrote a 3 of its own.
    let other = try Data(contentsOf: waiting2)
    try other.write(to: target3)

    phone.cloud.setAvailable(true)
    _ = try container.sync()
    #expect(!FileManager.default.fileExists(atPath: waiting2.path), "the same bytes: the move is done")
    #expect(FileManager.default.fileExists(atPath: waiting3.path), "other bytes: kept in the outbox")
    #expect(try Data(contentsOf: target3) == other, "never overwritten")
    let blocked = try #require(try container.syncStatus()?.outboxBlocked)
    #expect(blocked.contains("phone.store/changes/\(phone.id.text)/000000000003.json") && blocked.contains("nothing was overwritten"))
    try phone.add(container, 4, "Ava")
    #expect(phone.files(in: phone.outbox) == ["000000000003.json", "000000000004.json"], "later changes wait behind it, in order")
  }

  @Test func aSwitchedAccountStopsSyncingKeepsThisPhonesDataAndNeverTouchesTheOtherAccountsContainer() throws {
    let scratch = try ScratchFolder()
    defer { scratch.remove() }
    let phone = Phone(scratch, account: Data("account A".utf8))
    let container = try phone.open()
    try phone.add(container, 1, "Mia")
    #expect(FileManager.default.fileExists(atPath: phone.store.appendingPathComponent("sync-account").path))

    phone.cloud.switchAccount(to: Data("account B".utf8))
    let touches = phone.cloud.touches
    try phone.add(container, 2, "Noah")
    #expect(try container.sync() == nil)
    let status = try #require(try container.syncStatus())
    #expect(status.carrier == .accountChanged)
    #expect(status.outbox.count == 1)
    #expect(try phone.names(container) == ["Mia", "Noah"], "this phone's data stays")
    do {  // reopened, still another account's
      let reopened = try phone.open()
      #expect(try phone.names(reopened) == ["Mia", "Noah"])
    }
    #expect(phone.cloud.touches == touches, "nothing listed, read or written in account B's container")
    #expect(phone.files(in: phone.changes) == ["000000000001.json", "device.json"])

    phone.cloud.switchAccount(to: Data("account A".utf8))
    _ = try container.sync()
    #expect(phone.files(in: phone.changes) == ["000000000001.json", "000000000002.json", "device.json"])
    #expect(try container.syncStatus()?.carrier == .available)
  }

  @Test func anAvailabilityChangeTheContainerReportsMovesTheOutboxWithNoCallFromTheApp() async throws {
    let scratch = try ScratchFolder()
    defer { scratch.remove() }
    let phone = Phone(scratch, watching: true)
    let cloud = phone.cloud
    let container = try phone.open()
    cloud.setAvailable(false)
    cloud.deliverNotifications()
    try phone.add(container, 1, "Mia")
    #expect(phone.files(in: phone.outbox) == ["000000000001.json", "device.json"])
    cloud.setAvailable(true)
    #expect(cloud.deliverNotifications(), "iOS tells the app its account is back")
    #expect(phone.files(in: phone.changes) == ["000000000001.json", "device.json"])
    #expect(!FileManager.default.fileExists(atPath: phone.outbox.path))
  }
}
