import Foundation
import Testing

@testable import PlainStore

/// The one framing of the local log's and the journal's records, in its two modes: `look`
/// (the log: stop at an unfinished tail, call anything else damage) and `salvage` (the
/// journal: every whole record, past torn and damaged stretches).
@Suite struct RecordFrameTests {
  let log = LocalLog.frame
  let journal = CommitJournal.frame

  func entry(_ sequence: Int, _ body: String) -> [UInt8] {
    log.header(fields: [ChangeFileName.sequenceText(sequence)], body: Array(body.utf8)) + Array(body.utf8) + [UInt8(ascii: "\n")]
  }

  func record(_ sequence: Int, _ body: String) -> [UInt8] {
    journal.header(fields: [String(repeating: "a", count: 32), ChangeFileName.sequenceText(sequence)], body: Array(body.utf8)) + Array(body.utf8)
  }

  func look(_ bytes: [UInt8], at start: Int = 0) -> RecordFrame.Layout.Found {
    _ByteView.reading(bytes) { log.look($0, at: start) }
  }

  @Test func aHeaderIsItsFixedWidthsAndReadsBack() throws {
    let body = Array(#"{"sequence":7}"#.utf8)
    let header = log.header(fields: ["000000000007"], body: body)
    #expect(header.count == log.headerLength)
    #expect(String(decoding: header, as: UTF8.self) == "entry 000000000007 \(Digits.hex16(UInt64(body.count))) \(Digits.hex16(FNV1a.hash(body)))\n")
    let parsed = try #require(log.parseHeader(header))
    #expect(parsed.fields == ["000000000007"] && parsed.length == body.count && parsed.checksum == FNV1a.hash(body))
    #expect(log.parseHeader(log.header(fields: ["7"], body: body)) == nil, "a field of another width")
    #expect(journal.parseHeader(header) == nil, "another layout's tag")
  }

  @Test func aWholeRecordIsFoundWithItsBodyAndEnd() throws {
    let bytes = entry(3, "{}") + entry(4, "[1]")
    guard case .record(let fields, let body, let end) = look(bytes) else { Issue.record("no record"); return }
    #expect(fields == ["000000000003"])
    #expect(Array(bytes[body]) == Array("{}".utf8))
    guard case .record(let next, let nextBody, let last) = look(bytes, at: end) else { Issue.record("no second record"); return }
    #expect(next == ["000000000004"] && Array(bytes[nextBody]) == Array("[1]".utf8) && last == bytes.count)
  }

  /// A writer still appending, or killed: every proper prefix of a record is unfinished,
  /// never damage, so that a reader waits rather than refuses the file.
  @Test func everyTornTailIsUnfinished() {
    let whole = entry(9, #"{"a":"b"}"#)
    for length in 0..<whole.count {
      guard case .unfinished = look(Array(whole[..<length])) else {
        Issue.record("\(length) of \(whole.count) bytes read as \(look(Array(whole[..<length])))")
        continue
      }
    }
  }

  @Test func aChangedBodyOrAMissingNewlineIsDamageAndGarbageIsNoHeader() {
    var flipped = entry(5, "{}")
    flipped[log.headerLength] ^= 1
    guard case .damaged(let fields) = look(flipped) else { Issue.record("\(look(flipped))"); return }
    #expect(fields == ["000000000005"])
    var unclosed = entry(5, "{}")
    unclosed[unclosed.count - 1] = UInt8(ascii: " ")
    guard case .damaged = look(unclosed) else { Issue.record("\(look(unclosed))"); return }
    let garbage = Array(repeating: UInt8(ascii: "x"), count: log.headerLength + 4)
    guard case .noHeader = look(garbage) else { Issue.record("\(look(garbage))"); return }
    var badLength = entry(5, "{}")
    badLength[log.headerLength - 33] = UInt8(ascii: "g")  // a digit of the length
    guard case .noHeader = look(badLength) else { Issue.record("\(look(badLength))"); return }
  }

  @Test func salvageKeepsEveryWholeRecordPastTornAndDamagedOnes() {
    let first = record(1, "one")
    let torn = Array(record(2, "two, torn").dropLast(3))
    var damaged = record(3, "three")
    damaged[damaged.count - 1] ^= 1
    let last = record(4, "four")
    let bytes = first + torn + damaged + Array("journal garbage".utf8) + last
    let found = _ByteView.reading(bytes) { journal.salvage($0) }
    #expect(found.map { $0.fields[1] } == ["000000000001", "000000000004"])
    #expect(found.map { String(decoding: bytes[$0.body], as: UTF8.self) } == ["one", "four"])
    #expect(_ByteView.reading(Array(first.dropLast())) { journal.salvage($0) }.isEmpty, "a torn record alone")
  }

  /// A record's bytes that hold another record's text are its body, not a second record.
  @Test func aRecordInsideABodyIsNotSalvagedTwice() {
    let inner = record(2, "inner")
    let outer = record(1, String(decoding: inner, as: UTF8.self))
    let found = _ByteView.reading(outer) { journal.salvage($0) }
    #expect(found.map { $0.fields[1] } == ["000000000001"])
  }
}
