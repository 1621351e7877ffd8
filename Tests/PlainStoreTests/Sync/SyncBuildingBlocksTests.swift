import Foundation
import Testing

@testable import PlainStore

@Suite struct SyncBuildingBlocksTests {
  @Test func rawJSONKeepsEveryDigitAndEscape() throws {
    let text = #"{"big":9007199254740993,"date":"2026-03-10T07:00:00.123Z","small":-1.5e-300,"text":"a\"b\u00e9","list":[1,{"x":null}]}"#
    let fields = try StoreCoding.makeDecoder().decode([String: RawJSON].self, from: Data(text.utf8))
    #expect(fields["big"]?.description == "9007199254740993")
    #expect(fields["small"]?.description == "-1.5e-300")
    #expect(fields["text"]?.description == #""a\"b\u00e9""#)
    #expect(fields["list"]?.description == #"[1,{"x":null}]"#)
    let again = try StoreCoding.makeEncoder().encode(fields)
    #expect(String(decoding: again, as: UTF8.self) == #"{"big":9007199254740993,"date":"2026-03-10T07:00:00.123Z","list":[1,{"x":null}],"small":-1.5e-300,"text":"a\"b\u00e9"}"#)
  }

  @Test func theClockNeverRunsBackwards() {
    var clock = HybridLogicalClock()
    let first = clock.tick(now: Date(timeIntervalSince1970: 1000))
    let second = clock.tick(now: Date(timeIntervalSince1970: 999))  // the wall clock went back
    let third = clock.tick(now: Date(timeIntervalSince1970: 999))
    #expect(first < second && second < third)
    clock.observe(HybridLogicalClock.wallBits(Date(timeIntervalSince1970: 5000)))  // a device ahead
    let fourth = clock.tick(now: Date(timeIntervalSince1970: 1001))
    #expect(fourth > HybridLogicalClock.wallBits(Date(timeIntervalSince1970: 5000)))
    #expect(HybridLogicalClock.parse(HybridLogicalClock.text(fourth)) == fourth)
  }

  @Test func stampsOrderByClockThenDeviceThenSequenceAndRoundTripAsText() throws {
    let a = ChangeStamp(hlc: 5, device: testDevice(2), sequence: 1)
    let b = ChangeStamp(hlc: 5, device: testDevice(3), sequence: 1)
    let c = ChangeStamp(hlc: 6, device: testDevice(1), sequence: 1)
    #expect(a < b && b < c)
    #expect(ChangeStamp(c.description) == c)
    #expect([c, a, b].map(\.description).sorted() == [a, b, c].map(\.description))
  }

  @Test(arguments: [
    ("device.json", ChangeFileName.deviceInfo, false),
    ("000000000012.json", .change(sequence: 12), false),
    ("000000000012.sync-conflict-20261123-150230-PI7EF2V.json", .change(sequence: 12), true),
    ("000000000012 (Mia's iPhone's conflicted copy 2026-11-23).json", .change(sequence: 12), true),
    ("000000000012 2.json", .change(sequence: 12), true),
    ("device 2.json", .deviceInfo, true),
    ("reads-000000000003.json", .reads(format: 3), false),
    ("reads-3.json", .unknown, false),  // not fixed width
    ("name-000000000002.json", .renamed(number: 2), false),
    ("name-000000000000.json", .unknown, false),  // numbers start at 1
    (".syncthing.000000000012.json.tmp", .artefact, false),
    ("~syncthing~000000000012.json.tmp", .artefact, false),
    (".000000000012.json.icloud", .artefact, false),
    (".DS_Store", .artefact, false),
    (".stfolder", .artefact, false),
    ("00000000001A.json", .unknown, false),  // not digits
    ("12.json", .unknown, false),  // not fixed width
    ("notes.txt", .unknown, false),
  ])
  func namesAreReadAsTheFileTheyStandFor(name: String, kind: ChangeFileName, copy: Bool) {
    let result = ChangeFileName.classify(name)
    #expect(result.kind == kind)
    #expect(result.isConflictCopy == copy)
  }

  private func sampleChange() -> ChangeFile {
    ChangeFile(
      device: testDevice(7), sequence: 3, hlc: 0x1234_5678_0000_0001, author: "cli", timestamp: Date(timeIntervalSince1970: 1_773_126_000),
      schemaVersion: 1,
      objects: [
        ObjectChange(entity: "Feed", id: testID(1), kind: .upsert, fields: ["memoText": rawString("#latch"), "amountValue": raw("9007199254740993")]),
        ObjectChange(entity: "Baby", id: testID(2), kind: .delete, fields: nil),
      ])
  }

  @Test func aChangeFileRoundTripsAndAnyTruncationOrFlippedByteIsNoticed() throws {
    let change = sampleChange()
    let data = try ChangeFileCodec.encode(change)
    #expect(try ChangeFileCodec.decode(data).get() == change)
    #expect(try ChangeFileCodec.encode(change) == data, "deterministic bytes")
    for length in 0..<data.count {
      guard case .failure = ChangeFileCodec.decode(data.prefix(length)) else {
        Issue.record("a file truncated to \(length) of \(data.count) bytes was read as whole")
        return
      }
    }
    for position in stride(from: 0, to: data.count, by: 7) {
      var damaged = data
      damaged[position] ^= 0x20
      if case .success = ChangeFileCodec.decode(damaged) { Issue.record("a flipped byte at \(position) went unnoticed") }
    }
  }

  /// Written in one buffer with the checksum filled in afterwards, a change file is still its
  /// body's bytes inside the envelope, whether its size was guessed short or long.
  @Test(arguments: [2, 3000])
  func aChangeFileIsItsBodyInsideTheEnvelopeByteForByte(objects: Int) throws {
    var change = sampleChange()
    change.objects = (0..<objects).map { index in
      var object = ObjectChange(entity: "Feed", id: testID(index), kind: .upsert, fields: ["memoText": rawString("#\(index)")])
      if index % 2 == 0 { object.encodedValue = RawJSON(bytes: Array(#"{"memoText":"given"}"#.utf8)) }
      return object
    }
    let body = try StoreCoding.makeEncoder().encode(change)
    let expected =
      Data(#"{"checksum":""#.utf8) + Data(HybridLogicalClock.text(ChangeFileCodec.checksum(body)).utf8) + Data(#"","change":"#.utf8)
      + body + Data("}\n".utf8)
    #expect(try ChangeFileCodec.encode(change) == expected)
  }

  @Test func anotherDevicesDamagedFileIsNotArrivedYetButOurOwnIsRefusedWithItsPath() throws {
    let scratch = try ScratchFolder()
    defer { scratch.remove() }
    let folder = ChangeFolder(url: scratch.url.appendingPathComponent("changes"), displayName: "S.store/changes")
    let change = sampleChange()
    try folder.write(change)
    var next = change
    next.sequence = 5
    try folder.write(next)
    let url = folder.deviceURL(change.device).appendingPathComponent(next.fileName)
    let bytes = try Data(contentsOf: url)
    try bytes.prefix(bytes.count / 2).write(to: url)

    let foreign = try folder.scan(own: testDevice(1))
    #expect(foreign.files.map(\.sequence) == [3])
    #expect(foreign.notArrived == ["S.store/changes/\(change.device.text)/\(next.fileName)"])
    #expect(foreign.waiting[change.device] == 4, "1, 2, 4 and the damaged 5 are missing below 5")

    #expect {
      try folder.scan(own: change.device)
    } throws: { error in
      (error as? StoreError)?.path == "S.store/changes/\(change.device.text)/\(next.fileName)"
    }
  }

  @Test func aDeviceNeverOverwritesAFileAlreadyThere() throws {
    let scratch = try ScratchFolder()
    defer { scratch.remove() }
    let folder = ChangeFolder(url: scratch.url.appendingPathComponent("changes"), displayName: "changes")
    try folder.write(sampleChange())
    var other = sampleChange()
    other.author = "someone else"
    #expect(throws: StoreError.self) { try folder.write(other) }
    #expect(try folder.scan(own: nil).files == [sampleChange()])
  }
}
