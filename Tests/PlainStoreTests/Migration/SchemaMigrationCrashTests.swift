import BabyDashboardTesting
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

  struct Outcome: Sendable {
    var phases = KillPhases()
    var killed = 0
    var finished = 0
    var leftOld = 0
    var leftMigrated = 0
    var failures: [String] = []
  }

  /// Runs on a thread of its own: the rounds block on child processes for a minute or more, which
  /// must not hold one of the few threads every other test's tasks share.
  @Test func aSchemaMigrationKilledAtAnyMomentLeavesTheOldStoreOrTheMigratedOne() async throws {
    let outcome = try await onOwnThread { try Self.killRounds() }
    #expect(outcome.failures == [])
    print(
      "SchemaMigrationCrashTests: \(Self.kills) rounds, kills by phase: \(outcome.phases); \(outcome.leftOld) left at version 1, \(outcome.leftMigrated) at version 2; every item present after each"
    )
    #expect(outcome.phases.shortfalls(["schema migration": Self.kills / 2]) == [], "\(outcome.phases)")
    #expect(outcome.leftOld > 0, "some kills landed before the migration was done")
  }

  static func killRounds() throws -> Outcome {
    let folder = MultiProcessFolder()
    defer { folder.remove() }
    let original = folder.folder.appendingPathComponent("original.store")
    let items = Self.items(200)
    try Self.writeVersion1(items, to: original)
    let migrated = items.map(MultiProcessItemV2.init(migrating:)).sorted { $0.batch < $1.batch }
    let options = StoreOptions(watchesOtherProcesses: false)
    var random = SplitMix64(seed: 0x5C4E_3A2)
    var outcome = Outcome()
    // A migration of this store takes 100–400 ms here, depending on the load: the kills aim
    // within the shortest whole run seen so far.
    var window = 0.4
    for round in 0..<Self.kills {
      try? FileManager.default.removeItem(at: folder.store)
      try FileManager.default.copyItem(at: original, to: folder.store)
      let child = try MultiProcessChild(["open", folder.store.path, "--schema", "2"])
      _ = child.waitForLine(startingWith: "phase schema migration", timeout: .seconds(60))  // past start-up and the open's first reads
      let started = Date()
      usleep(UInt32(random.next() % UInt64(window * 1_000_000)))
      child.kill()
      if outcome.phases.record(child, killed: child.waitForExit() == -SIGKILL) == "schema migration" {
        outcome.killed += 1
      } else {
        outcome.finished += 1
        window = min(window, Date().timeIntervalSince(started))  // the machine got faster: aim within the run
      }

      let header = try String(contentsOf: folder.store.appendingPathComponent("store.json"), encoding: .utf8)
      if header.contains(#""schemaVersion":1"#) {
        // Not migrated: the old program opens it as it was.
        outcome.leftOld += 1
        let old = try StoreContainer.file(at: folder.store, schema: MultiProcessItem.schema, options: options)
        let found = try old.newBackgroundContext().fetch(FetchDescriptor<MultiProcessItem>(sortBy: [SortDescriptor(\.batch)]))
        if found != items { outcome.failures.append("round \(round): the old program finds \(found.count) of \(items.count) items") }
      } else if header.contains(#""schemaVersion":2"#) {
        outcome.leftMigrated += 1
        do {
          _ = try StoreContainer.file(at: folder.store, schema: MultiProcessItem.schema, options: options)
          outcome.failures.append("round \(round): the old program opened a migrated store")
        } catch let error as StoreError where error.code == .newerSchema(2) {
          // refused, as it must be
        }
      } else {
        outcome.failures.append("round \(round): store.json reads \(header)")
      }
      let new = try StoreContainer.file(at: folder.store, schema: MultiProcessItemV2.schema, options: options)
      let found = try new.newBackgroundContext().fetch(FetchDescriptor<MultiProcessItemV2>(sortBy: [SortDescriptor(\.batch)]))
      if found != migrated { outcome.failures.append("round \(round): \(found.count) of \(items.count) items after the kill, migrated") }
      if !outcome.failures.isEmpty { break }
    }
    return outcome
  }
}
