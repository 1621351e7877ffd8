import BabyDashboardTesting
import Foundation
import Synchronization
import Testing

@testable import PlainStore

/// A container that watches its folder lets its store go with it: the store's memory is freed
/// on the thread that lets the container go, when it does, not later on the watcher's thread
/// beside whatever the app does next.
@Suite struct WatcherLifetimeTests {
  @Test func aWatchingContainersStoreGoesWhenTheContainerGoes() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("PlainStoreWatcher-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    weak var store: StoreCoordinator?
    do {
      let container = try StoreContainer.file(at: folder.appendingPathComponent("Family.store"), schema: TestSchema.v1, options: Sample.options)
      store = container.coordinator
      let context = container.newBackgroundContext()
      context.insert(Owner(id: Sample.id(1), name: "Mia"))
      try context.save()
      #expect(store != nil)
    }
    #expect(store == nil, "the watcher's thread held the store after its container was let go")
  }

  /// An observer may let the store go while it is told of a change, on the watcher's thread:
  /// stopping the watcher from inside its own call returns at once, rather than wait for itself.
  @Test func aWatcherStoppedFromInsideItsOwnCallReturns() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("PlainStoreWatcher-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let (stopped, continuation) = AsyncStream<Void>.makeStream()
    let watcher = StoreMutex<FolderWatcher?>(nil)
    let made = FolderWatcher(folder: folder) {
      watcher.withLock { $0 }?.stop()
      continuation.yield()
    }
    watcher.withLock { $0 = made }
    made.start()
    try Data("x".utf8).write(to: folder.appendingPathComponent("file"))
    #expect(await firstElement(of: stopped, within: .seconds(10)) != nil)
  }

  /// What makes the test above hold on a loaded machine: the watcher's thread holds the store
  /// while it catches up after an event (the save's own), and `stop()` — which the container's
  /// `deinit` calls — waits for that call to end. Each round stops the watcher from another
  /// thread while a call is in flight; the call waits up to 100 ms for `stop()` to return, which
  /// it must not do before the call ends. (Only an early return is an event to wait for; the
  /// wait that proves there is none needs a limit. Before the fix every round saw it.)
  @Test func stoppingAWatcherWaitsForTheCallInFlight() throws {
    for round in 0..<3 {
      let folder = FileManager.default.temporaryDirectory.appendingPathComponent("PlainStoreWatcher-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(at: folder) }
      let entered = DispatchSemaphore(value: 0)
      let stopping = DispatchSemaphore(value: 0)
      let stopReturned = DispatchSemaphore(value: 0)
      let returnedDuringCall = Atomic<Bool>(false)
      let calls = Atomic<Int>(0)
      let watcher = FolderWatcher(folder: folder) {
        guard calls.add(1, ordering: .sequentiallyConsistent).newValue == 1 else { return }
        entered.signal()
        stopping.wait()  // the other thread is about to call stop()
        if stopReturned.wait(timeout: .now() + .milliseconds(100)) == .success {
          returnedDuringCall.store(true, ordering: .sequentiallyConsistent)
        }
      }
      watcher.start()
      try Data("x".utf8).write(to: folder.appendingPathComponent("event"))
      entered.wait()
      let done = DispatchSemaphore(value: 0)
      Thread {
        stopping.signal()
        watcher.stop()
        stopReturned.signal()
        done.signal()
      }.start()
      done.wait()
      let early = returnedDuringCall.load(ordering: .sequentiallyConsistent)
      #expect(!early, "round \(round): stop() returned while onChange ran")
      if early { break }
    }
  }

  /// A store opens with two watchers (the local log and the sync folder), begun together so that
  /// their threads wait for a core at the same time: each one, once waited for, sees a change
  /// made right after, though the other was begun before it and waited for after it. Each
  /// thread is held up before it sets its watch, as a loaded machine holds up a new thread:
  /// without the waits, the writes come first and their events are lost.
  @Test func watchersBegunTogetherEachSeeAChangeMadeRightAfterTheirWait() async throws {
    let base = FileManager.default.temporaryDirectory.appendingPathComponent("PlainStoreWatcher-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: base) }
    let folders = ["log", "changes"].map { base.appendingPathComponent($0).path }
    for folder in folders { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
    let streams = folders.map { _ in AsyncStream<Void>.makeStream() }
    let watchers = folders.indices.map { index in
      let asked = Atomic<Bool>(false)
      return FolderWatcher(folders: {
        // Asked first on the watcher's thread, before the watch is set: a slow start.
        if !asked.exchange(true, ordering: .relaxed) { Thread.sleep(forTimeInterval: 0.05) }
        return [folders[index]]
      }) { streams[index].continuation.yield() }
    }
    defer { for watcher in watchers { watcher.stop() } }
    watchers[0].begin()
    watchers[1].start()
    try Data("x".utf8).write(to: URL(fileURLWithPath: folders[1]).appendingPathComponent("arrived"))
    watchers[0].waitUntilWatching()
    try Data("x".utf8).write(to: URL(fileURLWithPath: folders[0]).appendingPathComponent("appended"))
    for index in folders.indices {
      #expect(await firstElement(of: streams[index].stream, within: .seconds(10)) != nil, "no event from \(folders[index])")
    }
  }

  /// A folder that is there but cannot be watched — the system's limit of inotify watches
  /// (ENOSPC) in real life; here a name too long for the kernel (ENAMETOOLONG), the one such
  /// error a test can cause without lowering a limit for every process — is not taken for a
  /// folder yet to come: the watcher polls, and changes are still seen.
  @Test(.enabled(if: isLinux, "inotify's errors"), arguments: [false, true])
  func aFolderThatCannotBeWatchedIsPolled(appearingLater: Bool) async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("PlainStoreWatcher-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let unwatchable = folder.path + "/" + String(repeating: "a/", count: 2_100) + "sub"
    let appeared = Atomic<Bool>(!appearingLater)
    let count = Atomic<Int>(0)
    let (calls, continuation) = AsyncStream<Int>.makeStream()
    let watcher = FolderWatcher(
      folders: { appeared.load(ordering: .relaxed) ? [folder.path, unwatchable] : [folder.path] }, pollInterval: .milliseconds(20)
    ) { continuation.yield(count.add(1, ordering: .relaxed).newValue) }
    watcher.start()
    defer { watcher.stop() }
    if appearingLater {
      appeared.store(true, ordering: .relaxed)
      try Data("x".utf8).write(to: folder.appendingPathComponent("first"))  // an event: the folders are asked again
    }
    // Polled: call after call, with nothing written (inotify would give one call at most).
    #expect(await firstElement(of: calls, within: .seconds(10), where: { $0 >= 5 }) != nil, "not polled")
  }
}

private let isLinux: Bool = {
  #if os(Linux)
    true
  #else
    false
  #endif
}()
