import BabyDashboardTesting
import Foundation
import Testing

@testable import PlainStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The compaction a commit makes due runs once the save has returned, off the saving thread:
/// it writes the segments holding neither the store's lock nor the coordinator's, so that
/// other processes and this one commit meanwhile, and takes the store's lock again for the
/// manifest alone, written only if no other manifest came first.
@Suite struct CacheCompactionLockTests {
  let scratch: ScratchFolder
  var store: URL { scratch.url.appendingPathComponent("Family.store") }

  init() throws { scratch = try ScratchFolder() }

  /// A container whose compactions come every `threshold` commits, running `meanwhile` once its
  /// segments are written, before it takes the lock for the manifest.
  func container(threshold: Int = 5, meanwhile: (@Sendable () -> Void)? = nil) throws -> StoreContainer {
    var options = Sample.options
    options.compactionThreshold = threshold
    options.phaseObserver = { phase in if phase == "compact: segments written" { meanwhile?() } }
    return try StoreContainer.file(at: store, schema: TestSchema.v1, options: options)
  }

  /// A container whose first compaction, once its segments are written, signals `reached` and
  /// waits for `release`; the later ones run on.
  func containerHoldingItsFirstCompaction() throws -> (StoreContainer, reached: DispatchSemaphore, release: DispatchSemaphore) {
    let (reached, release) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
    let held = StoreMutex(false)
    let writer = try container {
      guard !held.withLock({ held in defer { held = true }; return held }) else { return }
      reached.signal()
      release.wait()
    }
    return (writer, reached, release)
  }

  func lockIsFree() -> Bool { storeLockIsFree(at: store) }

  /// The manifest on disk: its sequence, and whether every segment file it names is there.
  func manifest() throws -> (sequence: Int, filesThere: Bool) {
    let local = store.appendingPathComponent("local")
    let manifest = try StoreCoding.makeDecoder(schema: TestSchema.v1).decode(
      Manifest.self, from: Data(contentsOf: local.appendingPathComponent("manifest.json")))
    let named = manifest.segments.values.flatMap { $0.values.map(\.file) }
    let there = named.allSatisfy { FileManager.default.fileExists(atPath: local.appendingPathComponent("segments/\($0)").path) }
    return (manifest.sequence, there)
  }

  /// What a process that opens the store now reads, and whether it had to rebuild the cache.
  func freshRead() throws -> (names: [String], rebuilt: Bool) {
    let fresh = try StoreContainer.file(at: store, schema: TestSchema.v1, options: Sample.options)
    let names = try fresh.newBackgroundContext().fetch(FetchDescriptor<Owner>()).map(\.name).sorted()
    return (names, fresh.statistics.cacheRebuilds > 0)
  }

  func insertOwners(_ range: ClosedRange<Int>, _ context: StoreContext) throws {
    for index in range {
      context.insert(Owner(id: Sample.id(index), name: "Owner \(index)"))
      try context.save()
    }
  }

  var manifestIsThere: Bool { FileManager.default.fileExists(atPath: store.appendingPathComponent("local/manifest.json").path) }

  /// Takes the store's lock as another process would, until `letGo()`.
  final class LockHolder: Sendable {
    private let fd = StoreMutex<Int32>(-1)
    /// Signalled once the lock is taken: the compaction that takes it runs after the save.
    private let taken = DispatchSemaphore(value: 0)
    func take(_ store: URL) {
      let descriptor = open(store.appendingPathComponent("local/lock").path, O_RDWR | O_CLOEXEC)
      flock(descriptor, LOCK_EX)
      fd.withLock { $0 = descriptor }
      taken.signal()
    }
    /// Waits until `take` has the lock.
    func waitUntilTaken() { taken.wait() }
    func letGo() {
      fd.withLock { fd in
        if fd >= 0 { FileLock.release(fd) }
        fd = -1
      }
    }
  }

  /// Compactions every 5 commits; `holder` takes the store's lock once one's segments are written.
  func optionsTakingTheLock(atCompaction holder: LockHolder) -> StoreOptions {
    var options = Sample.options
    options.compactionThreshold = 5
    options.phaseObserver = { [store] phase in if phase == "compact: segments written" { holder.take(store) } }
    return options
  }

  /// The save whose commit made the compaction due returns once its segments are written; the
  /// manifest, which waits for the lock behind another holder, lands once that one lets it go,
  /// and is counted then.
  @Test func aSaveDoesNotWaitForTheLockItsCompactionsManifestNeeds() throws {
    defer { scratch.remove() }
    let holder = LockHolder()
    let options = optionsTakingTheLock(atCompaction: holder)
    let writer = try StoreContainer.file(at: store, schema: TestSchema.v1, options: options)
    defer { holder.letGo() }  // should an expectation throw first
    try insertOwners(1...5, writer.newBackgroundContext())
    // The fifth save returned; its compaction wrote the segments, and another took the lock:
    // the manifest is still to come.
    holder.waitUntilTaken()
    #expect(!lockIsFree())
    #expect(!manifestIsThere)
    holder.letGo()
    #expect(writer.statistics.compactions == 1, "counted once it landed")
    #expect(try manifest() == (5, true))
    #expect(try freshRead() == ((1...5).map { "Owner \($0)" }, false))
  }

  /// A save does not wait for the compaction the save before made due: while that one is held
  /// up once its segments are written, the next saves return. The save that makes the next
  /// one due waits for it first (at most one in flight), so the next starts from its manifest.
  @Test func aSaveDoesNotWaitForTheCompactionTheSaveBeforeMadeDue() throws {
    defer { scratch.remove() }
    let (writer, reached, release) = try containerHoldingItsFirstCompaction()
    let context = writer.newBackgroundContext()
    try insertOwners(1...5, context)
    reached.wait()
    try insertOwners(6...9, context)  // returned while the compaction is held up
    #expect(!manifestIsThere)
    release.signal()
    try insertOwners(10...10, context)
    writer.waitForHousekeeping()
    #expect(writer.statistics.compactions == 2, "the second from the first's manifest")
    #expect(try manifest() == (10, true))
    #expect(try freshRead() == ((1...10).map { "Owner \($0)" }.sorted(), false))
  }

  /// This process renames, deletes and inserts while its own compaction, taken at the fifth
  /// save, is held up once its segments are written: when the manifest is installed, the
  /// table takes the compaction's copy of the objects with those saves replayed into it, and
  /// shows every one of them, as a process that opens the store reads them.
  @Test func savesMadeWhileTheSegmentsAreWrittenStayInTheCacheThatTakesThem() throws {
    defer { scratch.remove() }
    let (writer, reached, release) = try containerHoldingItsFirstCompaction()
    let context = writer.newBackgroundContext()
    try insertOwners(1...5, context)
    reached.wait()
    var renamed = try #require(try context.object(Owner.self, id: Sample.id(1)))
    renamed.name = "Owner 1, renamed"
    context.update(renamed)
    try context.save()
    context.delete(try #require(try context.object(Owner.self, id: Sample.id(2))))
    try context.save()
    try insertOwners(6...6, context)
    release.signal()
    writer.waitForHousekeeping()
    #expect(writer.statistics.compactions == 1)
    #expect(try manifest() == (5, true), "the saves after it stay in the log")
    let expected = ["Owner 1, renamed", "Owner 3", "Owner 4", "Owner 5", "Owner 6"]
    #expect(try writer.newBackgroundContext().fetch(FetchDescriptor<Owner>()).map(\.name).sorted() == expected)
    #expect(try freshRead() == (expected, false))
    try writer.compact()  // from the copy the table took, with the saves replayed into it
    #expect(try manifest() == (8, true))
    #expect(try writer.newBackgroundContext().fetch(FetchDescriptor<Owner>()).map(\.name).sorted() == expected)
    #expect(try freshRead() == (expected, false))
  }

  /// A container that goes away waits for its saves' manifests: a tool's last save is not cut
  /// off by its exit.
  @Test func aContainerThatGoesAwayWaitsForItsCompactionsManifest() throws {
    defer { scratch.remove() }
    let holder = LockHolder()
    let options = optionsTakingTheLock(atCompaction: holder)
    var writer: StoreContainer? = try StoreContainer.file(at: store, schema: TestSchema.v1, options: options)
    defer { holder.letGo() }
    try insertOwners(1...5, try #require(writer).newBackgroundContext())
    holder.waitUntilTaken()
    #expect(!manifestIsThere)
    holder.letGo()
    writer = nil
    #expect(try manifest() == (5, true), "written before the container went")
  }

  @Test func theCommitWhoseTurnItIsWritesTheSegmentsWithTheLockFree() throws {
    defer { scratch.remove() }
    let free = StoreMutex<[Bool]>([])
    let writer = try container { [self] in free.withLock { $0.append(lockIsFree()) } }
    try insertOwners(1...5, writer.newBackgroundContext())
    writer.waitForHousekeeping()  // the compaction follows the save
    #expect(free.withLock { $0 } == [true], "one compaction, its segments written with the lock free")
    #expect(writer.statistics.compactions == 1)
    #expect(try manifest() == (5, true))
    #expect(try freshRead() == ((1...5).map { "Owner \($0)" }, false))
  }

  /// Another process commits while the segments are written: the manifest names them, and its
  /// commit, after the manifest's sequence, is read from the log by everyone — this process,
  /// which read it before writing the manifest, included.
  @Test func commitsMadeWhileTheSegmentsAreWrittenStayInTheLog() throws {
    defer { scratch.remove() }
    let other = try container(threshold: 1_000)  // commits without compacting
    let committed = StoreMutex<Result<Void, any Error>?>(nil)
    let writer = try container {
      let result = Result<Void, any Error> {
        let context = other.newBackgroundContext()
        try context.refresh()  // the writer's commits, whether or not its watcher has seen them yet
        var owner = try #require(try context.object(Owner.self, id: Sample.id(1)))
        owner.name = "Owner 1, renamed"
        context.update(owner)
        context.insert(Owner(id: Sample.id(6), name: "Owner 6"))
        try context.save()
      }
      committed.withLock { $0 = result }
    }
    let context = writer.newBackgroundContext()
    try insertOwners(1...5, context)
    writer.waitForHousekeeping()
    try #require(committed.withLock { $0 }).get()
    #expect(writer.statistics.compactions == 1)
    #expect(try manifest() == (5, true), "this compaction's manifest, the other's commit after it")
    let expected = ["Owner 1, renamed", "Owner 2", "Owner 3", "Owner 4", "Owner 5", "Owner 6"]
    #expect(try context.fetch(FetchDescriptor<Owner>()).map(\.name).sorted() == expected)
    #expect(try freshRead() == (expected, false))
    try writer.compact()  // the next compaction starts from the new manifest and the pending commit
    #expect(try manifest() == (6, true))
    #expect(try freshRead() == (expected, false))
  }

  /// Another process compacts while the segments are written, and removes them as files no
  /// manifest names: its manifest stands, and this process's segments are never named.
  @Test func aManifestWrittenWhileTheSegmentsAreWrittenStands() throws {
    defer { scratch.remove() }
    let other = try container()
    let overtook = StoreMutex(false)
    let writer = try container {
      let context = other.newBackgroundContext()
      context.insert(Owner(id: Sample.id(6), name: "Owner 6"))
      _ = try? context.save()  // its outcome is read below, through what the compaction and a fresh read hold
      overtook.withLock { $0 = (try? other.compact()) != nil }
    }
    let context = writer.newBackgroundContext()
    try insertOwners(1...5, context)
    writer.waitForHousekeeping()
    #expect(overtook.withLock { $0 })
    #expect(writer.statistics.compactions == 0, "the other's manifest came first")
    #expect(try manifest() == (6, true))
    let expected = (1...6).map { "Owner \($0)" }
    #expect(try context.fetch(FetchDescriptor<Owner>()).map(\.name).sorted() == expected)
    #expect(try freshRead() == (expected, false))
  }

  /// Another process commits while the segments are written: it finds the compaction due, but
  /// that is the writer's commit's, so it writes no segments of its own; the compaction after
  /// is the commit's that takes the log to the next level, whichever process makes it.
  @Test func aCommitThatFindsTheCompactionDueThroughAnotherLeavesItToThatOne() throws {
    defer { scratch.remove() }
    let other = try container()
    let committed = StoreMutex<Result<Void, any Error>?>(nil)
    let writer = try container {
      committed.withLock { $0 = Result { try insertOwners(6...6, other.newBackgroundContext()) } }
    }
    try insertOwners(1...5, writer.newBackgroundContext())
    writer.waitForHousekeeping()
    try #require(committed.withLock { $0 }).get()
    #expect(writer.statistics.compactions == 1)
    #expect(other.statistics.compactions == 0, "the writer's commit took the log to the compaction; the other's found it there")
    #expect(try manifest() == (5, true))
    try insertOwners(7...9, other.newBackgroundContext())
    #expect(other.statistics.compactions == 0, "the log at 4 commits past the manifest")
    try insertOwners(10...10, other.newBackgroundContext())
    #expect(other.statistics.compactions == 1, "its commit took the log to the next level")
    #expect(try manifest() == (10, true))
    #expect(try freshRead() == ((1...10).map { "Owner \($0)" }.sorted(), false))
  }
}
