import Foundation
import PlainStore
import Testing

extension MultiProcessTests {
  /// A history reader registered by one process protects its history from another's pruning.
  @Suite struct HistoryAcrossProcessesTests {
    @Test func pruningRespectsAReaderRegisteredByAnotherProcess() throws {
      let shared = MultiProcessFolder()
      defer { shared.remove() }
      let container = try shared.open(StoreOptions(author: "parent", compactionThreshold: 1_000, logRetention: 0))
      let context = container.newBackgroundContext()
      for batch in 0..<10 {
        context.insert(MultiProcessItem(id: UUID(), writer: "parent", batch: batch, part: 0, at: Date(timeIntervalSince1970: 0)))
        try context.save()
      }

      let first = try MultiProcessChild.run(["reader", shared.store.path, "--name", "widget", "--consume-through", "4"])
      #expect(first.lines == ["token 4", "pending 5,6,7,8,9,10"])
      try container.pruneHistory(through: HistoryToken(sequence: 10))
      #expect(try container.historyReader(named: "widget").token() == HistoryToken(sequence: 4))
      #expect(try container.history(after: HistoryToken(sequence: 4)).map(\.sequence) == Array(5...10))
      #expect(throws: StoreError.self) { try container.history(after: HistoryToken(sequence: 3)) }

      let second = try MultiProcessChild.run(["reader", shared.store.path, "--name", "widget", "--consume-through", "8"])
      #expect(second.lines == ["token 8", "pending 9,10"])
      try container.pruneHistory(through: HistoryToken(sequence: 10))
      #expect(try container.history(after: HistoryToken(sequence: 8)).map(\.sequence) == [9, 10])
      #expect(throws: StoreError.self) { try container.history(after: HistoryToken(sequence: 7)) }
      let third = try MultiProcessChild.run(["reader", shared.store.path, "--name", "widget"])
      #expect(third.lines == ["token 8", "pending 9,10"])
    }
  }
}
