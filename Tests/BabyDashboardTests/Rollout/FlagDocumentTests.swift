import BabyDashboard
import BabyDashboardTesting
import Foundation
import Testing

@Suite struct FlagDocumentTests {
  static let path = "Rollout/flags.json"

  @Test func aHandWrittenDocumentIsReadAsItIs() throws {
    // Hand spacing, a bare number and a percent sign: what a person types is what counts.
    let text = """
      {"format":1,
         "flags": { "legacyImporter": {"state": 20, "owner": "Sungdoo",  "minimumAppVersion": "2.1"},
                    "lastFeedAmountCache": { "state": "5%" } } }
      """
    let document = try FlagDocument.decode(Data(text.utf8), path: Self.path)
    #expect(document.entries[.legacyImporter] == FlagDocument.Entry(state: .cohort(percent: 20), owner: "Sungdoo", minimumAppVersion: AppVersion("2.1")))
    #expect(document.entries[.lastFeedAmountCache]?.state == .cohort(percent: 5))
    #expect(try FlagDocument.decode(try document.encoded(), path: Self.path) == document)
  }

  @Test func aFlagOfANewerAppIsKeptAndListedNotRefused() throws {
    let text = #"{"format": 1, "flags": {"widgetReadOnly": {"state": "on", "note": [1, true]}, "legacyImporter": {"state": "off"}}}"#
    let document = try FlagDocument.decode(Data(text.utf8), path: Self.path)
    #expect(document.unknownFlags == ["widgetReadOnly"])
    #expect(document.entries[.legacyImporter]?.state == .off)
    let written = String(decoding: try document.encoded(), as: UTF8.self)
    #expect(written.contains(#""note" : ["#))
    #expect(try FlagDocument.decode(try document.encoded(), path: Self.path) == document)
  }

  @Test(arguments: [
    ("{", "not JSON"),
    ("[]", "not a JSON object"),
    (#"{"flags": {}}"#, #"no "format" number"#),
    (#"{"format": true, "flags": {}}"#, #"no "format" number"#),
    (#"{"format": 1}"#, #"no "flags" object"#),
    (#"{"format": 1, "flags": {"legacyImporter": "on"}}"#, "flag 'legacyImporter': not an object"),
    (#"{"format": 1, "flags": {"legacyImporter": {}}}"#, #"flag 'legacyImporter': no "state""#),
    (#"{"format": 1, "flags": {"legacyImporter": {"state": "half"}}}"#, #"flag 'legacyImporter': state "half" is not "off", "on" or a percentage"#),
    (#"{"format": 1, "flags": {"legacyImporter": {"state": 101}}}"#, "flag 'legacyImporter': state 101 is not"),
    (#"{"format": 1, "flags": {"legacyImporter": {"state": true}}}"#, "flag 'legacyImporter': state true is not"),
    (#"{"format": 1, "flags": {"legacyImporter": {"state": 2.5}}}"#, "flag 'legacyImporter': state 2.5 is not"),
    (#"{"format": 1, "flags": {"legacyImporter": {"state": "on", "owner": 7}}}"#, "flag 'legacyImporter': owner 7 is not text"),
    (#"{"format": 1, "flags": {"legacyImporter": {"state": "on", "minimumAppVersion": "two"}}}"#, #"flag 'legacyImporter': minimumAppVersion "two" is not a version"#),
    (#"{"format": 1, "flags": {"legacyImporter": {"state": "on", "minimumAppVerison": "2.1"}}}"#, "flag 'legacyImporter': unknown field 'minimumAppVerison'"),
  ])
  func aDamagedDocumentIsRefusedNamingTheFlagAndTheField(_ text: String, _ reason: String) throws {
    let error = try #require(throws: KeyValueStoreError.self) { try FlagDocument.decode(Data(text.utf8), path: Self.path) }
    #expect(error.code == .damaged)
    #expect(error.description.hasPrefix("damaged at '\(Self.path)': \(reason)"), "\(error)")
    #expect(error.description.hasSuffix("or remove the file"))
  }

  @Test func aDocumentOfANewerFormatIsRefusedAsNewer() throws {
    let error = try #require(throws: KeyValueStoreError.self) {
      try FlagDocument.decode(Data(#"{"format": 2, "flags": {}}"#.utf8), path: Self.path)
    }
    #expect(error.code == .newerFormat(2))
  }

  @Test func settingAFlagKeepsTheOthersAndReplacesTheFileWhole() throws {
    let folder = try TemporaryDirectory("FlagDocument")
    defer { folder.remove() }
    let url = FlagDocument.url(in: folder.url)
    #expect(try FlagDocument.load(from: url) == nil)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(#"{"format":1,"flags":{"lastFeedAmountCache":{"state":"on","owner":"A"},"future":{"state":"on"}}}"#.utf8).write(to: url)
    try FlagDocument.modify(at: url) { $0.entries[.legacyImporter] = FlagDocument.Entry(state: .cohort(percent: 10)) }
    let document = try #require(try FlagDocument.load(from: url))
    #expect(document.entries[.lastFeedAmountCache] == FlagDocument.Entry(state: .on, owner: "A"))
    #expect(document.entries[.legacyImporter]?.state == .cohort(percent: 10))
    #expect(document.unknownFlags == ["future"])
    // Only the document and its lock: no temporary file left beside them.
    #expect(try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path).sorted() == ["flags.json", "flags.json.lock"])
  }

  @Test func aDamagedDocumentIsNeverOverwrittenByASet() throws {
    let folder = try TemporaryDirectory("FlagDocument")
    defer { folder.remove() }
    let url = FlagDocument.url(in: folder.url)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data("{oops".utf8).write(to: url)
    #expect(throws: KeyValueStoreError.self) { try FlagDocument.modify(at: url) { $0.entries[.legacyImporter] = .init(state: .off) } }
    #expect(try Data(contentsOf: url) == Data("{oops".utf8))
  }
}
