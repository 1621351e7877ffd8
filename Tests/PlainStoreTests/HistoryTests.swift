import Foundation
import PlainStore
import Testing

/// Persistent history in one process: reading after a token, per-reader tokens, pruning.
@Suite struct HistoryTests {
  /// Six saves, one owner each.
  func commitOwners(_ container: StoreContainer, _ range: ClosedRange<Int>) throws -> [Transaction] {
    let context = container.newBackgroundContext()
    return try range.map { n in
      context.insert(Owner(id: Sample.id(n), name: "owner \(n)"))
      return try #require(try context.save().transaction)
    }
  }

  @Test func historyAfterATokenReturnsExactlyTheLaterTransactions() throws {
    try withTemporaryStore { container in
      let saved = try commitOwners(container, 1...6)
      #expect(saved.map(\.sequence) == Array(1...6))
      #expect(try container.history(after: nil) == saved)
      #expect(try container.history(after: saved[2].token) == Array(saved[3...]))
      #expect(try container.history(after: container.currentToken) == [])
      #expect(saved[4].changes == ["Owner": EntityChanges(inserted: [Sample.id(5)])])
    }
  }

  @Test func eachReaderKeepsItsOwnTokenAcrossReopening() throws {
    try withTemporaryStore { container in
      let saved = try commitOwners(container, 1...5)
      let widget = container.historyReader(named: "widget")
      let sync = container.historyReader(named: "sync")
      #expect(try widget.token() == nil)
      #expect(try widget.pending() == saved)
      try widget.markConsumed(through: saved[1].token)
      try sync.markConsumed(through: saved[3].token)
      let reopened = try StoreContainer.file(at: container.directory!, schema: TestSchema.v1, options: Sample.options)
      #expect(try reopened.historyReader(named: "widget").pending() == Array(saved[2...]))
      #expect(try reopened.historyReader(named: "sync").pending() == [saved[4]])
      #expect(try reopened.historyReader(named: "sync").token() == saved[3].token)
    }
  }

  @Test func pruningKeepsWhatARegisteredReaderHasNotConsumed() throws {
    var options = Sample.options
    options.logRetention = 0
    try withTemporaryStore(options) { container in
      let saved = try commitOwners(container, 1...6)
      let widget = container.historyReader(named: "widget")
      try widget.markConsumed(through: saved[1].token)
      try container.pruneHistory(through: saved[4].token)
      #expect(try container.history(after: saved[1].token) == Array(saved[2...]))
      #expect(try widget.pending() == Array(saved[2...]))
      #expect(throws: StoreError.self) { try container.history(after: saved[0].token) }

      try widget.unregister()
      try container.pruneHistory(through: saved[4].token)
      #expect(try container.history(after: saved[4].token) == [saved[5]])
      let error = try #require(throws: StoreError.self) { try container.history(after: saved[3].token) }
      #expect(error.code == .historyPruned)
    }
  }

  @Test func compactionKeepsUnconsumedHistoryWithinTheRetentionLimit() throws {
    var options = Sample.options
    options.compactionThreshold = 2
    options.logRetention = 0
    options.historyRetentionLimit = 5
    try withTemporaryStore(options) { container in
      let widget = container.historyReader(named: "widget")
      try widget.markConsumed(through: HistoryToken(sequence: 0))
      let first = try commitOwners(container, 1...4)
      #expect(try widget.pending() == first, "compactions so far kept everything the reader has not read")
      let later = try commitOwners(container, 5...10)
      _ = container.statistics  // waits for the last compaction's manifest, which prunes
      let error = try #require(throws: StoreError.self) { try widget.pending() }
      #expect(error.code == .historyPruned, "a reader more than the limit behind loses the oldest entries")
      #expect(try container.history(after: HistoryToken(sequence: 5)) == Array(later[1...]))
    }
  }
}
