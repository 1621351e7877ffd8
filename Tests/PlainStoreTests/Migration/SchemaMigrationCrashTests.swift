import Foundation
import PlainStore
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// SIGKILL at random moments of a schema migration (plainstore-stress `open --schema 2` on a
/// version-1 store): all or nothing, every time.
@Suite struct SchemaMigrationCrashTests {
  static let kills = 60

  static func items(_ count: Int) -> [MultiProcessItem] {
    (0..<count).map { n in
      MultiProcessItem(
        id: UUID(uuidString: String(format: "00000000-0000-4000-8000-%012x", n))!, writer: "w\(n % 3)", batch: n, part: n % 7,
        at: Date(timeIntervalSince1970: 1_768_469_400 + Double(n % 40) * 6 * 86_400))
    }
  }

  /// A version-1 store of 200 items in 20 commits over 40 months, some compacted into segments.
  static func writeVersion1(_ items: [MultiProcessItem], to store: URL) throws {
    let container = try StoreContainer.file(
      at: store, schema: MultiProcessItem.schema, options: StoreOptions(compactionThreshold: 16, watchesOtherProcesses: false))
    let context = container.newBackgroundContext()
    for chunk in stride(from: 0, to: items.count, by: 10) {
      for item in items[chunk..<min(chunk + 10, items.count)] { context.insert(item) }
      try context.save()
    }
  }

  @Test func aSchemaMigrationKilledAtAnyMomentLeavesTheOldStoreOrTheMigratedOne() throws {
    let folder = MultiProcessFolder()
    defer { folder.remove() }
    let original = folder.folder.appendingPathComponent("original.store")
    let items = Self.items(200)
    try Self.writeVersion1(items, to: original)
    let migrated = items.map(MultiProcessItemV2.init(migrating:)).sorted { $0.batch < $1.batch }
    let options = StoreOptions(watchesOtherProcesses: false)
    var random = SplitMix64(seed: 0x5C4E_3A2)
    var killed = 0
    var finished = 0
    var (leftOld, leftMigrated) = (0, 0)
    for round in 0..<Self.kills {
      try? FileManager.default.removeItem(at: folder.store)
      try FileManager.default.copyItem(at: original, to: folder.store)
      let child = try MultiProcessChild(["open", folder.store.path, "--schema", "2"])
      usleep(UInt32(random.next() % 400_000))  // a migration of this store takes 100–400 ms here
      child.kill()
      if child.waitForExit() == -SIGKILL { killed += 1 } else { finished += 1 }

      let header = try String(contentsOf: folder.store.appendingPathComponent("store.json"), encoding: .utf8)
      if header.contains(#""schemaVersion":1"#) {
        leftOld += 1
        // Not migrated: the old program opens it as it was.
        let old = try StoreContainer.file(at: folder.store, schema: MultiProcessItem.schema, options: options)
        let found = try old.newBackgroundContext().fetch(FetchDescriptor<MultiProcessItem>(sortBy: [SortDescriptor(\.batch)]))
        try #require(found == items, "round \(round): the old program finds \(found.count) of \(items.count) items")
      } else {
        leftMigrated += 1
        try #require(header.contains(#""schemaVersion":2"#), "round \(round): store.json reads \(header)")
        #expect(throws: StoreError.self, "round \(round): a migrated store is refused by the old program") {
          _ = try StoreContainer.file(at: folder.store, schema: MultiProcessItem.schema, options: options)
        }
      }
      let new = try StoreContainer.file(at: folder.store, schema: MultiProcessItemV2.schema, options: options)
      let found = try new.newBackgroundContext().fetch(FetchDescriptor<MultiProcessItemV2>(sortBy: [SortDescriptor(\.batch)]))
      try #require(found == migrated, "round \(round): \(found.count) of \(items.count) items after the kill, migrated")
    }
    print(
      "SchemaMigrationCrashTests: \(killed) of \(Self.kills) migrations killed (\(finished) finished first); \(leftOld) left at version 1, \(leftMigrated) at version 2; every item present after each"
    )
    #expect(killed > Self.kills / 2, "most kills landed while the child ran")
    #expect(leftOld > 0, "some kills landed before the migration was done")
  }
}
