import Foundation
import PlainStore
import Testing

/// A fetch with a limit keeps only the first objects while it scans, and sorts positions by
/// keys read once: the page it returns is always the same page of the whole sorted result.
@Suite struct FetchOrderTests {
  /// Events with many ties: three share each instant (no owner, and one of two owners), and
  /// titles repeat, in a seeded random order across months.
  func makeStore(_ container: StoreContainer, seed: UInt64) throws -> [Event] {
    var random = SplitMix64(seed: seed)
    let owners: [UUID?] = [nil, Sample.id(1), Sample.id(2)]
    let context = container.newBackgroundContext()
    context.insert(Owner(id: Sample.id(1), name: "one", note: nil))
    context.insert(Owner(id: Sample.id(2), name: "two", note: nil))
    var events: [Event] = []
    for n in 0..<160 {
      let at = Sample.date(days: Double(Int.random(in: 0..<120, using: &random)) * 1.5)
      for owner in owners where !events.contains(where: { $0.at == at && $0.ownerID == owner }) {
        let amount: Double? = Bool.random(using: &random) ? Double(Int.random(in: 0..<5, using: &random)) : nil
        let event = Event(uuid: UUID(), ownerID: owner, at: at, title: "t\(n % 7)", amount: amount)
        events.append(event)
        context.insert(event)
      }
    }
    try context.save()
    try container.compact()
    return events
  }

  static let orders: [(String, [SortDescriptor<Event>])] = [
    ("newest first", [SortDescriptor(\.at, order: .reverse)]),
    ("oldest first", [SortDescriptor(\.at)]),
    ("newest, then title", [SortDescriptor(\.at, order: .reverse), SortDescriptor(\.title)]),
    ("title, then newest", [SortDescriptor(\.title), SortDescriptor(\.at, order: .reverse)]),
    ("title descending", [SortDescriptor(\.title, order: .reverse)]),
    ("by id", []),
  ]

  @Test(arguments: [21, 22] as [UInt64])
  func aPageIsThePageOfTheWholeSortedResult(seed: UInt64) throws {
    try withTemporaryStore { container in
      _ = try makeStore(container, seed: seed)
      let context = try StoreContainer.file(at: container.directory!, schema: TestSchema.v1).newBackgroundContext()
      let owner: UUID? = Sample.id(1)
      let predicates: [Predicate<Event>?] = [nil, #Predicate { $0.ownerID == owner }, #Predicate { $0.amount != nil }]
      for predicate in predicates {
        for (name, sortBy) in Self.orders {
          let all = try context.fetch(FetchDescriptor(predicate: predicate, sortBy: sortBy))
          #expect(try context.fetch(FetchDescriptor(predicate: predicate, sortBy: sortBy)) == all, "\(name): the same twice")
          for (offset, limit) in [(0, 0), (0, 1), (0, 2), (0, 7), (3, 1), (5, 30), (0, 64), (1, 64), (0, 65), (40, 200), (0, 1000), (900, 5)] {
            var page = FetchDescriptor(predicate: predicate, sortBy: sortBy)
            page.fetchOffset = offset
            page.fetchLimit = limit
            let expected = Array(all.dropFirst(offset).prefix(limit))
            #expect(try context.fetch(page) == expected, "\(name), offset \(offset), limit \(limit)")
          }
        }
      }
    }
  }

  @Test func tiesAreOrderedByIdWhateverTheInsertionOrder() throws {
    let at = Sample.date(days: 3)
    let ids = (0..<40).map { Sample.id(500 + $0) }
    var orders: [[UUID]] = []
    for shuffleSeed in [1, 2] as [UInt64] {
      var random = SplitMix64(seed: shuffleSeed)
      try withTemporaryStore { container in
        let context = container.newBackgroundContext()
        for id in ids.shuffled(using: &random) {
          context.insert(Event(uuid: id, ownerID: nil, at: at.addingTimeInterval(Double(ids.firstIndex(of: id)!)), title: "same", amount: nil))
        }
        try context.save()
        var first = FetchDescriptor<Event>(sortBy: [SortDescriptor(\.title)])
        first.fetchLimit = 3
        orders.append(try context.fetch(first).map(\.id))
      }
    }
    #expect(orders[0] == orders[1])
    #expect(orders[0] == Array(ids.sorted { $0.uuidString < $1.uuidString }.prefix(3)))
  }

  @Test func anEditAfterManyFetchesIsMeasuredFromTheLastCopyHandedOut() throws {
    try withTemporaryStore { container in
      let id = Sample.id(7)
      let writer = container.newBackgroundContext()
      writer.insert(Event(uuid: id, ownerID: nil, at: Sample.date(days: 1), title: "first", amount: 1))
      try writer.save()
      let editor = container.newBackgroundContext()
      // Fetched again and again, as a live query refetches.
      for _ in 0..<(3 * 4) { _ = try editor.fetch(FetchDescriptor<Event>()) }
      var copy = try #require(try editor.fetch(FetchDescriptor<Event>()).first)
      // Another context changes the title after the editor's last fetch.
      var other = copy
      other.title = "renamed elsewhere"
      writer.update(other)
      try writer.save()
      copy.amount = 2
      editor.update(copy)
      try editor.save()
      let stored = try #require(try container.newBackgroundContext().object(Event.self, id: id))
      #expect(stored.title == "renamed elsewhere")
      #expect(stored.amount == 2)
    }
  }
}
