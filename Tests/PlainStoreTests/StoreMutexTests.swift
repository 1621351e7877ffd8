import Foundation
import PlainStore
import Testing

@Suite struct StoreMutexTests {
  @Test func incrementsFromManyThreadsAreNeverLost() {
    let count = StoreMutex(0)
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      for _ in 0..<10_000 { count.withLock { $0 += 1 } }
    }
    #expect(count.withLock { $0 } == 80_000)
  }

  @Test func anErrorThrownInsideLeavesTheLockFree() {
    struct Refused: Error {}
    let value = StoreMutex([1, 2])
    #expect(throws: Refused.self) {
      try value.withLock { (values: inout [Int]) throws(Refused) in
        values.append(3)
        throw Refused()
      }
    }
    // Looked at without waiting: a lock left held fails the test rather than hanging it.
    #expect(value.withLockIfAvailable { $0 } == [1, 2, 3], "the lock was left held")
  }

  @Test func aHeldLockIsNotAvailable() {
    let value = StoreMutex(0)
    value.withLock { _ in #expect(value.withLockIfAvailable { $0 } == nil) }
    #expect(value.withLockIfAvailable { $0 } == 0)
  }
}
