import Foundation
import Testing

@testable import PlainStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A waiter in the kernel claims the lock, and a holder whose turn has lasted lets it in: the
/// waiter's wait ends with the holder's turn, not when the holder happens to pause.
@Suite struct LockClaimTests {
  /// A fresh folder for a lock file and its claim beside it; with `claimFile`, the claim's
  /// file is there, as a first hold leaves it.
  func withFolder(claimFile: Bool = true, _ body: (_ lock: URL, _ claim: URL) throws -> Void) throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("LockClaimTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let lock = folder.appendingPathComponent("lock")
    let claim = lock.appendingPathExtension("claim")
    if claimFile { LockClaim.makeFile(at: claim) }
    try body(lock, claim)
  }

  /// Holds the lock at `url` from another descriptor, as another process would, until the
  /// returned closure lets it go.
  func holdLock(_ url: URL) -> @Sendable () -> Void {
    let holder = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    #expect(flock(holder, LOCK_EX) == 0)
    return { FileLock.release(holder) }
  }

  /// A waiter that goes to the kernel claims the lock while it waits there, and lets the claim
  /// go the moment the lock comes: its body runs with no claim left.
  @Test func aWaiterInTheKernelClaimsTheLockUntilItComes() throws {
    try withFolder { url, claimURL in
      let release = holdLock(url)
      let lock = FileLock(url: url, displayPath: "lock", turnDelays: [], claimURL: claimURL)
      let claimedWhileWaiting = StoreMutex<Bool?>(nil)
      let claimedWhileHeld = try lock.withLock(
        timeout: .seconds(600),
        whileWaiting: {
          // The first slice in the kernel: the claim is taken; the holder lets go.
          guard claimedWhileWaiting.withLock({ $0 }) == nil else { return }
          claimedWhileWaiting.withLock { $0 = LockClaim.isTaken(at: claimURL) }
          release()
        }
      ) { LockClaim.isTaken(at: claimURL) }
      #expect(claimedWhileWaiting.withLock { $0 } == true)
      #expect(!claimedWhileHeld)
      #expect(!LockClaim.isTaken(at: claimURL))
    }
  }

  /// A waiter changes nothing on disk: with no claim file (a store made before claims), it
  /// waits without a claim; the first hold makes the file, for the next waiter.
  @Test func theFirstHoldMakesTheClaimFileAndAWaiterNever() throws {
    try withFolder(claimFile: false) { url, claimURL in
      let release = holdLock(url)
      let waiter = FileLock(url: url, displayPath: "lock", turnDelays: [], claimURL: claimURL)
      #expect(throws: StoreError.self) { try waiter.withLock(timeout: .milliseconds(50)) {} }
      #expect(!FileManager.default.fileExists(atPath: claimURL.path), "a waiter made the claim's file")
      release()
      try waiter.withLock(timeout: .seconds(600)) {}
      #expect(FileManager.default.fileExists(atPath: claimURL.path))
    }
  }

  /// A waiter that gives up lets its claim go with the wait: no holder yields to it afterwards.
  @Test func aWaiterThatGivesUpLetsItsClaimGo() throws {
    try withFolder { url, claimURL in
      let release = holdLock(url)
      defer { release() }
      let lock = FileLock(url: url, displayPath: "lock", turnDelays: [], claimURL: claimURL)
      #expect(throws: StoreError.self) { try lock.withLock(timeout: .milliseconds(50)) {} }
      #expect(!LockClaim.isTaken(at: claimURL))
    }
  }

  /// One claim at a time: a second waiter's claim waits for the first's to go.
  @Test func aClaimIsOneWaitersAtATime() throws {
    try withFolder { _, claimURL in
      let first = LockClaim(url: claimURL)
      let second = LockClaim(url: claimURL)
      first.take()
      second.take()
      first.letGo()
      #expect(!LockClaim.isTaken(at: claimURL), "the second never held it")
      second.take()
      #expect(LockClaim.isTaken(at: claimURL))
      second.letGo()
      #expect(!LockClaim.isTaken(at: claimURL))
    }
  }

  /// A holder whose turn has lasted `shortestTurn` lets the lock go when a waiter has claimed
  /// it, and waits in turn: its next body runs only after its first delay (2 s). Without the
  /// claim, or with a turn that has not lasted, it runs at once.
  @Test func aHolderWhoseTurnHasLastedLetsAClaimantIn() throws {
    try withFolder { url, claimURL in
      let delay = Duration.seconds(2)
      let clock = ContinuousClock()
      // A gap of a minute between holds: each hold here continues the turn, however slow the machine.
      func makeLock(shortestTurn: Duration) -> FileLock {
        FileLock(url: url, displayPath: "lock", turnDelays: [delay], claimURL: claimURL, shortestTurn: shortestTurn, turnGap: .seconds(60))
      }
      func secondHold(_ lock: FileLock, claimed: Bool) throws -> Duration {
        _ = try lock.withLock(timeout: .seconds(600)) { usleep(10_000) }  // a turn of 10 ms
        let claim = LockClaim(url: claimURL)
        if claimed { claim.take() }
        defer { claim.letGo() }
        let start = clock.now
        try lock.withLock(timeout: .seconds(600)) {}
        return clock.now - start
      }
      let yielded = try secondHold(makeLock(shortestTurn: .milliseconds(5)), claimed: true)
      #expect(yielded >= delay, "the holder kept the lock from a claimant after a turn of 10 ms: its next hold took \(yielded)")
      let unclaimed = try secondHold(makeLock(shortestTurn: .milliseconds(5)), claimed: false)
      #expect(unclaimed < delay, "the holder waited with no claimant: \(unclaimed)")
      let early = try secondHold(makeLock(shortestTurn: .seconds(60)), claimed: true)
      #expect(early < delay, "the holder let the lock go before its turn had lasted: \(early)")
    }
  }
}
