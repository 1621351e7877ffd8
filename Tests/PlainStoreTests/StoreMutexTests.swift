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
    #expect(value.withLock { $0 } == [1, 2, 3])
  }
}
