import BabyDashboard
import BabyDashboardTesting
import Foundation
import Testing

@Suite struct FileKeyValueStoreTests {
  @Test func aMissingFileIsAnEmptyStoreAndNothingIsCreatedByReading() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let store = FileKeyValueStore(fileURL: directory.url.appendingPathComponent("Preferences/x.json"))
    #expect(try store.allKeys() == [])
    #expect(!FileManager.default.fileExists(atPath: store.fileURL.path))
  }

  @Test func theFileIsVersionedSortedJSONOnlyItsOwnerCanRead() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let store = FileKeyValueStore(fileURL: directory.url.appendingPathComponent("Preferences/x.json"))
    try store.set(Data("b".utf8), forKey: "zeta")
    try store.set(Data("a".utf8), forKey: "alpha")
    let text = try String(contentsOf: store.fileURL, encoding: .utf8)
    #expect(text.contains(#""formatVersion" : 3"#))
    let alpha = try #require(text.range(of: "alpha"))
    let zeta = try #require(text.range(of: "zeta"))
    #expect(alpha.lowerBound < zeta.lowerBound)
    let attributes = try FileManager.default.attributesOfItem(atPath: store.fileURL.path)
    #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    let names = try FileManager.default.contentsOfDirectory(atPath: store.fileURL.deletingLastPathComponent().path)
    #expect(names.sorted() == ["x.json", "x.json.lock"])
    let folder = try FileManager.default.attributesOfItem(atPath: store.fileURL.deletingLastPathComponent().path)
    #expect((folder[.posixPermissions] as? NSNumber)?.intValue == 0o700)
  }

  @Test func jsonValuesAreReadableJSONInTheFileAndOtherBytesStayExact() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let store = FileKeyValueStore(fileURL: directory.url.appendingPathComponent("Preferences/x.json"))
    let cache = LastFeedAmountCache(store: store)
    try cache.set(LastFeedAmount(amountValue: 120, amountUnitSymbol: "mL"), forBabyID: Fixed.id(1))
    try MigrationRecord(schemaVersion: 1, completedAt: Fixed.now).save(to: store)
    try store.set(Data([0xFF, 0x00]), forKey: "binary")
    let text = try String(contentsOf: store.fileURL, encoding: .utf8)
    #expect(text.contains(#""amountUnitSymbol" : "mL""#), "\(text)")
    #expect(text.contains(#""completedAt" : "2026-03-14T15:00:00Z""#), "\(text)")
    #expect(text.contains(#""binary" : "/wA=""#), "\(text)")
    #expect(try cache.amountsByBabyID() == [Fixed.id(1): LastFeedAmount(amountValue: 120, amountUnitSymbol: "mL")])
    #expect(try MigrationRecord.load(from: store)?.completedAt == Fixed.now)
    #expect(try store.data(forKey: "binary") == Data([0xFF, 0x00]))
  }

  @Test func aFormat1FileWithBase64ValuesIsStillRead() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let url = directory.url.appendingPathComponent("x.json")
    try Data(#"{"formatVersion":1,"values":{"a":"MQ=="}}"#.utf8).write(to: url)
    #expect(try FileKeyValueStore(fileURL: url).data(forKey: "a") == Data("1".utf8))
  }

  @Test(arguments: [
    ("not json at all", "not a key-value file"),
    (#"{"values":{}}"#, "formatVersion: the key is missing"),
    (#"{"formatVersion":1,"values":{"a":"***"}}"#, "unreadable values"),
    ("", "not a key-value file"),
  ])
  func aDamagedFileIsAnErrorNamingItNeverAnEmptyStore(contents: String, reason: String) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let url = directory.url.appendingPathComponent("prefs.json")
    try Data(contents.utf8).write(to: url)
    let store = FileKeyValueStore(fileURL: url)
    let error = try #require(throws: KeyValueStoreError.self) { try store.allKeys() }
    #expect(error.code == .damaged)
    #expect(error.path == url.path)
    #expect(error.description.contains(reason))
    #expect(error.description.contains("left untouched"))
    // A write must not replace the damaged file either.
    #expect(throws: KeyValueStoreError.self) { try store.set(Data(), forKey: "k") }
    #expect(try String(contentsOf: url, encoding: .utf8) == contents)
  }

  @Test func aFileFromANewerVersionIsRefusedAndKept() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let url = directory.url.appendingPathComponent("prefs.json")
    try Data(#"{"formatVersion":7,"values":{},"more":true}"#.utf8).write(to: url)
    let error = try #require(throws: KeyValueStoreError.self) { try FileKeyValueStore(fileURL: url).data(forKey: "a") }
    #expect(error.code == .newerFormat(7))
    #expect(error.description.contains("update this app"))
  }

  @Test func leftoverTemporaryFilesAreIgnoredAndCleanedByTheNextWriter() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let url = directory.url.appendingPathComponent("prefs.json")
    let store = FileKeyValueStore(fileURL: url)
    try store.set(Data("1".utf8), forKey: "a")
    let leftover = directory.url.appendingPathComponent(".prefs.json.4242.17.tmp")
    try Data("garbage".utf8).write(to: leftover)
    #expect(try store.data(forKey: "a") == Data("1".utf8))
    try store.set(Data("2".utf8), forKey: "b")
    #expect(!FileManager.default.fileExists(atPath: leftover.path))
  }

  /// Each writer opens the lock file itself, as separate processes do; `flock` orders them, so
  /// no read-modify-write loses another's key.
  @Test func concurrentWritersNeverLoseEachOthersKeys() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let url = directory.url.appendingPathComponent("prefs.json")
    // A writer's error fails the test, and the run goes on. Each waits as long as it takes:
    // what is tested is that no key is lost, and on a machine running three test suites at
    // once a writer waited out the others' flushes for over the 10 s default.
    try await withThrowingTaskGroup(of: Void.self) { group in
      for writer in 0..<4 {
        group.addTask {
          let store = FileKeyValueStore(fileURL: url, lockTimeout: .seconds(600))
          for index in 0..<25 {
            try store.set(Data("\(writer)".utf8), forKey: "w\(writer).\(index)")
          }
        }
      }
      try await group.waitForAll()
    }
    #expect(try FileKeyValueStore(fileURL: url).allKeys().count == 100)
  }
}
