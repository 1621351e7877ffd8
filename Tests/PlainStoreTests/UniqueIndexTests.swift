import Foundation
import PlainStore
import Testing

/// The uniqueness indexes a store keeps between saves follow every committed change: a key an
/// object left is free, the key it took is taken, a deleted object's key is free, a moved object
/// is found in its new month; and a store opened afresh (indexes rebuilt) agrees.
@Suite struct UniqueIndexTests {
  let mia = Owner(id: Sample.id(1), name: "Mia", note: nil)

  private func event(_ n: Int, days: Double, title: String) -> Event {
    Event(uuid: Sample.id(n), ownerID: mia.id, at: Sample.date(days: days), title: title, amount: nil)
  }

  @Test func keysFollowUpdatesDeletesAndMovesAcrossSaves() throws {
    try withTemporaryStore { container in
      let context = container.newBackgroundContext()
      context.insert(mia)
      context.insert(event(10, days: 0, title: "a"))
      context.insert(event(11, days: 1, title: "b"))
      context.insert(event(12, days: 2, title: "c"))
      try context.save()  // the indexes are built here

      var moved = try #require(try context.object(Event.self, id: Sample.id(10)))
      moved.at = Sample.date(days: 40)  // another month: day 0's key is free, day 40's taken
      context.update(moved)
      context.delete(Event.self, id: Sample.id(11))  // day 1's key is free
      try context.save()

      // Day 0 and day 1 are free: new objects, not merges.
      context.insert(event(20, days: 0, title: "new at day 0"))
      context.insert(event(21, days: 1, title: "new at day 1"))
      // Day 40 and day 2 are taken: these merge into the objects that hold them.
      context.insert(event(22, days: 40, title: "merged into 10"))
      context.insert(event(23, days: 2, title: "merged into 12"))
      try context.save()

      let expected: [UUID: String] = [
        Sample.id(10): "merged into 10", Sample.id(12): "merged into 12",
        Sample.id(20): "new at day 0", Sample.id(21): "new at day 1",
      ]
      let seen = Dictionary(uniqueKeysWithValues: try context.fetch(FetchDescriptor<Event>()).map { ($0.id, $0.title) })
      #expect(seen == expected)

      // A fresh container builds its indexes from the files and agrees.
      let reopened = try StoreContainer.file(at: try #require(container.directory), schema: TestSchema.v1, options: Sample.options)
      let fresh = reopened.newBackgroundContext()
      fresh.insert(event(30, days: 40, title: "merged again"))
      fresh.insert(event(31, days: 3, title: "new at day 3"))
      try fresh.save()
      let after = Dictionary(uniqueKeysWithValues: try fresh.fetch(FetchDescriptor<Event>()).map { ($0.id, $0.title) })
      #expect(after[Sample.id(10)] == "merged again")
      #expect(after[Sample.id(31)] == "new at day 3")
      #expect(after.count == 5)
    }
  }

  @Test func anotherContainersSaveIsSeenByTheIndexes() throws {
    try withTemporaryStore { container in
      let first = container.newBackgroundContext()
      first.insert(mia)
      first.insert(event(10, days: 0, title: "a"))
      try first.save()
      // A second container on the same folder: what another process would do.
      let other = try StoreContainer.file(at: try #require(container.directory), schema: TestSchema.v1, options: Sample.options)
      let theirs = other.newBackgroundContext()
      var changed = try #require(try theirs.object(Event.self, id: Sample.id(10)))
      changed.at = Sample.date(days: 5)
      theirs.update(changed)
      try theirs.save()

      // This container catches up before it saves: day 0 is free now, day 5 taken.
      first.insert(event(20, days: 0, title: "new"))
      first.insert(event(21, days: 5, title: "merged"))
      try first.save()
      let seen = Dictionary(uniqueKeysWithValues: try first.fetch(FetchDescriptor<Event>()).map { ($0.id, $0.title) })
      #expect(seen == [Sample.id(10): "merged", Sample.id(20): "new"])
    }
  }

  /// Another process's compaction swaps the segment files under this one's indexes, which it
  /// keeps: the commits it has not read yet still reach them, through the log, and a month
  /// the compaction found empty is free.
  @Test func anotherContainersCompactionLeavesTheIndexesRight() throws {
    try withTemporaryStore { container in
      let first = container.newBackgroundContext()
      first.insert(mia)
      first.insert(event(10, days: 0, title: "a"))
      first.insert(event(11, days: 40, title: "b"))
      try first.save()
      first.insert(event(12, days: 1, title: "c"))
      try first.save()  // the indexes of both months are built and kept

      let other = try StoreContainer.file(at: try #require(container.directory), schema: TestSchema.v1, options: Sample.options)
      let theirs = other.newBackgroundContext()
      var changed = try #require(try theirs.object(Event.self, id: Sample.id(10)))
      changed.at = Sample.date(days: 5)
      theirs.update(changed)
      theirs.delete(Event.self, id: Sample.id(11))  // day 40's month is left empty
      try theirs.save()
      try other.compact()
      var later = try #require(try theirs.object(Event.self, id: Sample.id(12)))
      later.at = Sample.date(days: 6)  // after the compaction: read from the log
      theirs.update(later)
      try theirs.save()

      first.insert(event(20, days: 0, title: "new at day 0"))
      first.insert(event(21, days: 1, title: "new at day 1"))
      first.insert(event(22, days: 40, title: "new at day 40"))
      first.insert(event(23, days: 5, title: "merged into 10"))
      first.insert(event(24, days: 6, title: "merged into 12"))
      try first.save()
      let seen = Dictionary(uniqueKeysWithValues: try first.fetch(FetchDescriptor<Event>()).map { ($0.id, $0.title) })
      #expect(
        seen == [
          Sample.id(10): "merged into 10", Sample.id(12): "merged into 12", Sample.id(20): "new at day 0",
          Sample.id(21): "new at day 1", Sample.id(22): "new at day 40",
        ])
    }
  }
}
