import Foundation
import Synchronization
import Testing

@testable import PlainStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The store's lock is held only inside a background assertion (on iOS a suspended app that
/// holds it is killed): a recording assertion sees every save, merge, compaction and refresh take
/// it, and a prober that keeps trying the lock never finds it held outside one.
@Suite struct BackgroundAssertionTests {
  /// Counts begins and ends, checking at each that the lock is free (taken after the begin, let
  /// go before the end).
  final class RecordingAssertion: Sendable {
    struct Counts { var begins = 0, ends = 0, violations: [String] = [] }
    let counts = Mutex(Counts())
    let lockPath: String

    init(lockPath: String) { self.lockPath = lockPath }

    var assertion: BackgroundAssertion {
      BackgroundAssertion { reason in
        self.check("before the begin of '\(reason)'")
        self.counts.withLock { $0.begins += 1 }
        return {
          self.check("at the end of '\(reason)'")
          self.counts.withLock { $0.ends += 1 }
        }
      }
    }

    /// Whether the lock is free now, said as a violation when not.
    private func check(_ when: String) {
      guard let held = Self.isHeld(lockPath), held else { return }
      counts.withLock { $0.violations.append("the lock was held \(when)") }
    }

    /// Taken around every look at the lock, so that the prober's look and this one's never see
    /// each other as a holder.
    static let looking = Mutex(())

    /// Whether another open file holds the flock (nil: no lock file yet).
    static func isHeld(_ path: String, probe: Int32? = nil) -> Bool? {
      looking.withLock { _ in look(path, probe: probe) }
    }

    private static func look(_ path: String, probe: Int32?) -> Bool? {
      let fd = probe ?? open(path, O_RDWR | O_CLOEXEC)
      guard fd >= 0 else { return nil }
      defer { if probe == nil { close(fd) } }
      guard flock(fd, LOCK_EX | LOCK_NB) == 0 else { return true }
      flock(fd, LOCK_UN)
      return false
    }
  }

  /// Tries the lock over and over on its own thread; a hold it sees while no assertion has begun
  /// since the last end it read is a hold outside every assertion.
  final class Prober: Sendable {
    let outside = Atomic<Int>(0)
    let seen = Atomic<Int>(0)
    let stopped = Atomic<Bool>(false)
    let done = DispatchSemaphore(value: 0)

    init(_ path: String, _ recording: RecordingAssertion) {
      Thread.detachNewThread { [self] in
        let fd = open(path, O_RDWR | O_CLOEXEC)
        defer { close(fd); done.signal() }
        while !stopped.load(ordering: .relaxed) {
          let endsBefore = recording.counts.withLock { $0.ends }
          guard RecordingAssertion.isHeld(path, probe: fd) == true else { continue }
          seen.add(1, ordering: .relaxed)
          // Assertions run one after another here: a hold inside one began before this look
          // and had not ended before the look began.
          if recording.counts.withLock({ $0.begins }) <= endsBefore { outside.add(1, ordering: .relaxed) }
        }
      }
    }

    func stop() {
      stopped.store(true, ordering: .relaxed)
      done.wait()
    }
  }

  @Test func everyHoldOfTheStoresLockIsInsideABackgroundAssertion() throws {
    let scratch = try ScratchFolder()
    defer { scratch.remove() }
    let store = scratch.url.appendingPathComponent("phone.store")
    let recording = RecordingAssertion(lockPath: store.appendingPathComponent("local/lock").path)
    var options = StoreOptions(author: "phone", watchesOtherProcesses: false, deviceID: testDevice(0xe1).text)
    options.backgroundAssertion = recording.assertion
    let container = try StoreContainer.file(at: store, schema: TestSchema.v1, options: options)
    let prober = Prober(recording.lockPath, recording)

    let context = container.newBackgroundContext()
    for number in 1...40 {
      context.insert(Owner(id: Sample.id(number), name: "baby \(number)"))
      try context.save()
    }
    for number in 100..<1_300 { context.insert(Owner(id: Sample.id(number), name: "bulk \(number)")) }
    try context.save()
    _ = try container.compactChanges()
    _ = try container.sync()
    _ = try container.refresh()
    prober.stop()

    let counts = recording.counts.withLock { $0 }
    #expect(counts.violations == [])
    #expect(counts.begins == counts.ends)
    #expect(counts.begins >= 42, "every save, the compaction and the sync took the lock inside one")
    #expect(prober.outside.load(ordering: .relaxed) == 0, "of \(prober.seen.load(ordering: .relaxed)) holds seen")
  }

  @Test func durableFilesLockIsHeldInsideTheAssertionItIsGiven() throws {
    let scratch = try ScratchFolder()
    defer { scratch.remove() }
    let lock = scratch.url.appendingPathComponent("lock")
    let recording = RecordingAssertion(lockPath: lock.path)
    let file = FileLock(url: lock, displayPath: "lock", assertion: recording.assertion)
    let insideBody = try file.withLock(timeout: .seconds(1)) {
      recording.counts.withLock { $0.begins - $0.ends }
    }
    #expect(insideBody == 1)
    #expect(recording.counts.withLock { $0.violations } == [])
  }
}
