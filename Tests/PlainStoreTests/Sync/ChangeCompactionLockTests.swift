import BabyDashboardTesting
import Foundation
import Testing

@testable import PlainStore

/// A change compaction reads and folds every change file and encodes a snapshot of it all — a
/// second at 20k objects — without the store's lock, so the device's other processes commit
/// meanwhile; holding it, it only writes the snapshot it made and deletes what is acknowledged.
@Suite struct ChangeCompactionLockTests {
  let scratch: ScratchFolder
  var store: URL { scratch.url.appendingPathComponent("Family.store") }
  var ownFolder: URL { store.appendingPathComponent("changes/\(Sample.device)") }

  init() throws { scratch = try ScratchFolder() }

  func options(threshold: Int, onPlanned: (@Sendable () -> Void)? = nil) -> StoreOptions {
    var options = Sample.options
    options.changeCompactionThreshold = threshold
    options.compactionThreshold = threshold == 0 ? 64 : threshold  // the change compaction's turn comes with the cache's
    options.phaseObserver = { phase in if phase == "compact: planned" { onPlanned?() } }
    return options
  }

  func names() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: ownFolder.path).sorted() }

  func lockIsFree() -> Bool { storeLockIsFree(at: store) }

  @Test func theCommitWhoseTurnItIsPlansTheCompactionWithTheLockFree() throws {
    defer { scratch.remove() }
    let free = StoreMutex<[Bool]>([])
    let container = try StoreContainer.file(
      at: store, schema: TestSchema.v1, options: options(threshold: 5) { [self] in free.withLock { $0.append(lockIsFree()) } })
    let context = container.newBackgroundContext()
    for index in 1...5 {
      context.insert(Owner(id: Sample.id(index), name: "Owner \(index)"))
      try context.save()
    }
    container.waitForHousekeeping()  // the compaction follows the save
    #expect(free.withLock { $0 } == [true], "one compaction, its files folded and its snapshot made with the lock free")
    #expect(try names() == ["device.json", "snapshot-000000000001.json"], "the snapshot written, the changes it covers deleted")
    #expect(try StoreContainer.file(at: store, schema: TestSchema.v1, options: Sample.options).newBackgroundContext().fetchCount(FetchDescriptor<Owner>()) == 5)
  }

  /// Another process compacted between this one's plan and its lock: the plan's snapshot
  /// number is taken, so the plan is made again holding the lock, and nothing is refused.
  @Test func aPlanAnotherCompactionOvertookIsMadeAgainHoldingTheLock() throws {
    defer { scratch.remove() }
    let writer = try StoreContainer.file(at: store, schema: TestSchema.v1, options: options(threshold: 0))
    let context = writer.newBackgroundContext()
    for index in 1...3 {
      context.insert(Owner(id: Sample.id(index), name: "Owner \(index)"))
      try context.save()
    }
    let other = try StoreContainer.file(at: store, schema: TestSchema.v1, options: options(threshold: 0))
    let overtaken = StoreMutex(false)
    let othersFailure = StoreMutex<String?>(nil)
    let first = try StoreContainer.file(
      at: store, schema: TestSchema.v1,
      options: options(threshold: 0) {
        // The first plan only: the other process compacts before this one takes the lock.
        guard !overtaken.withLock({ $0 }) else { return }
        overtaken.withLock { $0 = true }
        let context = other.newBackgroundContext()
        context.insert(Owner(id: Sample.id(4), name: "Owner 4"))
        do {
          try context.save()
          _ = try other.compactChanges()
        } catch {
          othersFailure.withLock { $0 = "\(error)" }
        }
      })
    let report = try #require(try first.compactChanges())
    #expect(overtaken.withLock { $0 })
    #expect(othersFailure.withLock { $0 } == nil, "the other process saved and compacted")
    #expect(report.snapshotWritten == nil, "the other's snapshot holds everything already")
    #expect(try names() == ["device.json", "snapshot-000000000001.json"])
    #expect(try first.newBackgroundContext().fetchCount(FetchDescriptor<Owner>()) == 4)
  }
}
