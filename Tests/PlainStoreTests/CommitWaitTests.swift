import Foundation
import Testing

@testable import PlainStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A save that waits for another process's lock reads the commits made meanwhile as they come,
/// rather than all of them once its turn comes: among four writers that catch-up was a third of
/// the time each commit held the lock.
@Suite struct CommitWaitTests {
  @Test func aSaveWaitingForTheLockCatchesUpMeanwhile() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("PlainStoreCommitWait-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent("Family.store")
    var options = Sample.options
    options.watchesOtherProcesses = false  // no watcher catches up: only the waiting save can
    let app = try StoreContainer.file(at: url, schema: TestSchema.v1, options: options)
    #expect(try app.newBackgroundContext().fetch(FetchDescriptor<Owner>()).isEmpty)
    let widget = try StoreContainer.file(at: url, schema: TestSchema.v1, options: options).newBackgroundContext()
    widget.insert(Owner(id: Sample.id(1), name: "Mia"))
    try widget.save()

    // Another process holds the lock, and the app's save waits for it on a thread of its own.
    let holder = open(url.appendingPathComponent("local/lock").path, O_RDWR)
    #expect(flock(holder, LOCK_EX) == 0)
    let saved = DispatchSemaphore(value: 0)
    let failure = StoreMutex<(any Error)?>(nil)
    Thread {
      let context = app.newBackgroundContext()
      context.insert(Owner(id: Sample.id(2), name: "Noah"))
      do { try context.save() } catch { failure.withLock { $0 = error } }
      saved.signal()
    }.start()

    // The widget's commit reaches the app while its save still waits (no event tells of it:
    // looked for until it shows, within a minute).
    var seen = false
    let deadline = ContinuousClock.now + .seconds(60)
    while !seen, ContinuousClock.now < deadline {
      seen = try app.newBackgroundContext().fetch(FetchDescriptor<Owner>()).map(\.name) == ["Mia"]
      if !seen { usleep(1_000) }
    }
    #expect(seen, "the waiting save did not read the widget's commit")
    #expect(saved.wait(timeout: .now()) == .timedOut, "the save waited for the lock")
    FileLock.release(holder)  // let go, not only closed: a starting child may share it
    saved.wait()
    #expect(failure.withLock { $0 } == nil)
    #expect(try app.newBackgroundContext().fetch(FetchDescriptor<Owner>()).map(\.name).sorted() == ["Mia", "Noah"])
  }
}
