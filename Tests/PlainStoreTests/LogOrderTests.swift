import Foundation
import Testing

@testable import PlainStore

/// A log entry holds its changes by entity, then by id, whatever order a commit made them in:
/// the same transaction gives the same bytes.
@Suite struct LogOrderTests {
  @Test(arguments: [0, 1, 2, 7, 500])
  func changesAreSortedByEntityThenID(count: Int) {
    var generator = SystemRandomNumberGenerator()
    let entities = ["Owner", "Event", "Badge"]
    let changes = (0..<count).map { index in
      LogChange(
        entity: entities[Int.random(in: 0..<3, using: &generator)], id: UUID(), kind: .delete, segment: "\(index)", from: nil, value: nil)
    }
    let expected = changes.sorted { ($0.entity, uuidOrder($0.id)) < ($1.entity, uuidOrder($1.id)) }
    for _ in 0..<5 {
      var shuffled = changes.shuffled(using: &generator)
      shuffled.sortInLogOrder()
      #expect(shuffled.map(\.id) == expected.map(\.id))
      #expect(shuffled.map(\.segment) == expected.map(\.segment), "each change moved whole")
    }
  }

  /// An entry's transaction lists each entity's ids by kind in the entry's order, whether its
  /// changes come entity by entity (as a log entry holds them) or interleaved.
  @Test(arguments: [false, true])
  func theTransactionGathersEachEntitysIDsInOrder(sorted: Bool) {
    var generator = SystemRandomNumberGenerator()
    let entities = ["Owner", "Event", "Badge"]
    let kinds: [LogChange.Kind] = [.insert, .update, .delete]
    var changes = (0..<300).map { index in
      LogChange(
        entity: entities.randomElement(using: &generator)!, id: UUID(), kind: kinds.randomElement(using: &generator)!,
        segment: "all", from: nil, value: nil)
    }
    if sorted { changes.sortInLogOrder() }
    var expected: [String: EntityChanges] = [:]
    for change in changes {
      switch change.kind {
      case .insert: expected[change.entity, default: EntityChanges()].inserted.append(change.id)
      case .update: expected[change.entity, default: EntityChanges()].updated.append(change.id)
      case .delete: expected[change.entity, default: EntityChanges()].deleted.append(change.id)
      case .retire: break  // an alias never held: no object changed
      }
    }
    let entry = LogEntry(sequence: 7, author: "app", timestamp: Date(timeIntervalSince1970: 0), changes: changes)
    #expect(entry.transaction.changes == expected)
    #expect(entry.transaction.sequence == 7)
  }
}
