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
}
