import Foundation
import PlainStore
import Testing

@Suite struct ContextTests {
  let mia = Owner(id: Sample.id(1), name: "Mia", note: "first")

  @Test func insertingTheSameUniqueKeyUpdatesTheStoredObjectInsteadOfDuplicating() throws {
    try withTemporaryStore { container in
      let first = container.newBackgroundContext()
      first.insert(mia)
      first.insert(Event(uuid: Sample.id(2), ownerID: mia.id, at: Sample.epoch, title: "feed", amount: 100))
      try first.save()

      let second = container.newBackgroundContext()
      second.insert(Event(uuid: Sample.id(3), ownerID: mia.id, at: Sample.epoch, title: "feed again", amount: 120))
      second.insert(Owner(id: Sample.id(4), name: "Mia", note: nil))
      let saved = try second.save()
      let transaction = saved.transaction

      let events = try container.newBackgroundContext().fetch(FetchDescriptor<Event>())
      #expect(events == [Event(uuid: Sample.id(2), ownerID: mia.id, at: Sample.epoch, title: "feed again", amount: 120)])
      let owners = try container.newBackgroundContext().fetch(FetchDescriptor<Owner>())
      #expect(owners == [Owner(id: mia.id, name: "Mia", note: "first")], "the insert's nil note leaves the stored one")
      #expect(transaction?.changes["Event"]?.updated == [Sample.id(2)])
      #expect(transaction?.changes["Event"]?.inserted == [])
      #expect(saved.id(of: Event.self, Sample.id(3)) == Sample.id(2))
      #expect(saved.id(of: Owner.self, Sample.id(4)) == mia.id)
    }
  }

  @Test func aSaveKeepsTheStoresOtherChangesPropertyByProperty() throws {
    try withTemporaryStore { container in
      let setup = container.newBackgroundContext()
      setup.insert(mia)
      setup.insert(Event(uuid: Sample.id(2), ownerID: mia.id, at: Sample.epoch, title: "feed", amount: 100))
      try setup.save()

      let mine = container.newBackgroundContext()
      let theirs = container.newBackgroundContext()
      var myCopy = try #require(try mine.object(Event.self, id: Sample.id(2)))
      var theirCopy = try #require(try theirs.object(Event.self, id: Sample.id(2)))

      theirCopy.amount = 150
      theirs.update(theirCopy)
      try theirs.save()

      myCopy.title = "feed #night"
      mine.update(myCopy)
      try mine.save()

      let merged = try container.newBackgroundContext().object(Event.self, id: Sample.id(2))
      #expect(merged?.title == "feed #night")
      #expect(merged?.amount == 150)
    }
  }

  @Test func aUniquenessConflictMergesOnlyWhatTheContextChanged() throws {
    try withTemporaryStore { container in
      let setup = container.newBackgroundContext()
      setup.insert(mia)
      setup.insert(Event(uuid: Sample.id(2), ownerID: mia.id, at: Sample.epoch, title: "feed", amount: 100))
      setup.insert(Event(uuid: Sample.id(3), ownerID: mia.id, at: Sample.date(days: 1), title: "later", amount: 80))
      try setup.save()

      let mine = container.newBackgroundContext()
      let theirs = container.newBackgroundContext()
      var moved = try #require(try mine.object(Event.self, id: Sample.id(3)))
      var stored = try #require(try theirs.object(Event.self, id: Sample.id(2)))
      stored.title = "renamed elsewhere"
      theirs.update(stored)
      try theirs.save()

      moved.at = Sample.epoch  // now collides with event 2 on (ownerID, at)
      mine.update(moved)
      try mine.save()

      let events = try container.newBackgroundContext().fetch(FetchDescriptor<Event>())
      #expect(events.count == 1)
      #expect(events.first?.id == Sample.id(2))
      #expect(events.first?.title == "renamed elsewhere")  // mine did not change the title
      #expect(events.first?.amount == 100)
    }
  }

  @Test func deletingAnOwnerNullifiesItsEvents() throws {
    try withTemporaryStore { container in
      let context = container.newBackgroundContext()
      context.insert(mia)
      context.insert(Event(uuid: Sample.id(2), ownerID: mia.id, at: Sample.epoch, title: "feed", amount: nil))
      context.insert(Event(uuid: Sample.id(3), ownerID: mia.id, at: Sample.date(days: -40), title: "old", amount: nil))
      try context.save()
      context.delete(mia)
      let transaction = try context.save().transaction
      let events = try container.newBackgroundContext().fetch(FetchDescriptor<Event>(sortBy: [SortDescriptor(\.at)]))
      #expect(events.map(\.ownerID) == [nil, nil])
      #expect(transaction?.changes["Owner"]?.deleted == [mia.id])
      #expect(transaction?.changes["Event"]?.updated == [Sample.id(2), Sample.id(3)])
    }
  }

  @Test func deletingAnEventCascadesToItsAttachments() throws {
    try withTemporaryStore { container in
      let context = container.newBackgroundContext()
      let event = Event(uuid: Sample.id(2), ownerID: nil, at: Sample.epoch, title: "feed", amount: nil)
      context.insert(event)
      context.insert(Attachment(id: Sample.id(5), eventID: event.id))
      context.insert(Attachment(id: Sample.id(6), eventID: nil))
      try context.save()
      context.delete(event)
      try context.save()
      #expect(try context.fetch(FetchDescriptor<Attachment>()).map(\.id) == [Sample.id(6)])
    }
  }

  @Test func deletingAnOwnerWithBadgesIsDenied() throws {
    try withTemporaryStore { container in
      let context = container.newBackgroundContext()
      context.insert(mia)
      context.insert(Badge(id: Sample.id(7), ownerID: mia.id))
      try context.save()
      context.delete(mia)
      #expect {
        try context.save()
      } throws: { error in
        let error = try #require(error as? StoreError)
        return error.code == .reference && error.detail.contains("deny")
      }
      #expect(context.hasChanges)
      #expect(try container.newBackgroundContext().fetch(FetchDescriptor<Owner>()) == [mia])
      // Deleting the badge in the same save lets the owner go.
      context.delete(Badge.self, id: Sample.id(7))
      try context.save()
      #expect(try container.newBackgroundContext().fetchCount(FetchDescriptor<Owner>()) == 0)
    }
  }

  @Test func aReferenceToAMissingObjectFailsTheWholeSave() throws {
    try withTemporaryStore { container in
      let context = container.newBackgroundContext()
      context.insert(mia)
      context.insert(Event(uuid: Sample.id(2), ownerID: Sample.id(99), at: Sample.epoch, title: "x", amount: nil))
      #expect(throws: StoreError.self) { try context.save() }
      let owners = try container.newBackgroundContext().fetchCount(FetchDescriptor<Owner>())
      #expect(owners == 0)
      #expect(!FileManager.default.fileExists(atPath: container.directory!.appendingPathComponent("local/log/00000001.log").path))
    }
  }

  @Test func fetchFiltersSortsAndPages() throws {
    let container = StoreContainer.inMemory(schema: TestSchema.v1, options: Sample.options)
    let context = container.newBackgroundContext()
    context.insert(mia)
    for n in 0..<10 {
      context.insert(
        Event(uuid: Sample.id(100 + n), ownerID: n % 2 == 0 ? mia.id : nil, at: Sample.date(days: Double(n * 20)), title: "e\(n)", amount: Double(n)))
    }
    try context.save()
    let id = mia.id
    var descriptor = FetchDescriptor<Event>(
      predicate: #Predicate { $0.ownerID == id }, sortBy: [SortDescriptor(\.at, order: .reverse)])
    #expect(try context.fetch(descriptor).map(\Event.title) == ["e8", "e6", "e4", "e2", "e0"])
    descriptor.fetchOffset = 1
    descriptor.fetchLimit = 2
    #expect(try context.fetch(descriptor).map(\Event.title) == ["e6", "e4"])
    #expect(try context.fetchCount(descriptor) == 5)
    var ranged = FetchDescriptor<Event>(sortBy: [SortDescriptor(\.title)])
    ranged.dateRange = Sample.date(days: 20)..<Sample.date(days: 60)
    #expect(try context.fetch(ranged).map(\.title) == ["e1", "e2"])
  }

  @Test func fetchesIncludeUnsavedChangesAndRollbackForgetsThem() throws {
    try withTemporaryStore { container in
      let context = container.newBackgroundContext()
      context.insert(mia)
      try context.save()
      #expect(!context.hasChanges)
      var renamed = mia
      renamed.name = "Mia Rose"
      context.update(renamed)
      context.insert(Owner(id: Sample.id(2), name: "Noah"))
      #expect(context.hasChanges)
      #expect(try context.fetch(FetchDescriptor<Owner>(sortBy: [SortDescriptor(\.name)])).map(\.name) == ["Mia Rose", "Noah"])
      #expect(try container.newBackgroundContext().fetch(FetchDescriptor<Owner>()).map(\.name) == ["Mia"])
      context.rollback()
      #expect(!context.hasChanges)
      #expect(try context.fetch(FetchDescriptor<Owner>()).map(\.name) == ["Mia"])
      #expect(try context.save().transaction == nil)
    }
  }

  @Test func aSaveInOneContextIsSeenByTheOthersAndAnnounced() async throws {
    let container = StoreContainer.inMemory(schema: TestSchema.v1, options: Sample.options)
    let stream = container.transactions()
    let reader = container.newBackgroundContext()
    #expect(try reader.fetchCount(FetchDescriptor<Owner>()) == 0)
    try await container.performBackgroundTask(author: "importer") { context in
      context.insert(mia)
      try context.save()
    }
    #expect(try reader.fetch(FetchDescriptor<Owner>()) == [mia])
    var iterator = stream.makeAsyncIterator()
    let transaction = await iterator.next()
    #expect(transaction?.author == "importer")
    #expect(transaction?.changes["Owner"]?.inserted == [mia.id])
  }

  @Test @MainActor func viewContextSeesBackgroundSaves() throws {
    let container = StoreContainer.inMemory(schema: TestSchema.v1)
    let background = container.newBackgroundContext()
    background.insert(mia)
    try background.save()
    #expect(try container.viewContext.fetch(FetchDescriptor<Owner>()) == [mia])
  }

  @Test func savingUnchangedValuesWritesNothing() throws {
    try withTemporaryStore { container in
      let context = container.newBackgroundContext()
      context.insert(mia)
      try context.save()
      context.insert(mia)
      #expect(try context.save().transaction == nil)
      #expect(container.statistics.logRecordsWritten == 1)
    }
  }
}
