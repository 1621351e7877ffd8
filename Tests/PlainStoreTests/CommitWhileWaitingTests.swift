import BabyDashboardTesting
import Foundation
import Testing

@testable import PlainStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A commit that waits for the store's lock, held by another process, loads what its plan
/// reads meanwhile (its month's segment, and that month's uniqueness index): holding the lock,
/// it plans against what is loaded.
@Suite struct CommitWhileWaitingTests {
  @Test func aWaitingCommitReadsItsMonthBeforeTheLockComes() throws {
    let scratch = try ScratchFolder()
    defer { scratch.remove() }
    let store = scratch.url.appendingPathComponent("Family.store")
    let writer = try StoreContainer.file(at: store, schema: TestSchema.v1, options: Sample.options)
    let context = writer.newBackgroundContext()
    for day in 1...3 {
      context.insert(Event(uuid: Sample.id(day), ownerID: nil, at: Sample.date(days: Double(day)), title: "day \(day)", amount: nil))
    }
    try context.save()
    try writer.compact()  // the month in its segment file, which a new container has not read

    let prepared = DispatchSemaphore(value: 0)
    var options = Sample.options
    options.phaseObserver = { phase in if phase == "commit: prepared" { prepared.signal() } }
    let waiting = try StoreContainer.file(at: store, schema: TestSchema.v1, options: options)
    #expect(waiting.statistics.segmentFilesRead == 0)
    let lock = open(store.appendingPathComponent("local/lock").path, O_RDWR | O_CLOEXEC)
    #expect(lock >= 0 && flock(lock, LOCK_EX) == 0, "another process holds the lock")
    let saved = DispatchSemaphore(value: 0)
    let outcome = StoreMutex<Result<Void, any Error>?>(nil)
    DispatchQueue.global().async {
      let context = waiting.newBackgroundContext()
      // The plan looks its id and its key up in the month's objects and uniqueness index.
      context.insert(Event(uuid: Sample.id(10), ownerID: nil, at: Sample.date(days: 4), title: "day 4", amount: nil))
      let result = Result { _ = try context.save() }
      outcome.withLock { $0 = result }
      saved.signal()
    }
    // The waiting commit has loaded what its plan reads (it gives up at the lock's timeout, 10 s).
    #expect(prepared.wait(timeout: .now() + 10) == .success)
    #expect(waiting.statistics.segmentFilesRead == 1, "read while the lock was held elsewhere")
    #expect(outcome.withLock { $0 == nil }, "the save still waits for the lock")
    FileLock.release(lock)
    saved.wait()
    try outcome.withLock { $0 }?.get()
    #expect(waiting.statistics.segmentFilesRead == 1, "holding the lock, the plan read nothing more")
    let events = try waiting.newBackgroundContext().fetch(FetchDescriptor<Event>()).map(\.title).sorted()
    #expect(events == ["day 1", "day 2", "day 3", "day 4"])
  }
}
