import Foundation
import Testing

@testable import PlainStore

/// The local log is appended to, never rewritten under a reader: a record half written is not
/// there yet, a writer cuts what a killed writer left unfinished and nothing else, a new stream
/// starts after each compaction, and whole streams go once no one needs them.
@Suite struct LocalLogTests {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent("PlainStoreLocalLog-\(UUID().uuidString)")
  var log: LocalLog { LocalLog(folder: folder, displayName: "log") }

  init() throws {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

  func json(_ sequence: Int) -> Data { Data(#"{"sequence":\#(sequence)}"#.utf8) }

  /// Encoded straight into its frame, a transaction's record is the frame of its JSON, byte for
  /// byte, whether its size was guessed short or long.
  @Test(arguments: [1, 2000])
  func aRecordIsTheFrameOfItsEntrysJSON(changes: Int) throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let entry = LogEntry(
      sequence: 123_456_789, author: "test", timestamp: Date(timeIntervalSince1970: 1_773_126_000),
      changes: (0..<changes).map { index in
        LogChange(entity: "Event", id: UUID(), kind: .delete, segment: String(repeating: "9", count: index % 300), from: nil, value: nil)
      })
    let expected = LocalLog.frame(sequence: entry.sequence, body: try StoreCoding.makeEncoder().encode(entry))
    #expect(try LocalLog.record(entry) == expected)
  }

  @Test func aRecordStillBeingAppendedIsNotThereYetAndTheNextWriterCutsIt() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    var cursor = try log.append(json(1), sequence: 1, after: nil, manifestSequence: 0)
    let whole = try Data(contentsOf: log.url(1))
    let second = LocalLog.frame(sequence: 2, body: json(2))
    for cut in [1, 20, second.count - 1] {  // inside the header, inside the JSON, before the last newline
      try (whole + second.prefix(cut)).write(to: log.url(1))
      let read = try log.read(from: 1, cursor: nil)
      #expect(read.records.map(\.sequence) == [1], "cut at \(cut)")
      #expect(read.cursor == cursor)
    }
    cursor = try log.append(json(2), sequence: 2, after: cursor, manifestSequence: 0)
    #expect(try Data(contentsOf: log.url(1)) == whole + second)
    #expect(try log.read(from: 1, cursor: nil).records.map(\.bytes) == [json(1), json(2)])
    #expect(cursor.offset == whole.count + second.count)
  }

  @Test func aWriterThatDidNotCatchUpCutsNothing() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let stale = try log.append(json(1), sequence: 1, after: nil, manifestSequence: 0)
    _ = try log.append(json(2), sequence: 2, after: stale, manifestSequence: 0)
    let before = try Data(contentsOf: log.url(1))
    #expect(throws: StoreError.self) { try log.append(json(2), sequence: 2, after: stale, manifestSequence: 0) }
    #expect(try Data(contentsOf: log.url(1)) == before)
  }

  @Test func aWholeRecordThatFailsItsChecksumOrItsPlaceIsDamage() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    var cursor = try log.append(json(1), sequence: 1, after: nil, manifestSequence: 0)
    cursor = try log.append(json(2), sequence: 2, after: cursor, manifestSequence: 0)
    var flipped = try Data(contentsOf: log.url(1))
    flipped[flipped.count - 4] ^= 0x01
    try flipped.write(to: log.url(1))
    let error = try #require(throws: StoreError.self) { try log.read(from: 1, cursor: nil) }
    #expect(error.code == .damaged && error.path == "log/00000001.log")
    #expect(error.detail.contains("transaction 2 fails its checksum"))

    try (LocalLog.frame(sequence: 1, body: json(1)) + LocalLog.frame(sequence: 3, body: json(3))).write(to: log.url(1))
    let order = try #require(throws: StoreError.self) { try log.read(from: 1, cursor: nil) }
    #expect(order.detail.contains("holds transaction 3 where 2 belongs"))

    // A length no record has (one that would overflow an offset) is damage, from any position.
    let huge = Data("entry 000000000002 7fffffffffffffff 0000000000000000\n{}\n".utf8)
    try (LocalLog.frame(sequence: 1, body: json(1)) + huge).write(to: log.url(1))
    for from in [1, 2, 3] {
      let length = try #require(throws: StoreError.self) { try log.read(from: from, cursor: nil) }
      #expect(length.detail.contains("no record header"), "from \(from)")
    }
  }

  @Test func aNewStreamStartsAfterACompactionAndReadersFollowIt() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    var cursor = try log.append(json(1), sequence: 1, after: nil, manifestSequence: 0)
    cursor = try log.append(json(2), sequence: 2, after: cursor, manifestSequence: 0)
    let reader = try log.read(from: 1, cursor: nil).cursor
    cursor = try log.append(json(3), sequence: 3, after: cursor, manifestSequence: 2)  // compacted through 2
    cursor = try log.append(json(4), sequence: 4, after: cursor, manifestSequence: 2)
    #expect(log.streams() == [1, 3])
    let followed = try log.read(from: 3, cursor: reader)
    #expect(followed.records.map(\.sequence) == [3, 4])
    #expect(followed.cursor == cursor)
    #expect(try log.read(from: 2, cursor: nil).records.map(\.sequence) == [2, 3, 4])

    #expect(log.removeStreams(through: 1) == false, "stream 1 still holds 2")
    #expect(log.removeStreams(through: 2))
    #expect(log.streams() == [3])
    #expect(try log.read(from: 2, cursor: nil).records.isEmpty, "pruned")
    #expect(try log.removeRecords(through: 3))
    #expect(log.streams() == [4])
    #expect(try log.read(from: 1, cursor: nil).records.isEmpty)
    #expect(try log.read(from: 4, cursor: nil).records.map(\.bytes) == [json(4)])
  }

  /// Through the store: many commits leave a few streams, a reader follows them, a lost stream
  /// costs nothing, and a stream past a gap makes the next open rebuild the cache rather than
  /// apply later records early.
  @Test func commitsLeaveFewStreamsAndALostOneIsNoticed() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    var options = Sample.options
    options.compactionThreshold = 8
    options.logRetention = 20
    let url = folder.appendingPathComponent("Family.store")
    let container = try StoreContainer.file(at: url, schema: TestSchema.v1, options: options)
    let context = container.newBackgroundContext()
    for index in 1...60 {
      context.insert(Owner(id: Sample.id(index), name: "Owner \(index)"))
      try context.save()
    }
    container.coordinator.lockedHousekeeping.wait()  // the last compaction's manifest, which removes streams
    // Two to five streams hold the 20 commits the newest manifest (56) keeps: a stream starts
    // at the first commit past the newest manifest's sequence that has landed, and a manifest
    // lands after its save has returned (LockedHousekeeping), so how many depends on when each
    // landed (in one CI run, the 40th's after the 48th commit and the 56th's after the 60th:
    // 33…48 and 49…60). Never one: the 48th's compaction waits for the 40th's manifest, which
    // starts a stream by the 49th commit.
    let streams = try FileManager.default.contentsOfDirectory(atPath: url.appendingPathComponent("local/log").path).sorted()
    #expect((2...5).contains(streams.count), "\(streams)")
    #expect(try container.history(after: nil).first?.sequence == LocalLog.streamFirst(streams[0]))

    // A reader that opened early follows every stream the writer started since.
    let early = try StoreContainer.file(at: url, schema: TestSchema.v1, options: options)
    for index in 61...80 {
      context.insert(Owner(id: Sample.id(index), name: "Owner \(index)"))
      try context.save()
    }
    try early.refresh()  // its watcher may not have caught up yet: a fetch reads what it has
    #expect(try early.newBackgroundContext().fetchCount(FetchDescriptor<Owner>()) == 80)
    container.coordinator.lockedHousekeeping.wait()

    // The newest stream lost: its commits come back from their change files.
    let now = try FileManager.default.contentsOfDirectory(atPath: url.appendingPathComponent("local/log").path).sorted()
    try FileManager.default.removeItem(at: url.appendingPathComponent("local/log/" + now[now.count - 1]))
    #expect(try StoreContainer.file(at: url, schema: TestSchema.v1, options: options).newBackgroundContext().fetchCount(FetchDescriptor<Owner>()) == 80)

    // A stream that starts past the records on disk: a gap, never applied early.
    try LocalLog.frame(sequence: 999, body: json(999)).write(to: url.appendingPathComponent("local/log/00000999.log"))
    let reopened = try StoreContainer.file(at: url, schema: TestSchema.v1, options: options)
    #expect(try reopened.newBackgroundContext().fetchCount(FetchDescriptor<Owner>()) == 80)
    #expect(reopened.statistics.cacheRebuilds == 1)
  }
  /// Whatever bytes a stream holds, reading it returns whole records or says what is damaged,
  /// and never crashes: 3000 seeded mutations of a stream of three records.
  @Test func noBytesInAStreamCrashAReader() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    var cursor = try log.append(json(1), sequence: 1, after: nil, manifestSequence: 0)
    cursor = try log.append(json(2), sequence: 2, after: cursor, manifestSequence: 0)
    _ = try log.append(json(3), sequence: 3, after: cursor, manifestSequence: 0)
    let original = [UInt8](try Data(contentsOf: log.url(1)))
    var random = SplitMix64(seed: 0x10C_A11)
    let alphabet = Array("0123456789abcdef f\nentry{}".utf8)
    for _ in 0..<3000 {
      var bytes = original
      for _ in 0..<(1 + Int(random.next() % 4)) {
        let at = Int(random.next() % UInt64(bytes.count))
        switch random.next() % 3 {
        case 0: bytes[at] = alphabet[Int(random.next() % UInt64(alphabet.count))]
        case 1: bytes.removeSubrange(at...)
        default: bytes.insert(alphabet[Int(random.next() % UInt64(alphabet.count))], at: at)
        }
        if bytes.isEmpty { break }
      }
      try Data(bytes).write(to: log.url(1))
      for from in 1...4 {
        do {
          let records = try log.read(from: from, cursor: nil).records
          #expect(records.map(\.sequence) == Array(from..<(from + records.count)))
        } catch let error as StoreError {
          #expect(error.code == .damaged)
        }
      }
    }
  }
}
