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

  enum Damage: String, CaseIterable, Sendable {
    case truncatedManifest, damagedLog, truncatedSegment, missingSegment, newerFormat, newerSchema, notJSONHeader
  }

  func apply(_ damage: Damage, to url: URL) throws -> (file: String, code: StoreError.Code) {
    func path(_ name: String) -> URL { url.appendingPathComponent(name) }
    switch damage {
    case .truncatedManifest:
      let data = try Data(contentsOf: path("manifest.json"))
      try data.prefix(data.count / 2).write(to: path("manifest.json"))
      return ("manifest.json", .damaged)
    case .damagedLog:
      try Data(#"{"formatVersion":1,"sequence":2,"author":"x""#.utf8).write(to: path("log/00000002.json"))
      return ("log/00000002.json", .damaged)
    case .truncatedSegment:
      let data = try Data(contentsOf: path("segments/Event.2026-01.00000001.json"))
      try data.prefix(10).write(to: path("segments/Event.2026-01.00000001.json"))
      return ("segments/Event.2026-01.00000001.json", .damaged)
    case .missingSegment:
      try FileManager.default.removeItem(at: path("segments/Event.2026-01.00000001.json"))
      return ("segments/Event.2026-01.00000001.json", .missing)
    case .newerFormat:
      try Data(#"{"formatVersion":7,"sequence":2}"#.utf8).write(to: path("log/00000002.json"))
      return ("log/00000002.json", .newerFormat(7))
    case .newerSchema:
      var text = try String(contentsOf: path("store.json"), encoding: .utf8)
      text = text.replacingOccurrences(of: #""schemaVersion":1"#, with: #""schemaVersion":2"#)
      try Data(text.utf8).write(to: path("store.json"))
      return ("store.json", .newerSchema(2))
    case .notJSONHeader:
      try Data("hello".utf8).write(to: path("store.json"))
      return ("store.json", .damaged)
    }
  }

  @Test(arguments: Damage.allCases)
  func damageIsReportedByNameAndChangesNothing(_ damage: Damage) throws {
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

  @Test func aLockHeldTooLongIsReportedAsLocked() throws {
    let url = try makeStore()
    defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
    var options = Sample.options
    options.lockTimeout = .milliseconds(200)
    let container = try StoreContainer.file(at: url, schema: TestSchema.v1, options: options)
    let fd = open(url.appendingPathComponent("lock").path, O_RDWR)
    #expect(flock(fd, LOCK_EX) == 0)
    defer { close(fd) }
    let before = try snapshotFiles(url)
    let context = container.newBackgroundContext()
    context.insert(Owner(id: Sample.id(4), name: "Ava"))
    #expect {
      try context.save()
    } throws: { error in
      let error = try #require(error as? StoreError)
      return error.code == .locked && error.path == "Family.store/lock"
    }
    #expect(try snapshotFiles(url) == before)
    #expect(context.hasChanges)
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
    let leftover = url.appendingPathComponent("log/.00000003.json.123.456.tmp")
    try Data("{half".utf8).write(to: leftover)
    let container = try StoreContainer.file(at: url, schema: TestSchema.v1)
    let context = container.newBackgroundContext()
    #expect(try context.fetchCount(FetchDescriptor<Owner>()) == 2)
    context.insert(Owner(id: Sample.id(4), name: "Ava"))
    try context.save()
    #expect(!FileManager.default.fileExists(atPath: leftover.path))
  }
}
