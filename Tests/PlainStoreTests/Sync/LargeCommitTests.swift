import Foundation
import Testing

@testable import PlainStore

/// A commit of a thousand objects or more writes its change file on another thread while the
/// tables take it in. When that write fails, the save throws and the process sees the store as
/// it was, as it does after any failed commit; the next save commits the changes whole.
@Suite struct LargeCommitTests {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent("PlainStoreLarge-\(UUID().uuidString)")
  var url: URL { folder.appendingPathComponent("Family.store") }
  var journalURL: URL { url.appendingPathComponent("local/journal") }

  static let count = 1_200

  func owners(_ container: StoreContainer) throws -> [Owner] {
    try container.newBackgroundContext().fetch(FetchDescriptor<Owner>(sortBy: [SortDescriptor(\.name)]))
  }

  @Test func aLargeCommitWhoseChangeFileFailsLeavesTheStoreAsItWas() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    #expect(Self.count >= StoreCoordinator.concurrentWorkThreshold, "the commit takes the concurrent path")
    let container = try StoreContainer.file(at: url, schema: TestSchema.v1, options: Sample.options)
    let context = container.newBackgroundContext()
    context.insert(Owner(id: Sample.id(1), name: "first"))
    try context.save()

    // The journal, which the commit's change file goes through, cannot be written: a folder
    // stands in its place, as damage would leave one.
    try FileManager.default.removeItem(at: journalURL)
    try FileManager.default.createDirectory(at: journalURL, withIntermediateDirectories: false)
    let many = (2...Self.count + 1).map { Owner(id: Sample.id($0), name: String(format: "owner %05d", $0)) }
    many.forEach(context.insert)
    #expect(throws: StoreError.self) { try context.save() }
    let seen = try owners(container).map(\.name)
    #expect(seen.count == 1 && seen.first == "first", "this process sees the store as it was, not \(seen.count) owners")
    // So does another that opens the store, which puts a journal back in place of the folder.
    let other = try StoreContainer.file(at: url, schema: TestSchema.v1, options: Sample.options)
    #expect(try owners(other).map(\.name) == ["first"])
    #expect(FileManager.default.fileExists(atPath: journalURL.path) == false)

    try context.save()
    let saved = try owners(container)
    #expect(saved.count == Self.count + 1)
    #expect(saved == [Owner(id: Sample.id(1), name: "first")] + many.sorted { $0.name < $1.name })
    let reopened = try StoreContainer.file(at: url, schema: TestSchema.v1, options: Sample.options)
    #expect(try owners(reopened) == saved)
    let own = url.appendingPathComponent("changes/\(Sample.device)")
    let names = try FileManager.default.contentsOfDirectory(atPath: own.path).filter { $0.hasPrefix("0") }.sorted()
    #expect(names == ["000000000001.json", "000000000002.json"], "the failed commit took no sequence")
    let size = try Data(contentsOf: own.appendingPathComponent(names[1])).count
    #expect(size <= StoreCoordinator.journalRecordLimit, "the change file went through the journal")
  }

  /// A commit that succeeds on the concurrent path is read back whole, and its unique keys hold
  /// for the saves after it.
  @Test func aLargeCommitIsReadBackWholeAndItsKeysHold() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let container = try StoreContainer.file(at: url, schema: TestSchema.v1, options: Sample.options)
    let context = container.newBackgroundContext()
    let many = (1...Self.count).map { Owner(id: Sample.id($0), name: String(format: "owner %05d", $0)) }
    many.forEach(context.insert)
    try context.save()
    // The same name again merges into the stored owner: the tables' unique indexes hold the
    // large commit's keys.
    context.insert(Owner(id: Sample.id(99_999), name: "owner 00007", note: "again"))
    let result = try context.save()
    #expect(result.merged.values.map(\.uuid) == [Sample.id(7)])
    let reopened = try StoreContainer.file(at: url, schema: TestSchema.v1, options: Sample.options)
    let read = try owners(reopened)
    #expect(read.count == Self.count)
    #expect(read.first { $0.id == Sample.id(7) }?.note == "again")
  }
}
