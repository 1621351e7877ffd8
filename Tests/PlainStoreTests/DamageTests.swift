import BabyDashboardTesting
import Foundation
import PlainStore
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Every kind of damage is a StoreError that names the file, and leaves every file as it was.
@Suite struct DamageTests {
  /// A compacted store with a log entry after the manifest: every kind of file exists.
  func makeStore() throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("PlainStoreDamage-\(UUID().uuidString)")
    let url = folder.appendingPathComponent("Family.store")
    let container = try StoreContainer.file(at: url, schema: TestSchema.v1, options: Sample.options)
    let context = container.newBackgroundContext()
    context.insert(Owner(id: Sample.id(1), name: "Mia"))
    context.insert(Event(uuid: Sample.id(2), ownerID: Sample.id(1), at: Sample.epoch, title: "feed", amount: 90))
    try context.save()
    try container.compact()
    context.insert(Owner(id: Sample.id(3), name: "Noah"))
    try context.save()
    return url
  }

  func path(_ url: URL, _ name: String) -> URL { url.appendingPathComponent(name) }
  var ownChange: String { "changes/\(Sample.device)/000000000002.json" }

  /// Damage that only the store's truth can suffer, or that a newer program caused: refused,
  /// naming the file, with every file left as it was.
  enum Refused: String, CaseIterable, Sendable {
    case truncatedOwnChange, flippedOwnChange, newerFormatLog, newerSchema, notJSONHeader
  }

  func apply(_ damage: Refused, to url: URL) throws -> (file: String, code: StoreError.Code) {
    // Once the journal is settled, the change file is the only copy of its commit (a commit's
    // journal record would put a change file cut short by a power loss back).
    try FileManager.default.removeItem(at: path(url, "local/journal"))
    switch damage {
    case .truncatedOwnChange:
      let data = try Data(contentsOf: path(url, ownChange))
      try data.prefix(data.count / 2).write(to: path(url, ownChange))
      return (ownChange, .damaged)
    case .flippedOwnChange:
      var data = try Data(contentsOf: path(url, ownChange))
      data[data.count / 2] ^= 0x01
      try data.write(to: path(url, ownChange))
      return (ownChange, .damaged)
    case .newerFormatLog:
      try LocalLogFile(store: url).replace(2, with: #"{"formatVersion":7,"sequence":2}"#)
      return ("local/log/00000002.log", .newerFormat(7))
    case .newerSchema:
      var text = try String(contentsOf: path(url, "store.json"), encoding: .utf8)
      text = text.replacingOccurrences(of: #""schemaVersion":1"#, with: #""schemaVersion":2"#)
      try Data(text.utf8).write(to: path(url, "store.json"))
      return ("store.json", .newerSchema(2))
    case .notJSONHeader:
      try Data("hello".utf8).write(to: path(url, "store.json"))
      return ("store.json", .damaged)
    }
  }

  @Test(arguments: Refused.allCases)
  func damageIsReportedByNameAndChangesNothing(_ damage: Refused) throws {
    let url = try makeStore()
    defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
    let (file, code) = try apply(damage, to: url)
    let before = try snapshotFiles(url)
    var failure: StoreError?
    do {
      let container = try StoreContainer.file(at: url, schema: TestSchema.v1)
      let context = container.newBackgroundContext()
      _ = try context.fetch(FetchDescriptor<Event>())
      context.insert(Owner(id: Sample.id(4), name: "Ava"))
      try context.save()
    } catch let error as StoreError {
      failure = error
    }
    let error = try #require(failure, "\(damage) went unnoticed")
    #expect(error.code == code)
    #expect(error.path == "Family.store/" + file)
    #expect(error.description.contains(file))
    #expect(try snapshotFiles(url) == before)
  }

  /// Damage to the cache in local/: rebuilt from the change files, with all data.
  enum CacheDamage: String, CaseIterable, Sendable {
    case truncatedManifest, missingManifest, damagedLog, flippedLogRecord, unfinishedLogRecord, missingLog, missingOlderLog
    case truncatedSegment, missingSegment, missingDeviceID, missingCacheFolder, emptiedSegment, missingLogFolder, missingSegmentsFolder, missingLock
  }

  func apply(_ damage: CacheDamage, to url: URL) throws {
    let segment = path(url, "local/segments/Event.2026-01.00000001.json")
    switch damage {
    case .truncatedManifest:
      let data = try Data(contentsOf: path(url, "local/manifest.json"))
      try data.prefix(data.count / 2).write(to: path(url, "local/manifest.json"))
    case .missingManifest:
      try FileManager.default.removeItem(at: path(url, "local/manifest.json"))
    case .damagedLog:
      try LocalLogFile(store: url).replace(2, with: #"{"formatVersion":2,"sequence":2,"author":"x""#)
    case .flippedLogRecord:
      var data = try Data(contentsOf: path(url, "local/log/00000002.log"))
      data[data.count - 3] ^= 0x01
      try data.write(to: path(url, "local/log/00000002.log"))
    case .unfinishedLogRecord:  // what a writer killed in the middle of an append leaves
      let data = try Data(contentsOf: path(url, "local/log/00000002.log"))
      try (data + Data("entry 0000000000".utf8)).write(to: path(url, "local/log/00000002.log"))
    case .missingLog:
      try FileManager.default.removeItem(at: path(url, "local/log/00000002.log"))
    case .missingOlderLog:
      try FileManager.default.removeItem(at: path(url, "local/log/00000001.log"))
    case .truncatedSegment:
      let data = try Data(contentsOf: segment)
      try data.prefix(10).write(to: segment)
    case .missingSegment:
      try FileManager.default.removeItem(at: segment)
    case .missingDeviceID:
      try FileManager.default.removeItem(at: path(url, "device-id"))
    case .missingCacheFolder:
      try FileManager.default.removeItem(at: path(url, "local"))
    case .emptiedSegment:
      try Data().write(to: segment)
    case .missingLogFolder:
      try FileManager.default.removeItem(at: path(url, "local/log"))
    case .missingSegmentsFolder:
      try FileManager.default.removeItem(at: path(url, "local/segments"))
    case .missingLock:
      try FileManager.default.removeItem(at: path(url, "local/lock"))
    }
  }

  @Test(arguments: CacheDamage.allCases)
  func aDamagedCacheIsRebuiltWithAllData(_ damage: CacheDamage) throws {
    let url = try makeStore()
    defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
    let changesBefore = try snapshotFiles(path(url, "changes"))
    try apply(damage, to: url)
    let container = try StoreContainer.file(at: url, schema: TestSchema.v1)
    let context = container.newBackgroundContext()
    #expect(try context.fetch(FetchDescriptor<Owner>(sortBy: [SortDescriptor(\.name)])).map(\.name) == ["Mia", "Noah"])
    #expect(try context.fetch(FetchDescriptor<Event>()).map(\.title) == ["feed"])
    #expect(try snapshotFiles(path(url, "changes")) == changesBefore, "the truth is never rewritten")
    context.insert(Owner(id: Sample.id(4), name: "Ava"))
    try context.save()
    let reopened = try StoreContainer.file(at: url, schema: TestSchema.v1)
    #expect(try reopened.newBackgroundContext().fetchCount(FetchDescriptor<Owner>()) == 3)
    #expect(reopened.statistics.cacheRebuilds == 0, "the rebuilt cache is whole")
  }

  /// Damage inside a segment that keeps its size is found when the segment is read (it no
  /// longer matches its checksum, or does not parse): the cache is rebuilt there and then, and
  /// the read returns all data.
  @Test(arguments: [UInt8(ascii: "{"), UInt8(ascii: "7")])
  func aSegmentDamagedInsideIsRebuiltWhenItIsRead(_ byte: UInt8) throws {
    let url = try makeStore()
    defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
    let segment = path(url, "local/segments/Event.2026-01.00000001.json")
    var data = try Data(contentsOf: segment)
    data[data.count / 2] = byte
    try data.write(to: segment)
    let first = try StoreContainer.file(at: url, schema: TestSchema.v1)
    #expect(try first.newBackgroundContext().fetch(FetchDescriptor<Event>()).map(\.amount) == [90])
    #expect(first.statistics.cacheRebuilds == 1)
    #expect(first.cacheRebuildReason?.contains("Family.store/local/segments/Event.2026-01.00000001.json") == true)
    let second = try StoreContainer.file(at: url, schema: TestSchema.v1)
    #expect(try second.newBackgroundContext().fetch(FetchDescriptor<Event>()).map(\.amount) == [90])
    #expect(second.statistics.cacheRebuilds == 0, "the rebuilt cache is whole")
  }

  /// A save catches up with another process's commit, then finds a segment it reads damaged:
  /// the rebuild keeps the notice of that commit, and the observers hear of it, as a reload
  /// (the whole cache was replaced). Before, the rebuild dropped it, and a live query of this
  /// process never showed the other process's object until something else changed.
  @Test func anotherProcesssCommitNoticedBeforeARebuildIsStillAnnounced() async throws {
    let url = try makeStore()
    defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
    var options = Sample.options
    options.watchesOtherProcesses = false
    let app = try StoreContainer.file(at: url, schema: TestSchema.v1, options: options)
    let changes = app.remoteChanges()
    let widget = try StoreContainer.file(at: url, schema: TestSchema.v1, options: options).newBackgroundContext()
    widget.insert(Owner(id: Sample.id(4), name: "Ava"))
    try widget.save()
    let segment = path(url, "local/segments/Event.2026-01.00000001.json")
    var data = try Data(contentsOf: segment)
    data[data.count / 2] = UInt8(ascii: "{")
    try data.write(to: segment)

    let context = app.newBackgroundContext()
    context.update(Event(uuid: Sample.id(2), ownerID: Sample.id(1), at: Sample.epoch, title: "bottle", amount: 90))
    try context.save()
    #expect(app.statistics.cacheRebuilds == 1)
    let change = try #require(await firstElement(of: changes, within: .seconds(10)), "the widget's commit was never announced")
    #expect(change.reloaded)
    #expect(try context.fetch(FetchDescriptor<Owner>()).map(\.name).sorted() == ["Ava", "Mia", "Noah"])
  }

  /// Opening reads the manifest, not the segment files: a truncated segment costs nothing until
  /// it is read, and then its size gives it away and the cache is rebuilt on the spot — also when
  /// the reader is the merge of a change another device made.
  @Test(arguments: [false, true])
  func aTruncatedSegmentIsRebuiltWhenFirstRead(byAMerge: Bool) throws {
    let url = try makeStore()
    defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
    let segment = path(url, "local/segments/Event.2026-01.00000001.json")
    let data = try Data(contentsOf: segment)
    try data.prefix(data.count - 1).write(to: segment)
    if byAMerge {
      // Another device's copy of the store edits the event; its change file arrives, and the
      // merge reads the event's month.
      let other = url.deletingLastPathComponent().appendingPathComponent("Other.store")
      try FileManager.default.copyItem(at: url.appendingPathComponent("changes"), to: other.appendingPathComponent("changes"))
      let otherDevice = "0000000000000000000000000000d002"
      let options = StoreOptions(author: "test", clock: Sample.fixedClock, deviceID: otherDevice)
      let context = try StoreContainer.file(at: other, schema: TestSchema.v1, options: options).newBackgroundContext()
      var event = try #require(try context.fetch(FetchDescriptor<Event>()).first)
      event.title = "bottle"
      context.update(event)
      try context.save()
      try FileManager.default.copyItem(
        at: other.appendingPathComponent("changes/\(otherDevice)"), to: url.appendingPathComponent("changes/\(otherDevice)"))
    }
    let container = try StoreContainer.file(at: url, schema: TestSchema.v1)
    #expect(container.statistics.cacheRebuilds == (byAMerge ? 1 : 0))
    #expect(try container.newBackgroundContext().fetch(FetchDescriptor<Event>()).map(\.amount) == [90])
    #expect(container.statistics.cacheRebuilds == 1)
    #expect(container.cacheRebuildReason?.contains("Event.2026-01.00000001.json': holds \(data.count - 1) bytes where manifest.json says \(data.count)") == true)
    let owners = try container.newBackgroundContext().fetch(FetchDescriptor<Owner>()).map(\.name).sorted()
    #expect(owners == ["Mia", "Noah"])
    #expect(try container.newBackgroundContext().fetch(FetchDescriptor<Event>()).map(\.title) == [byAMerge ? "bottle" : "feed"])
  }

  /// Names read from files become paths only once proved to stay inside the store: a crafted
  /// segment name in the log or the manifest is damage (the cache is rebuilt), and nothing is
  /// ever created outside.
  @Test(arguments: ["local/log/00000002.log", "local/manifest.json"])
  func aCraftedSegmentNameLeadsNowhere(_ file: String) throws {
    let url = try makeStore()
    defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
    let outside = url.deletingLastPathComponent().appendingPathComponent("outside")
    let craft = { (text: String) in
      text.replacingOccurrences(of: "Owner.all.00000001.json", with: "../../outside/x.json")
        .replacingOccurrences(of: #""segment":"all""#, with: #""segment":"../../outside/x""#)
    }
    if file.hasPrefix("local/log/") {
      // The record stays whole: what it says is the damage.
      let log = LocalLogFile(store: url)
      try #require(craft(try log.json(of: 2)) != (try log.json(of: 2)))
      try log.replace(2, with: craft(try log.json(of: 2)))
    } else {
      let crafted = craft(try String(contentsOf: path(url, file), encoding: .utf8))
      try #require(crafted != (try String(contentsOf: path(url, file), encoding: .utf8)))
      try Data(crafted.utf8).write(to: path(url, file))
    }
    let container = try StoreContainer.file(at: url, schema: TestSchema.v1)
    let context = container.newBackgroundContext()
    context.insert(Owner(id: Sample.id(4), name: "Ava"))
    try context.save()
    try container.compact()
    #expect(try context.fetchCount(FetchDescriptor<Owner>()) == 3)
    #expect(container.statistics.cacheRebuilds == 1)
    #expect(!FileManager.default.fileExists(atPath: outside.path))
  }

  @Test func compactionLeavesFilesItDidNotWrite() throws {
    let url = try makeStore()
    defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
    let mine = path(url, "local/segments/notes.txt")
    try Data("mine".utf8).write(to: mine)
    let container = try StoreContainer.file(at: url, schema: TestSchema.v1)
    let context = container.newBackgroundContext()
    context.insert(Owner(id: Sample.id(4), name: "Ava"))
    try context.save()
    try container.compact()
    #expect(try Data(contentsOf: mine) == Data("mine".utf8))
  }

  /// A FIFO in place of a store file never hangs a process: in the cache it is damage (rebuilt),
  /// in place of store.json it is refused. Run in a child under a deadline, so a hang fails.
  @Test(arguments: ["local/manifest.json", "store.json"])
  func aFIFOInPlaceOfAFileNeverHangs(_ file: String) throws {
    let folder = MultiProcessFolder()
    defer { folder.remove() }
    do {
      let container = try folder.open(StoreOptions(author: "setup", watchesOtherProcesses: false))
      let context = container.newBackgroundContext()
      context.insert(MultiProcessItem(id: Sample.id(1), writer: "w", batch: 1, part: 0, at: Sample.epoch))
      try context.save()
      try container.compact()
    }
    let target = folder.store.appendingPathComponent(file)
    try FileManager.default.removeItem(at: target)
    try #require(mkfifo(target.path, 0o600) == 0)
    let child = try MultiProcessChild(["open", folder.store.path])
    let line = child.waitForLine(startingWith: "opened", timeout: .seconds(30))
    let status = child.waitForExit(timeout: .seconds(30))  // a hang is killed and recorded as an issue
    if file == "store.json" {
      #expect(status == 1 && child.errorText.contains("store.json"), "\(status): \(child.errorText)")
    } else {
      #expect(line == "opened 1", "\(String(describing: line)), exit \(status): \(child.errorText)")
    }
  }

  /// A context with one new owner on a store whose flock this process holds, as another
  /// process would; the store waits 200 ms for it.
  func contextWhileTheLockIsHeld(_ url: URL, hint: String? = nil, _ body: (StoreContext) throws -> Void) throws {
    var options = Sample.options
    options.lockTimeout = .milliseconds(200)
    options.lockHolderHint = hint
    let container = try StoreContainer.file(at: url, schema: TestSchema.v1, options: options)
    let fd = open(url.appendingPathComponent("local/lock").path, O_RDWR)
    #expect(flock(fd, LOCK_EX) == 0)
    defer {  // let go, not only closed: a starting child may share it
      flock(fd, LOCK_UN)
      close(fd)
    }
    let context = container.newBackgroundContext()
    context.insert(Owner(id: Sample.id(4), name: "Ava"))
    try body(context)
  }

  @Test func aLockHeldTooLongIsReportedAsLocked() throws {
    let url = try makeStore()
    defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
    try contextWhileTheLockIsHeld(url) { context in
      let before = try snapshotFiles(url)
      #expect {
        try context.save()
      } throws: { error in
        let error = try #require(error as? StoreError)
        return error.code == .locked && error.path == "Family.store/local/lock"
      }
      #expect(try snapshotFiles(url) == before)
      #expect(context.hasChanges)
    }
  }

  @Test(arguments: [
    (String?.none, "let it finish or quit it, then try again."),
    ("the editor or a script", "let it finish or quit it (the editor or a script), then try again."),
  ])
  func aLockTimeoutNamesTheHoldersTheOptionsName(hint: String?, ending: String) throws {
    let url = try makeStore()
    defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
    try contextWhileTheLockIsHeld(url, hint: hint) { context in
      #expect {
        try context.save()
      } throws: { error in
        let error = try #require(error as? StoreError)
        return error.code == .locked && error.detail.hasSuffix(ending)
      }
    }
  }


  @Test func aFolderWithoutStoreJSONIsNotTakenOver() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("PlainStoreForeign-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try Data("mine".utf8).write(to: folder.appendingPathComponent("notes.txt"))
    #expect {
      _ = try StoreContainer.file(at: folder, schema: TestSchema.v1)
    } throws: { error in
      (error as? StoreError)?.code == .missing
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["notes.txt"])
  }

  @Test func leftoverTemporaryFilesAreIgnoredThenCleaned() throws {
    let url = try makeStore()
    defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
    let leftover = url.appendingPathComponent("local/log/.00000003.json.123.456.tmp")
    try Data("{half".utf8).write(to: leftover)
    let container = try StoreContainer.file(at: url, schema: TestSchema.v1)
    let context = container.newBackgroundContext()
    #expect(try context.fetchCount(FetchDescriptor<Owner>()) == 2)
    context.insert(Owner(id: Sample.id(4), name: "Ava"))
    try context.save()
    #expect(!FileManager.default.fileExists(atPath: leftover.path))
  }
}
