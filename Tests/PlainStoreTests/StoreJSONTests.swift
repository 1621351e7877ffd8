import Foundation
import Testing

@testable import PlainStore

/// The store's own JSON coders: same values and bytes as Foundation's JSONEncoder with the
/// store's settings, and decoding errors of the shapes `StoreCoding.reason` explains.
@Suite struct StoreJSONTests {
  struct Primitives: Codable, Equatable {
    var bool = true
    var string = "plain"
    var double = 4.5
    var float: Float = 1.25
    var int = -42
    var int8: Int8 = -8
    var int16: Int16 = 16
    var int32: Int32 = -32
    var int64: Int64 = .min
    var uint: UInt = .max
    var uint8: UInt8 = 255
    var uint16: UInt16 = 16
    var uint32: UInt32 = 32
    var uint64: UInt64 = .max
    var date = Sample.epoch
    var uuid = Sample.id(7)
  }

  struct Nested: Codable, Equatable {
    var zeta: Primitives
    var alpha: [Primitives]
    var optional: String?
    var map: [String: [Double]]
    var matrix: [[Int]]
    var child: Child?
  }

  struct Child: Codable, Equatable {
    var name: String
    var numbers: [Double]
  }

  /// Foundation's encoder with the settings the store used before it had its own.
  static func foundationEncoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .custom { date, encoder in
      var container = encoder.singleValueContainer()
      try container.encode(ISO8601.format(date))
    }
    return encoder
  }

  static func foundationDecoder() -> JSONDecoder {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .custom { decoder in
      let container = try decoder.singleValueContainer()
      return ISO8601.parse(try container.decode(String.self))!
    }
    return decoder
  }

  static let nested = Nested(
    zeta: Primitives(),
    alpha: [Primitives(string: "two", double: 1e-7, date: Sample.date(days: 1.5)), Primitives(double: -0.0)],
    optional: nil,
    map: ["b": [0, 120, 1e21], "a": [.greatestFiniteMagnitude], "é": [], "B": [0.1]],
    matrix: [[Int.min, Int.max], []],
    child: Child(name: "Mia 🍼 \"quoted\" back\\slash /slash\n\t\u{1}\u{1f} 수유", numbers: [3.14159, -2.5e-300]))

  @Test func nestedValuesRoundTrip() throws {
    let data = try StoreJSONEncoder().encode(Self.nested)
    #expect(try StoreJSONDecoder().decode(Nested.self, from: data) == Self.nested)
  }

  @Test func outputIsFoundationsBytesAndFoundationReadsIt() throws {
    let ours = try StoreJSONEncoder().encode(Self.nested)
    let theirs = try Self.foundationEncoder().encode(Self.nested)
    #expect(String(decoding: ours, as: UTF8.self) == String(decoding: theirs, as: UTF8.self))
    #expect(try Self.foundationDecoder().decode(Nested.self, from: ours) == Self.nested)
  }

  @Test func decodesFoundationOutput() throws {
    let theirs = try Self.foundationEncoder().encode(Self.nested)
    #expect(try StoreJSONDecoder().decode(Nested.self, from: theirs) == Self.nested)
    let pretty = JSONEncoder()
    pretty.outputFormatting = [.prettyPrinted]
    pretty.dateEncodingStrategy = .custom { date, encoder in
      var container = encoder.singleValueContainer()
      try container.encode(ISO8601.format(date))
    }
    #expect(try StoreJSONDecoder().decode(Nested.self, from: pretty.encode(Self.nested)) == Self.nested)
  }

  // 2^53 (where consecutive integers stop being doubles) and the smallest subnormal are written
  // exactly as the values they are, so the literals need no rounding and raise no warning.
  @Test(arguments: [
    0, -0.0, 1e-7, 1e21, 120, 4.5, 0.1, 1e15, 1e16, 9_007_199_254_740_992, -123.456, Double.leastNonzeroMagnitude,
    Double.greatestFiniteMagnitude, -Double.greatestFiniteMagnitude, Double.leastNormalMagnitude,
  ])
  func doublesPrintAsFoundationAndComeBackExactly(_ value: Double) throws {
    let ours = try StoreJSONEncoder().encode([value])
    #expect(ours == (try Self.foundationEncoder().encode([value])))
    let back = try StoreJSONDecoder().decode([Double].self, from: ours)
    #expect(back[0] == value && back[0].sign == value.sign)
  }

  @Test(arguments: [Int.min, Int.max, 0, -1, 120])
  func integersRoundTrip(_ value: Int) throws {
    let data = try StoreJSONEncoder().encode(["n": value])
    #expect(String(decoding: data, as: UTF8.self) == "{\"n\":\(value)}")
    #expect(try StoreJSONDecoder().decode([String: Int].self, from: data) == ["n": value])
  }

  @Test(arguments: [Double.nan, .infinity, -.infinity])
  func nonFiniteDoublesAreRefused(_ value: Double) throws {
    #expect {
      try StoreJSONEncoder().encode(["x": value])
    } throws: { error in
      guard case EncodingError.invalidValue(_, let context) = error else { return false }
      return context.codingPath.map(\.stringValue) == ["x"]
    }
  }

  @Test func numbersReadAcrossIntAndDouble() throws {
    let data = Data(#"{"whole":3.0,"count":7,"exp":1.5E2,"neg":-0}"#.utf8)
    struct Mixed: Decodable { var whole: Int; var count: Double; var exp: Double; var neg: Int }
    let mixed = try StoreJSONDecoder().decode(Mixed.self, from: data)
    #expect(mixed.whole == 3 && mixed.count == 7 && mixed.exp == 150 && mixed.neg == 0)
  }

  @Test func absentAndNullOptionalsAreBothNil() throws {
    struct Optionals: Codable, Equatable { var a: String?; var b: Int?; var c: Child? }
    let decoded = try StoreJSONDecoder().decode(Optionals.self, from: Data(#"{"a":null,"c":null}"#.utf8))
    #expect(decoded == Optionals(a: nil, b: nil, c: nil))
    #expect(try StoreJSONEncoder().encode(decoded) == Data("{}".utf8))
  }

  @Test func escapesAndWhitespaceParse() throws {
    let text = " { \"s\" : \"\\u00e9\\ud83c\\udf7c\\\"\\\\\\/\\b\\f\\n\\r\\t\\u0000\" , \"k\\u0041\":[ 1 ,2 ] } \n"
    struct Escaped: Decodable, Equatable { var s: String; var kA: [Int] }
    let value = try StoreJSONDecoder().decode(Escaped.self, from: Data(text.utf8))
    #expect(value == Escaped(s: "é🍼\"\\/\u{8}\u{c}\n\r\t\u{0}", kA: [1, 2]))
  }

  @Test(arguments: [
    "2026-01-15T09:30:00Z", "2026-01-15T09:30:00.25Z", "2026-01-15T09:30:00.123456789012345Z",
    "2026-01-15T09:30:00.1234567890123456789Z", "1999-12-31T23:59:59.999Z", "2026-01-15T09:30:00+09:00",
    "2024-02-29T00:00:00Z", "0001-01-01T00:00:00Z",
  ])
  func datesReadAsISO8601ParseReadsThem(_ text: String) throws {
    let dates = try StoreJSONDecoder().decode([Date].self, from: Data("[\"\(text)\"]".utf8))
    #expect(dates == [ISO8601.parse(text)!])
    let written = try StoreJSONEncoder().encode(dates)
    #expect(String(decoding: written, as: UTF8.self) == "[\"\(ISO8601.format(dates[0]))\"]")
  }

  @Test func uuidsReadInEitherCase() throws {
    let lower = Data(#"["e621e1f8-c36c-495a-93fc-0c247a3e6e5f"]"#.utf8)
    let uuid = try StoreJSONDecoder().decode([UUID].self, from: lower)
    #expect(uuid == [UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!])
    #expect(String(decoding: try StoreJSONEncoder().encode(uuid), as: UTF8.self) == #"["E621E1F8-C36C-495A-93FC-0C247A3E6E5F"]"#)
    // Every digit at every place, in either case, against Foundation's own reading.
    let digits = Array("0123456789abcdef")
    for shift in 0..<16 {
      let hex = (0..<32).map { digits[($0 + shift) % 16] }
      var text = ""
      for (place, digit) in hex.enumerated() {
        if [8, 12, 16, 20].contains(place) { text += "-" }
        text.append(place % 2 == 0 ? digit : Character(digit.uppercased()))
      }
      #expect(try StoreJSONDecoder().decode([UUID].self, from: Data("[\"\(text)\"]".utf8)) == [UUID(uuidString: text.uppercased())!])
    }
  }

  /// Anything but 32 hex digits in 8-4-4-4-12 is refused, whichever place holds the wrong byte.
  @Test func aUUIDWithAWrongByteAnywhereIsRefused() throws {
    let text = Array("e621e1f8-c36c-495a-93fc-0c247a3e6e5f".utf8)
    for place in text.indices {
      for wrong in ["g", "-", ":", "/", "G", "@", " "].map({ UInt8(ascii: $0) }) where wrong != text[place] {
        var bad = text
        bad[place] = wrong
        let json = Data("[\"".utf8) + Data(bad) + Data("\"]".utf8)
        #expect(throws: DecodingError.self, "\(String(decoding: bad, as: UTF8.self))") { try StoreJSONDecoder().decode([UUID].self, from: json) }
      }
    }
    #expect(throws: DecodingError.self) { try StoreJSONDecoder().decode([UUID].self, from: Data(#"["e621e1f8-c36c-495a-93fc-0c247a3e6e5"]"#.utf8)) }
  }

  /// A register's id (`MergedState.uuid`) is read as the decoder reads one: what Foundation
  /// reads, and nothing it refuses.
  @Test func aQuotedUUIDReadsAsFoundationReadsIt() {
    let text = "e621e1f8-C36C-495a-93fc-0c247a3e6e5f"
    #expect(MergedState.uuid(RawJSON(bytes: Array("\"\(text)\"".utf8))) == UUID(uuidString: text))
    for wrong in ["\(text)", "x\(text)x", "\"\(text)x", "x\(text)\"", "\"\(text)", "\"\(text.dropLast())\"", "\"\(text.dropLast())g\"", "\"\\\"\(text.dropFirst(2))\"", "null"] {
      #expect(MergedState.uuid(RawJSON(bytes: Array(wrong.utf8))) == nil, "\(wrong)")
    }
  }

  /// An object read as its members' text (a change file's fields) holds what the keyed path
  /// gives: each member's minified text, strings with their escapes; anything else is refused
  /// as any other mismatch is.
  @Test func anObjectReadAsRawMembersKeepsEachMembersText() throws {
    let json = #"{"b" : "x\"y", "a": [1, {"d" : null}], "c": 2.50, "\u00e9": true}"#
    let members = try StoreJSONDecoder().decode([String: RawJSON].self, from: Data(json.utf8))
    #expect(members.mapValues(\.description) == ["a": #"[1,{"d":null}]"#, "b": #""x\"y""#, "c": "2.50", "é": "true"])
    #expect(throws: DecodingError.self) { try StoreJSONDecoder().decode([String: RawJSON].self, from: Data("[1]".utf8)) }
    // Written back as an object's text (how the merge hands an object to its entity's
    // decoder), every member reads as it was, a name to escape included.
    let named = members.merging(["q\"u\\o\nte": RawJSON(bytes: Array("1".utf8))]) { $1 }
    #expect(try StoreJSONDecoder().decode([String: RawJSON].self, from: RawJSON.objectText(named)) == named)
    #expect(try StoreJSONDecoder().decode([String: RawJSON].self, from: RawJSON.objectText([:])) == [:])
  }

  @Test func storeFilesAreFoundationsBytes() throws {
    let event = Event(uuid: Sample.id(2), ownerID: Sample.id(1), at: Sample.date(days: 0.123456789), title: "feed/bottle", amount: 90)
    let entry = LogEntry(
      sequence: 42, author: "test", timestamp: Sample.epoch,
      changes: [
        LogChange(entity: "Event", id: event.uuid, kind: .insert, segment: "2026-01", from: nil, value: event),
        LogChange(entity: "Owner", id: Sample.id(1), kind: .update, segment: "all", from: "all", value: Owner(id: Sample.id(1), name: "Mia", note: "é")),
        LogChange(entity: "Owner", id: Sample.id(3), kind: .delete, segment: "all", from: nil, value: nil),
      ])
    var manifest = Manifest()
    manifest.sequence = 9
    manifest.segments = ["Event": ["2026-01": SegmentEntry(file: "Event.2026-01.9.json", count: 3)], "Owner": [:]]
    manifest.readers = ["widget": 4]
    let segment = SegmentFile(entity: "Event", segment: "2026-01", objects: [event])
    let header = StoreHeader(schema: TestSchema.v1)
    #expect(try StoreJSONEncoder().encode(entry) == Self.foundationEncoder().encode(entry))
    // A log entry is a record too (`JSONRecord`): with every member it can hold, the same bytes.
    #expect(try StoreJSONEncoder().encode(LogRecordReaderTests.mergeEntry) == Self.foundationEncoder().encode(LogRecordReaderTests.mergeEntry))
    #expect(try StoreJSONEncoder().encode(manifest) == Self.foundationEncoder().encode(manifest))
    #expect(try StoreJSONEncoder().encode(segment) == Self.foundationEncoder().encode(segment))
    #expect(try StoreJSONEncoder().encode(header) == Self.foundationEncoder().encode(header))
    // A change file's objects and a log's changes are written member by member (JSONRecord):
    // the same bytes as through Codable's containers.
    let change = ChangeFile(
      device: testDevice(7), sequence: 3, hlc: 0x1234_5678_0000_0001, author: "test", timestamp: Sample.epoch, schemaVersion: 1,
      objects: [
        ObjectChange(entity: "Event", id: event.uuid, kind: .upsert, value: event, groups: ["when", "what"]),
        ObjectChange(entity: "Owner", id: Sample.id(3), kind: .delete, fields: nil),
      ])
    #expect(try StoreJSONEncoder().encode(change) == Self.foundationEncoder().encode(change))

    let decoder = StoreCoding.makeDecoder(schema: TestSchema.v1)
    let back = try decoder.decode(LogEntry.self, from: Self.foundationEncoder().encode(entry))
    #expect(back.changes.map(\.id) == entry.changes.map(\.id))
    #expect(back.changes[0].value as? Event == event)
    #expect(try decoder.decode(Manifest.self, from: StoreJSONEncoder().encode(manifest)) == manifest)
    let file = try decoder.decode(SegmentFile<[Event]>.self, from: StoreJSONEncoder().encode(segment))
    #expect(file.objects == [event])
  }

  /// The dictionaries a compaction writes (the segments' id filters, the manifest's segments)
  /// are written in key order without Codable's containers, and filters read without them: the
  /// same bytes and values as Foundation's, keys that sort apart only as bytes or need escaping
  /// included; an object of anything but strings is left to Codable, which refuses it.
  @Test func compactionsDictionariesAreFoundationsBytes() throws {
    let keys = ["b", "a", "B", "é", "Event.2026-01.00000009.json", "q\"uote", "back\\slash", "tab\t", "", "zz", "z"]
    var filters: [String: String] = [:]
    for (index, key) in keys.enumerated() { filters[key] = index.isMultiple(of: 3) ? "line\nbreak \(index)" : "AAAA/+\(index)==" }
    let foundation = try Self.foundationEncoder().encode(filters)
    #expect(String(decoding: try StoreJSONEncoder().encode(filters), as: UTF8.self) == String(decoding: foundation, as: UTF8.self))
    #expect(try StoreJSONDecoder().decode([String: String].self, from: foundation) == filters)
    #expect(try StoreJSONEncoder().encode([String: String]()) == Self.foundationEncoder().encode([String: String]()))

    var manifest = Manifest()
    for (index, key) in keys.enumerated() {
      manifest.segments[key] = [
        "all": SegmentEntry(file: "\(key).all.json", count: index, size: index.isMultiple(of: 2) ? nil : index * 100, checksum: nil),
        "2026-0\(index % 9 + 1)": SegmentEntry(file: "f\(index)", count: 1, size: 7, checksum: index.isMultiple(of: 2) ? "0123456789abcdef" : nil),
      ]
    }
    manifest.segments["Empty"] = [:]
    #expect(try StoreJSONEncoder().encode(manifest) == Self.foundationEncoder().encode(manifest))
    #expect(try StoreJSONDecoder().decode(Manifest.self, from: StoreJSONEncoder().encode(manifest)) == manifest)

    #expect(throws: DecodingError.self) { try StoreJSONDecoder().decode([String: String].self, from: Data(#"{"a":"x","b":1}"#.utf8)) }
    #expect(throws: DecodingError.self) { try StoreJSONDecoder().decode([String: String].self, from: Data(#"["a"]"#.utf8)) }
  }

  /// The bytes JSON escapes are found eight bytes at a time, by the writer and the parser: each
  /// of them, and the bytes next to them, at every offset of strings up to three words long.
  @Test func escapingIsFoundInEveryByteOfAWord() throws {
    func naive(_ bytes: [UInt8]) -> Bool { bytes.contains { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C } }
    let probes: [UInt8] = [0x00, 0x01, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x5B, 0x5C, 0x5D, 0x7F, 0x80, 0x9F, 0xA2, 0xDC, 0xFF]
    for length in 1...24 {
      for position in 0..<length {
        for filler: UInt8 in [0x41, 0xFF, 0x80, 0x20] {
          for probe in probes {
            var bytes = [UInt8](repeating: filler, count: length)
            bytes[position] = probe
            let found = bytes.withUnsafeBytes { JSONSpecialBytes.occur(in: $0) }
            #expect(found == naive(bytes), "\(bytes)")
            guard probe < 0x80 && filler < 0x80 else { continue }
            // The parser stops at the same bytes: the text written reads back, and a control
            // byte left unescaped is refused where it is.
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(try StoreJSONDecoder().decode([String].self, from: StoreJSONEncoder().encode([text])) == [text])
            if probe < 0x20 {
              let raw = Data("[\"".utf8 + bytes + "\"]".utf8)
              #expect(throws: DecodingError.self) { try StoreJSONDecoder().decode([String].self, from: raw) }
            }
          }
        }
      }
    }
    #expect(!JSONSpecialBytes.occur(in: UnsafeRawBufferPointer(start: nil, count: 0)))
  }

  /// A process that reads another's commit takes each value's JSON from the change file, as
  /// the committing process keeps the JSON it encoded, and its compaction writes that: the
  /// same bytes as the store's encoder writes for the objects, escapes and non-ASCII included.
  @Test func anotherProcesssCompactionWritesTheCommittedJSON() throws {
    let events = [
      Event(uuid: Sample.id(10), ownerID: nil, at: Sample.date(days: 0.25), title: "q\"uote \\ é 🍼\n", amount: 90),
      Event(uuid: Sample.id(11), ownerID: nil, at: Sample.date(days: 3), title: "plain", amount: nil),
      Event(uuid: Sample.id(12), ownerID: nil, at: Sample.date(days: 40.5), title: "", amount: 1e-7),
    ]
    let change = ChangeFile(
      device: testDevice(7), sequence: 3, hlc: 0x1234_5678_0000_0001, author: "test", timestamp: Sample.epoch, schemaVersion: 1,
      objects: events.map { ObjectChange(entity: "Event", id: $0.id, kind: .upsert, value: $0, groups: nil) })
    let values = try StoreCoding.makeDecoder(schema: TestSchema.v1).decode(ChangeFileValues.self, from: StoreJSONEncoder().encode(change))
    #expect(try values.objects.map { $0.encoded?.bytes } == events.map { Array(try StoreJSONEncoder().encode($0)) })
    var older = change
    older.schemaVersion = 0  // an older schema's JSON: its values are read, its bytes are not kept
    let olderValues = try StoreCoding.makeDecoder(schema: TestSchema.v1).decode(ChangeFileValues.self, from: StoreJSONEncoder().encode(older))
    #expect(olderValues.objects.map { $0.value as? Event } == events && olderValues.objects.allSatisfy { $0.encoded == nil })

    try withTemporaryStore { container in
      let context = container.newBackgroundContext()
      events.forEach(context.insert)
      try context.save()
      var edited = events[1]
      edited.title = "edited \t"
      context.update(edited)
      try context.save()
      let other = try StoreContainer.file(at: try #require(container.directory), schema: TestSchema.v1, options: Sample.options)
      #expect(try other.newBackgroundContext().fetchCount(FetchDescriptor<Event>()) == 3)  // read through the log
      try other.compact()
      let segments = try #require(container.directory).appendingPathComponent("local/segments")
      let files = try FileManager.default.contentsOfDirectory(atPath: segments.path).filter { $0.hasPrefix("Event.") }
      #expect(files.count == 2)
      for name in files {
        let bytes = try Data(contentsOf: segments.appendingPathComponent(name))
        let file = try StoreCoding.makeDecoder(schema: TestSchema.v1).decode(SegmentFile<[Event]>.self, from: bytes)
        #expect(try StoreJSONEncoder().encode(SegmentFile(entity: "Event", segment: file.segment, objects: file.objects)) == bytes, "\(name)")
      }
    }
  }

  @Test func nestedContainersAndSuperEncodersWriteSortedObjects() throws {
    let ours = try StoreJSONEncoder().encode(Interleaved())
    #expect(ours == (try Self.foundationEncoder().encode(Interleaved())))
    #expect(String(decoding: ours, as: UTF8.self) == #"{"a":{"x":1,"y":2},"b":[3,{"k":4}],"super":{"s":5},"z":0}"#)
    let back = try StoreJSONDecoder().decode(Interleaved.self, from: ours)
    #expect(back == Interleaved())  // its init(from:) checks every value
  }

  /// A UUID is written as its `uuidString`, whatever its bytes.
  @Test func uuidsAreWrittenAsTheirUUIDString() throws {
    var generator = SplitMix64(seed: 7)
    let ids = (0..<300).map { _ in
      UUID(uuid: withUnsafeBytes(of: (generator.next(), generator.next())) { $0.load(as: uuid_t.self) })
    } + [UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)), UUID(uuid: (255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255))]
    let written = String(decoding: try StoreJSONEncoder().encode(ids), as: UTF8.self)
    #expect(written == "[" + ids.map { "\"\($0.uuidString)\"" }.joined(separator: ",") + "]")
    #expect(ids.map(JSONWriter.uuidString) == ids.map(\.uuidString))
  }

  /// A date is written as `ISO8601.format` writes it, with or without a fraction of a second
  /// (a commit's own time has one), whole seconds through the writer's own digits.
  @Test func datesAreWrittenAsISO8601FormatWritesThem() throws {
    var generator = SplitMix64(seed: 11)
    var dates = (0..<400).map { index -> Date in
      let seconds = Double(Int64(bitPattern: generator.next()) % 4_000_000_000)
      let fraction = index.isMultiple(of: 2) ? 0 : Double(generator.next() % 1_000_000) / 1_000_000
      return Date(timeIntervalSinceReferenceDate: seconds + fraction)
    }
    dates += [0.5, 1e-5, 0.000_001, -0.25, 1_000_000.125].map(Date.init(timeIntervalSinceReferenceDate:))
    dates += [Date(timeIntervalSince1970: 1_795_574_748.116), Date(timeIntervalSince1970: -62_135_596_800.5)]
    let written = String(decoding: try StoreJSONEncoder().encode(dates), as: UTF8.self)
    #expect(written == "[" + dates.map { "\"\(ISO8601.format($0))\"" }.joined(separator: ",") + "]")
  }

  /// A date read from JSON bytes is the one `ISO8601.parse` gives its text, whatever the
  /// length of its fraction: up to 15 digits read as exact integers, and past that (a clock's
  /// full-precision time, as every log entry and change file holds) as the fraction's text.
  @Test func datesAreReadAsISO8601ParseReadsThemForEveryFractionLength() throws {
    var generator = SplitMix64(seed: 13)
    var texts = ["2026-11-27T05:53:42.6999448537826538Z", "2026-11-27T05:53:41.15685880184173584Z", "2026-11-27T05:53:41.99999999999999999999Z"]
    for digits in 1...24 {
      for _ in 0..<40 {
        let fraction = String((0..<digits).map { _ in Character(String(generator.next() % 10)) })
        texts.append("20\(10 + generator.next() % 80)-0\(1 + generator.next() % 9)-1\(generator.next() % 9)T1\(generator.next() % 9):3\(generator.next() % 9):5\(generator.next() % 9).\(fraction)Z")
      }
    }
    let decoded = try StoreJSONDecoder().decode([Date].self, from: Data(("[" + texts.map { "\"\($0)\"" }.joined(separator: ",") + "]").utf8))
    #expect(decoded == texts.map { ISO8601.parse($0)! })
    #expect(try StoreJSONDecoder().decode([ChangeStamp].self, from: Data(#"["01a21b91152b0002.a460701e4ae294dc5773f7b76368c8f4.000000000006"]"#.utf8)) == [
      ChangeStamp(hlc: 0x01a2_1b91_152b_0002, device: DeviceID("a460701e4ae294dc5773f7b76368c8f4")!, sequence: 6)
    ])
    for wrong in ["01a21b91152b0002.a460701e4ae294dc5773f7b76368c8f4.00000000006", "01a21b91152b0002.a460701e4ae294dc5773f7b76368c8f4.0000000000x6",
      "01A21b91152b0002.a460701e4ae294dc5773f7b76368c8f4.000000000006", "01a21b91152b0002-a460701e4ae294dc5773f7b76368c8f4.000000000006",
      "01a21b91152b0002.a460701e4ae294dc5773f7b76368c8fg.000000000006", "ffffffffffffffff.a460701e4ae294dc5773f7b76368c8f4.000000000006", ""]
    {
      #expect(ChangeStamp(wrong) == nil, "\(wrong)")
    }
  }

  /// The fixed-width texts a commit writes into its names and stamps: 16 hex digits of a
  /// clock or a checksum, 12 decimal digits of a sequence.
  @Test func fixedWidthTextsArePaddedDigits() {
    var generator = SplitMix64(seed: 12)
    for value in (0..<200).map({ _ in generator.next() >> (generator.next() % 64) }) + [0, 1, .max] {
      let digits = String(value, radix: 16)
      #expect(Digits.hex16(value) == String(repeating: "0", count: 16 - digits.count) + digits)
    }
    for sequence in [0, 1, 9, 10, 123_456, 999_999_999_999, 1_000_000_000_000, -3] {
      let digits = String(sequence.magnitude)
      #expect(ChangeFileName.sequenceText(sequence) == (sequence < 0 ? "-" : "") + String(repeating: "0", count: max(0, 12 - digits.count)) + digits)
    }
  }

  /// `Digits`, the one digit writer: padded decimals of any sign and size, and the civil text
  /// of store dates (`ISO8601.format`, the JSON writer's dates), against Foundation's calendar.
  @Test func theDigitWriterPadsDecimalsAndWritesCivilDates() throws {
    for (value, width, text) in [(7, 2, "07"), (-3, 2, "-03"), (2026, 4, "2026"), (123_456, 2, "123456"), (0, 1, "0"), (0, 3, "000")] {
      #expect(Digits.decimal(value, width: width) == text)
    }
    #expect(Digits.decimal(Int.min) == String(Int.min))
    #expect(Digits.decimal(Int.max, width: 30) == String(repeating: "0", count: 30 - String(Int.max).count) + String(Int.max))
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
    var generator = SplitMix64(seed: 8601)
    // Foundation's calendar is Julian before 1582; the store's is proleptic Gregorian.
    let first = ISO8601.parse("1583-01-01T00:00:00Z")!.timeIntervalSinceReferenceDate
    let last = ISO8601.parse("9999-12-31T23:59:59Z")!.timeIntervalSinceReferenceDate
    let seconds = (0..<500).map { _ in first + Double(generator.next() % UInt64(last - first)) } + [first, last]
    #expect(ISO8601.format(ISO8601.parse("0000-01-01T00:00:00Z")!) == "0000-01-01T00:00:00Z")
    for second in seconds {
      let date = Date(timeIntervalSinceReferenceDate: second)
      let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
      let expected = [(parts.year!, 4, "-"), (parts.month!, 2, "-"), (parts.day!, 2, "T"), (parts.hour!, 2, ":"), (parts.minute!, 2, ":"), (parts.second!, 2, "Z")]
        .map { String(format: "%0\($0.1)d", $0.0) + $0.2 }.joined()
      #expect(ISO8601.format(date) == expected)
      #expect(try String(decoding: StoreJSONEncoder().encode([date]), as: UTF8.self) == "[\"\(expected)\"]")
    }
  }

  /// Members written out of order, some keys twice (the last one kept), keys that prefix each
  /// other: sorted as Foundation sorts them, for objects small enough to be put in order on the
  /// stack and larger ones.
  @Test(arguments: [1, 2, 3, 8, 31, 32, 33, 40])
  func membersInAnyOrderComeOutAsFoundationsBytes(count: Int) throws {
    var generator = SplitMix64(seed: UInt64(count))
    for _ in 0..<20 {
      let names = ["a", "aa", "ab", "b", "B", "ba", "z", "é", "a0", "_"] + (0..<30).map { "k\($0)" }
      let members = (0..<count).map { _ in Shuffled.Member(key: names.randomElement(using: &generator)!, value: Int.random(in: -99...99, using: &generator)) }
      let value = Shuffled(members: members)
      #expect(try StoreJSONEncoder().encode(value) == (try Self.foundationEncoder().encode(value)), "\(members)")
    }
  }

  /// An object whose members are written in the order given, duplicates and all.
  struct Shuffled: Encodable {
    struct Member { var key: String; var value: Int }
    var members: [Member]
    func encode(to encoder: Encoder) throws {
      var container = encoder.container(keyedBy: JSONCodingKey.self)
      for member in members { try container.encode(member.value, forKey: JSONCodingKey(stringValue: member.key)) }
    }
  }

  /// Writes to nested containers after the parent moved on, as the Encoder protocol allows.
  struct Interleaved: Codable, Equatable {
    enum Keys: String, CodingKey { case z, a, b, x, y, k, s }
    func encode(to encoder: Encoder) throws {
      var container = encoder.container(keyedBy: Keys.self)
      var a = container.nestedContainer(keyedBy: Keys.self, forKey: .a)
      var b = container.nestedUnkeyedContainer(forKey: .b)
      try container.encode(0, forKey: .z)
      try a.encode(2, forKey: .y)
      try b.encode(3)
      var inner = b.nestedContainer(keyedBy: Keys.self)
      try a.encode(1, forKey: .x)
      try inner.encode(4, forKey: .k)
      var sup = container.superEncoder().container(keyedBy: Keys.self)
      try sup.encode(5, forKey: .s)
    }
    init() {}
    init(from decoder: Decoder) throws {
      let container = try decoder.container(keyedBy: Keys.self)
      let a = try container.nestedContainer(keyedBy: Keys.self, forKey: .a)
      var b = try container.nestedUnkeyedContainer(forKey: .b)
      let sup = try container.superDecoder().container(keyedBy: Keys.self)
      guard try container.decode(Int.self, forKey: .z) == 0, try a.decode(Int.self, forKey: .x) == 1,
        try a.decode(Int.self, forKey: .y) == 2, try b.decode(Int.self) == 3,
        try b.nestedContainer(keyedBy: Keys.self).decode(Int.self, forKey: .k) == 4, b.isAtEnd,
        try sup.decode(Int.self, forKey: .s) == 5, container.allKeys.map(\.stringValue) == ["a", "b", "z"]
      else { throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "wrong values")) }
    }
  }

  // MARK: Errors

  static let damaged = [
    #"{"name":"Mia","numbers":[1,2"#, #"{"name":"Mia","numbers":[]} x"#, #"{"name":"\q","numbers":[]}"#,
    #"{"name":"\ud800","numbers":[]}"#, #"{"name":"Mia","numbers":[01]}"#, #"{"name":"Mia" "numbers":[]}"#, "",
    #"{"name":"Mia","numbers":[1.]}"#, #"{"name":"Mia","numbers":[tru]}"#, "{\"name\":\"tab\there\",\"numbers\":[]}",
  ]

  @Test(arguments: damaged)
  func damagedSyntaxIsDataCorruptedWithoutPath(_ text: String) throws {
    #expect {
      try StoreJSONDecoder().decode(Child.self, from: Data(text.utf8))
    } throws: { error in
      guard case DecodingError.dataCorrupted(let context) = error else { return false }
      return context.codingPath.isEmpty && StoreCoding.reason(error).hasPrefix("not valid JSON (damaged or truncated): ")
    }
  }

  /// Objects past the scan limit are read through a member table: every member found, escaped
  /// keys included, nested large objects apart, and a missing key still an error.
  @Test func largeObjectsFindEveryMember() throws {
    struct Wide: Codable, Equatable {
      var outer: [String: [String: Int]]
      var last: Int
    }
    var inner: [String: Int] = [:]
    for n in 0..<(JSONDecoding.scanLimit * 3) { inner["key \(n)"] = n }
    inner["quote \" and \\u00e9 é"] = -1
    var outer: [String: [String: Int]] = [:]
    for n in 0..<(JSONDecoding.scanLimit + 2) { outer["month \(n)"] = inner.mapValues { $0 + n } }
    let wide = Wide(outer: outer, last: 7)
    let data = try Self.foundationEncoder().encode(wide)
    #expect(try StoreJSONDecoder().decode(Wide.self, from: data) == wide)
    #expect(try StoreJSONDecoder().decode(Wide.self, from: data) == Self.foundationDecoder().decode(Wide.self, from: data))

    struct Missing: Decodable {
      var absent: Int
      init(from decoder: Decoder) throws {
        absent = try decoder.container(keyedBy: JSONCodingKey.self).decode(Int.self, forKey: JSONCodingKey(stringValue: "absent"))
      }
    }
    #expect(throws: DecodingError.self) { try StoreJSONDecoder().decode(Missing.self, from: try Self.foundationEncoder().encode(inner)) }
  }

  @Test func missingKeyIsKeyNotFoundAtItsPath() throws {
    let text = #"{"zeta":{},"alpha":[],"map":{},"matrix":[]}"#
    #expect {
      try StoreJSONDecoder().decode(Nested.self, from: Data(text.utf8))
    } throws: { error in
      guard case DecodingError.keyNotFound(let key, let context) = error else { return false }
      return key.stringValue == "bool" && context.codingPath.map(\.stringValue) == ["zeta"]
        && StoreCoding.reason(error) == "zeta.bool: the key is missing"
    }
  }

  @Test func wrongTypeIsTypeMismatchAtItsPath() throws {
    let text = #"{"name":"Mia","numbers":[1,"two"]}"#
    #expect {
      try StoreJSONDecoder().decode(Child.self, from: Data(text.utf8))
    } throws: { error in
      guard case DecodingError.typeMismatch(_, let context) = error else { return false }
      return StoreCoding.reason(error).hasPrefix("numbers[1]: expected a number") && context.codingPath.count == 2
    }
  }

  @Test func nullForARequiredValueIsValueNotFound() throws {
    #expect {
      try StoreJSONDecoder().decode(Child.self, from: Data(#"{"name":null,"numbers":[]}"#.utf8))
    } throws: { error in
      guard case DecodingError.valueNotFound(_, let context) = error else { return false }
      return context.codingPath.map(\.stringValue) == ["name"]
    }
  }

  @Test func badDateNamesTheTextAndPath() throws {
    struct Dated: Decodable { var at: [Date] }
    #expect {
      try StoreJSONDecoder().decode(Dated.self, from: Data(#"{"at":["2026-13-01T00:00:00Z"]}"#.utf8))
    } throws: { error in
      StoreCoding.reason(error) == "at[0]: '2026-13-01T00:00:00Z' is not an ISO 8601 date"
    }
  }

  @Test func numbersOutOfRangeAreRefused() throws {
    for text in [#"[1e21]"#, #"[1.5]"#, #"[9223372036854775808]"#] {
      #expect(throws: DecodingError.self) { try StoreJSONDecoder().decode([Int].self, from: Data(text.utf8)) }
    }
    #expect(throws: DecodingError.self) { try StoreJSONDecoder().decode([UInt8].self, from: Data("[256]".utf8)) }
    #expect(throws: DecodingError.self) { try StoreJSONDecoder().decode([Double].self, from: Data("[1e400]".utf8)) }
  }

  @Test func errorsFromInitFromPassThrough() throws {
    let text = #"{"formatVersion":1,"sequence":1,"author":"a","timestamp":"2026-01-15T09:30:00Z","changes":[{"entity":"Ghost","id":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F","kind":"insert","segment":"all","value":{}}]}"#
    #expect(throws: StoreError.self) {
      try StoreCoding.makeDecoder(schema: TestSchema.v1).decode(LogEntry.self, from: Data(text.utf8))
    }
  }
}
