import Foundation
import Testing

@testable import PlainStore

/// `LogRecordReader` reads a commit's log record without Codable's containers, and leaves every
/// other record to `LogEntry`'s `Decodable`: the two must agree on all it reads.
@Suite struct LogRecordReaderTests {
  static let event = Event(uuid: Sample.id(2), ownerID: Sample.id(1), at: Sample.date(days: 0.123456789), title: "feed \"bottle\"", amount: 90)
  static let stamp = ChangeStamp(hlc: 0x1234_5678_0000_0001, device: testDevice(7), sequence: 3)

  /// A commit's record: what the reader reads.
  static var commitEntry: LogEntry {
    var moved = LogChange(entity: "Owner", id: Sample.id(1), kind: .update, segment: "all", from: "all", value: Owner(id: Sample.id(1), name: "Mia", note: "é"))
    moved.groups = ["name", "note"]
    var merged = LogChange(entity: "Owner", id: Sample.id(3), kind: .delete, segment: "all", from: nil, value: nil)
    merged.mergedInto = Sample.id(1)
    var entry = LogEntry(
      sequence: 42, author: "app", timestamp: Date(timeIntervalSinceReferenceDate: 812_345_678.4567891),
      changes: [LogChange(entity: "Event", id: event.uuid, kind: .insert, segment: "2026-01", from: "2025-12", value: event), moved, merged])
    entry.folded = [stamp]
    entry.origin = stamp
    entry.reshapes = true
    return entry
  }

  /// A merge's record, with every member a log entry can hold: the reader leaves it.
  static var mergeEntry: LogEntry {
    var entry = commitEntry
    var retired = RetiredObjects()
    retired.insert(ObjectKey(entity: "Owner", id: Sample.id(3)), mergedInto: Sample.id(1))
    entry.retired = retired
    entry.foldedThrough = [stamp]
    entry.foldedDivergent = [stamp]
    entry.foldedDivergentSnapshots = [stamp]
    entry.foldedSnapshots = [testDevice(7).text: 2]
    entry.written = 0x1234_5678_0000_0002
    entry.writtenUnchanged = ["Event": [Sample.id(4)]]
    return entry
  }

  private static func read(_ data: Data) -> LogEntry? {
    LogRecordReader.entry(data, schema: TestSchema.v1, userInfo: StoreCoding.makeDecoder(schema: TestSchema.v1).userInfo)
  }

  private static func codable(_ data: Data) throws -> LogEntry {
    try StoreCoding.makeDecoder(schema: TestSchema.v1).decode(LogEntry.self, from: data)
  }

  /// What a test compares of two entries: their JSON, values included.
  private static func bytes(_ entry: LogEntry) throws -> Data { try StoreJSONEncoder().encode(entry) }

  @Test func aCommitsRecordReadsAsCodableReadsIt() throws {
    let data = try Self.bytes(Self.commitEntry)
    let read = try #require(Self.read(data))
    #expect(try Self.bytes(read) == data)
    #expect(try Self.bytes(read) == Self.bytes(try Self.codable(data)))
    #expect(read.changes[0].value as? Event == Self.event)
    #expect(read.changes[2].value == nil && read.changes[2].mergedInto == Sample.id(1))
    // A put whose value its change file holds (a large commit's record) reads without it.
    var named = Self.commitEntry
    named.changes[0].value = nil
    let withoutValue = try #require(Self.read(try Self.bytes(named)))
    #expect(withoutValue.changes[0].value == nil)
    #expect(try Self.bytes(withoutValue) == Self.bytes(named))
  }

  @Test func anyOtherRecordIsLeftToCodable() throws {
    // A merge's members the reader does not read.
    #expect(Self.read(try Self.bytes(Self.mergeEntry)) == nil)
    #expect(try Self.bytes(try Self.codable(try Self.bytes(Self.mergeEntry))) == Self.bytes(Self.mergeEntry))
    let text = String(decoding: try Self.bytes(Self.commitEntry), as: UTF8.self)
    let eventJSON = String(decoding: try StoreJSONEncoder().encode(Self.event), as: UTF8.self)
    let variants: [(String, String)] = [
      ("a newer format", text.replacingOccurrences(of: #""formatVersion":2"#, with: #""formatVersion":3"#)),
      ("format 0", text.replacingOccurrences(of: #""formatVersion":2"#, with: #""formatVersion":0"#)),
      ("an unknown member", text.replacingOccurrences(of: #""author":"app""#, with: #""author":"app","extra":1"#)),
      ("a null value", text.replacingOccurrences(of: #""value":"# + eventJSON, with: #""value":null"#)),
      ("a segment no store writes", text.replacingOccurrences(of: #""segment":"2026-01""#, with: #""segment":"../x""#)),
      ("a month 13", text.replacingOccurrences(of: #""segment":"2026-01""#, with: #""segment":"2026-13""#)),
      ("an unknown kind", text.replacingOccurrences(of: #""kind":"insert""#, with: #""kind":"upsert""#)),
      ("an entity not in the schema", text.replacingOccurrences(of: #""entity":"Event""#, with: #""entity":"Ghost""#)),
      ("a stamp that is not one", text.replacingOccurrences(of: #""origin":"1234"#, with: #""origin":"x234"#)),
      ("a missing author", text.replacingOccurrences(of: #""author":"app","#, with: "")),
      ("a null author", text.replacingOccurrences(of: #""author":"app""#, with: #""author":null"#)),
      ("a number for a string", text.replacingOccurrences(of: #""author":"app""#, with: #""author":7"#)),
      ("not JSON", String(text.dropLast())),
    ]
    for (what, variant) in variants {
      #expect(variant != text, "\(what): the variant changes nothing")
      #expect(Self.read(Data(variant.utf8)) == nil, "\(what)")
    }
    // Codable refuses each but the formats (`StoreFiles.decode` refuses those, after it) and
    // the unknown member, which it passes over: the reader cannot know it may, and leaves it.
    for (index, (what, variant)) in variants.enumerated() where index >= 3 {
      #expect(throws: (any Error).self, "\(what)") { try Self.codable(Data(variant.utf8)) }
    }
    #expect(try Self.codable(Data(variants[2].1.utf8)).sequence == 42)
  }

  @Test func segmentNamesAreReadAsBefore() {
    for name in ["2026-01", "0000-12", "9999-01", "2025-1", "+2025-01", "all"] {
      #expect(SegmentKey.isValid(name), "\(name)")
    }
    for name in ["2026-13", "2026-00", "../x", "2026-01-01", "", "202a-01", "2026_01"] {
      #expect(!SegmentKey.isValid(name), "\(name)")
    }
    #expect(SegmentKey.monthIndex(of: "2026-03") == 2026 * 12 + 2)
    #expect(SegmentKey.monthIndex(of: "2025-1") == 2025 * 12)
  }
}
