import Foundation
import Testing

@testable import PlainStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A commit flushes one file, `local/journal`, and creates its change file without a flush.
/// What a power loss can do to unflushed files — take a new name, leave a file empty — is done
/// here by hand, and every commit that returned must be there after the next open, with its
/// change file back, whole, under its own name.
@Suite struct CommitJournalTests {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent("PlainStoreJournal-\(UUID().uuidString)")
  var url: URL { folder.appendingPathComponent("Family.store") }
  var ownFolder: URL { url.appendingPathComponent("changes/\(Sample.device)") }
  var journalURL: URL { url.appendingPathComponent("local/journal") }

  /// Three commits, each one owner; returns the change files' bytes by name.
  func commitThree() throws -> [String: Data] {
    let container = try StoreContainer.file(at: url, schema: TestSchema.v1, options: Sample.options)
    let context = container.newBackgroundContext()
    for (index, name) in ["Mia", "Noah", "Ava"].enumerated() {
      context.insert(Owner(id: Sample.id(index + 1), name: name))
      try context.save()
    }
    return try changeFiles()
  }

  func changeFiles() throws -> [String: Data] {
    var files: [String: Data] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: ownFolder.path) where name.hasSuffix(".json") && name != "device.json" {
      files[name] = try Data(contentsOf: ownFolder.appendingPathComponent(name))
    }
    return files
  }

  func owners() throws -> [String] {
    let container = try StoreContainer.file(at: url, schema: TestSchema.v1, options: Sample.options)
    return try container.newBackgroundContext().fetch(FetchDescriptor<Owner>(sortBy: [SortDescriptor(\.name)])).map(\.name)
  }

  @Test func everyCommitIsInTheJournalUntilItIsSettled() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let written = try commitThree()
    let records = CommitJournal.parse([UInt8](try Data(contentsOf: journalURL)))
    #expect(records.map(\.sequence) == [1, 2, 3])
    for record in records { #expect(written[record.fileName] == record.bytes, "a record holds its change file's bytes") }
  }

  /// The renames a power loss took: the change files are not there, only the journal is.
  @Test func changeFilesAPowerLossTookComeBackFromTheJournal() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let written = try commitThree()
    for name in written.keys { try FileManager.default.removeItem(at: ownFolder.appendingPathComponent(name)) }
    try FileManager.default.removeItem(at: url.appendingPathComponent("local/log"))  // the cache's unflushed files went too
    let reopened = try StoreContainer.file(at: url, schema: TestSchema.v1, options: Sample.options)
    #expect(reopened.changeFilesRestored == written.keys.sorted().map { "Family.store/changes/\(Sample.device)/\($0)" })
    #expect(try owners() == ["Ava", "Mia", "Noah"])
    #expect(try changeFiles() == written, "the same bytes under the same names")
    #expect(try Data(contentsOf: journalURL).isEmpty, "settled: the files are on disk, the journal is empty")
  }

  /// A file whose name reached the disk but whose data did not: empty, or cut short.
  @Test(arguments: [0, 40])
  func aChangeFileLeftShortByAPowerLossIsWrittenAgain(_ length: Int) throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let written = try commitThree()
    let name = ChangeFileName.changeName(sequence: 2)
    try written[name]!.prefix(length).write(to: ownFolder.appendingPathComponent(name))
    #expect(try owners() == ["Ava", "Mia", "Noah"], "no refusal of this device's own file: the journal has it whole")
    #expect(try changeFiles() == written)
  }

  /// A commit killed between its record and its change file never returned; a later commit of
  /// another process took its sequence. The journal's record is passed over, not written over
  /// the later commit's file.
  @Test func aRecordWhoseSequenceALaterCommitTookIsPassedOver() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let written = try commitThree()
    let journal = CommitJournal(url: journalURL, displayPath: "local/journal")
    try journal.empty()
    let other = ChangeFile(
      device: DeviceID(Sample.device)!, sequence: 3, hlc: 1, author: "killed", timestamp: Sample.epoch, schemaVersion: 1, objects: [])
    try journal.append(CommitJournal.Record(device: DeviceID(Sample.device)!, sequence: 3, bytes: try ChangeFileCodec.encode(other)))
    try FileManager.default.removeItem(at: url.appendingPathComponent("local/log"))
    #expect(try owners() == ["Ava", "Mia", "Noah"])
    #expect(try changeFiles() == written)
  }

  /// What a power loss in the middle of an append leaves: a header and part of its bytes. The
  /// commit never returned, so it is not there; every whole record before and after is read.
  @Test func aTornRecordIsSkippedAndTheRecordsAroundItAreRead() throws {
    let device = DeviceID(Sample.device)!
    let records = (1...3).map { CommitJournal.Record(device: device, sequence: $0, bytes: Data("{\"n\":\($0)}\n".utf8)) }
    func framed(_ record: CommitJournal.Record) -> [UInt8] { CommitJournal.header(record) + [UInt8](record.bytes) }
    let torn = framed(records[1]).dropLast(4)
    #expect(CommitJournal.parse(framed(records[0]) + torn) == [records[0]])
    #expect(CommitJournal.parse(framed(records[0]) + torn + [UInt8(ascii: "\n")] + framed(records[2])) == [records[0], records[2]])
    #expect(CommitJournal.parse(framed(records[0]) + torn + framed(records[2])) == [records[0], records[2]], "appended right after the torn bytes")
    var flipped = framed(records[1])
    flipped[flipped.count - 3] ^= 0x20
    #expect(CommitJournal.parse(framed(records[0]) + flipped + framed(records[2])) == [records[0], records[2]])
    #expect(CommitJournal.parse(Array("journal zz\n".utf8) + framed(records[2])) == [records[2]])
  }

  /// A power loss tore a record at the journal's end, and nothing needed settling at the next
  /// open, so the torn bytes stay; the next commit's record follows them directly. When a
  /// second power loss takes that commit's change file, the journal still brings it back.
  @Test func aCommitAfterATornRecordComesBackFromTheJournal() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let written = try commitThree()
    let records = CommitJournal.parse([UInt8](try Data(contentsOf: journalURL)))
    let handle = try FileHandle(forWritingTo: journalURL)
    try handle.seekToEnd()
    try handle.write(contentsOf: CommitJournal.header(records[0]) + [UInt8](records[0].bytes.prefix(40)))
    try handle.close()
    let context = try StoreContainer.file(at: url, schema: TestSchema.v1, options: Sample.options).newBackgroundContext()
    context.insert(Owner(id: Sample.id(9), name: "Zoe"))
    try context.save()
    let name = ChangeFileName.changeName(sequence: 4)
    let zoe = try Data(contentsOf: ownFolder.appendingPathComponent(name))
    try FileManager.default.removeItem(at: ownFolder.appendingPathComponent(name))
    try FileManager.default.removeItem(at: url.appendingPathComponent("local/log"))  // the cache's unflushed files went too
    #expect(try owners() == ["Ava", "Mia", "Noah", "Zoe"])
    #expect(try changeFiles() == written.merging([name: zoe]) { $1 })
  }

  /// The journal stays small: once it holds enough, its change files are flushed and it is
  /// emptied, and the store reads the same after.
  @Test func theJournalIsEmptiedOnceItHoldsEnough() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let container = try StoreContainer.file(at: url, schema: TestSchema.v1, options: Sample.options)
    let context = container.newBackgroundContext()
    var largest = 0
    for index in 0..<400 {
      context.insert(Owner(id: Sample.id(100 + index), name: "Owner \(index)"))
      try context.save()
      largest = max(largest, FileSystem.size(journalURL) ?? 0)
    }
    #expect(largest < StoreCoordinator.journalSettleSize + StoreCoordinator.journalRecordLimit)
    #expect((FileSystem.size(journalURL) ?? 0) < StoreCoordinator.journalSettleSize)
    #expect(CommitJournal.parse([UInt8](try Data(contentsOf: journalURL))).count < 400, "settled at least once")
    #expect(try owners().count == 400)
  }

  /// The commit whose record fills the journal flushes its change files once it has let the
  /// store's lock go (other processes commit meanwhile), and empties it.
  @Test func theCommitThatFillsTheJournalFlushesItsFilesWithTheLockFree() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let lockFreeWhenFlushed = StoreMutex<[Bool]>([])
    var options = Sample.options
    let lockPath = url.appendingPathComponent("local/lock").path
    options.phaseObserver = { phase in
      guard phase == "settle: flushed" else { return }
      let probe = open(lockPath, O_RDWR | O_CLOEXEC)
      defer { FileLock.release(probe) }  // let go, not only closed: a starting child may share it
      let free = probe >= 0 && flock(probe, LOCK_EX | LOCK_NB) == 0
      lockFreeWhenFlushed.withLock { $0.append(free) }
    }
    let context = try StoreContainer.file(at: url, schema: TestSchema.v1, options: options).newBackgroundContext()
    var index = 0
    while lockFreeWhenFlushed.withLock({ $0.isEmpty }), index < 1_000 {
      context.insert(Owner(id: Sample.id(100 + index), name: "Owner \(index)"))
      try context.save()
      index += 1
    }
    #expect(lockFreeWhenFlushed.withLock { $0 } == [true], "one settle, its flushes made with the lock free")
    #expect((FileSystem.size(journalURL) ?? 0) < StoreCoordinator.journalSettleSize, "emptied")
    #expect(try owners().count == index)
  }

  /// A journal that the commit that filled it did not settle (it was killed first) is settled
  /// by a later commit once it is `journalSettleBackstop` large.
  @Test func aJournalLeftFullIsSettledByALaterCommit() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    _ = try commitThree()
    let records = CommitJournal.parse([UInt8](try Data(contentsOf: journalURL)))
    let journal = CommitJournal(url: journalURL, displayPath: "Family.store/local/journal")
    while (FileSystem.size(journalURL) ?? 0) < StoreCoordinator.journalSettleBackstop {
      for record in records { try journal.append(record) }  // the same files' records again: no commit crossed the settle size
    }
    let context = try StoreContainer.file(at: url, schema: TestSchema.v1, options: Sample.options).newBackgroundContext()
    context.insert(Owner(id: Sample.id(9), name: "Liam"))
    try context.save()
    #expect((FileSystem.size(journalURL) ?? 0) < StoreCoordinator.journalSettleSize, "settled by the commit that found it full")
    #expect(try owners() == ["Ava", "Liam", "Mia", "Noah"])
  }

  /// Something other than a file in the journal's place is the cache's damage: the store opens
  /// with all data, and the next commit writes a new journal.
  @Test func aFolderInPlaceOfTheJournalIsReplaced() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    _ = try commitThree()
    try FileManager.default.removeItem(at: journalURL)
    try FileManager.default.createDirectory(at: journalURL.appendingPathComponent("inside"), withIntermediateDirectories: true)
    let container = try StoreContainer.file(at: url, schema: TestSchema.v1, options: Sample.options)
    let context = container.newBackgroundContext()
    #expect(try context.fetchCount(FetchDescriptor<Owner>()) == 3)
    context.insert(Owner(id: Sample.id(9), name: "Zoe"))
    try context.save()
    #expect(FileSystem.size(journalURL) ?? 0 > 0)
    #expect(try owners().count == 4)
  }
  /// Of two records with one sequence, the later is the commit: the earlier one's writer was
  /// killed before the cache recorded it, and the next commit took its sequence. A power loss
  /// that then took the later commit's file must bring that one back, not the earlier.
  @Test func theLaterOfTwoRecordsWithOneSequenceIsTheCommit() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let written = try commitThree()
    let device = DeviceID(Sample.device)!
    let zed = Owner(id: Sample.id(9), name: "Zed")
    let killed = CommitJournal.Record(
      device: device, sequence: 3,
      bytes: try ChangeFileCodec.encode(
        ChangeFile(
          device: device, sequence: 3, hlc: HybridLogicalClock.wallBits(Sample.epoch) + 3, author: "killed", timestamp: Sample.epoch,
          schemaVersion: 1, objects: [ObjectChange(entity: "Owner", id: zed.id, kind: .upsert, fields: try EntityFields.of(zed))])))
    let records = CommitJournal.parse([UInt8](try Data(contentsOf: journalURL)))
    var journal = Data()
    for record in records.prefix(2) + [killed, records[2]] {
      journal.append(Data(CommitJournal.header(record)))
      journal.append(record.bytes)
    }
    try journal.write(to: journalURL)
    #expect(try CommitJournal(url: journalURL, displayPath: "journal").records().map(\.bytes) == records.map(\.bytes))
    try FileManager.default.removeItem(at: ownFolder.appendingPathComponent("000000000003.json"))
    #expect(try owners() == ["Ava", "Mia", "Noah"])
    #expect(try changeFiles() == written)
  }
}
