import Foundation
import PlainStore
import Testing

/// Edits change what they say and nothing else: an insert's nils keep stored values, a save
/// names the survivor of a merged insert, an update of a missing object is an error naming it,
/// and an edit is measured from the copy it started from.
@Suite struct HonestEditTests {
  let mia = Owner(id: Sample.id(1), name: "Mia", note: "first")
  var feed: Event { Event(uuid: Sample.id(2), ownerID: mia.id, at: Sample.epoch, title: "feed", amount: 120) }

  func seeded(_ container: StoreContainer) throws {
    let setup = container.newBackgroundContext()
    setup.insert(mia)
    setup.insert(feed)
    try setup.save()
  }

  @Test func anInsertThatMergesOnAUniqueKeyKeepsTheValuesItLeavesNil() throws {
    try withTemporaryStore { container in
      try seeded(container)
      let context = container.newBackgroundContext()
      // Logged again with the same owner and time, no amount: the stored amount stays.
      context.insert(Event(uuid: Sample.id(3), ownerID: mia.id, at: Sample.epoch, title: "feed #night", amount: nil))
      let saved = try context.save()
      let stored = try container.newBackgroundContext().fetch(FetchDescriptor<Event>())
      #expect(stored == [Event(uuid: Sample.id(2), ownerID: mia.id, at: Sample.epoch, title: "feed #night", amount: 120)])
      #expect(saved.id(of: Event.self, Sample.id(3)) == Sample.id(2), "the inserted id does not exist; the save names the survivor")
      #expect(saved.merged == [ObjectID(Event.self, Sample.id(3)): ObjectID(Event.self, Sample.id(2))])
    }
  }

  @Test func anInsertWithAStoredIDSetsOnlyWhatItCarries() throws {
    try withTemporaryStore { container in
      try seeded(container)
      let context = container.newBackgroundContext()
      context.insert(Owner(id: mia.id, name: "Mia Rose", note: nil))
      try context.save()
      #expect(try container.newBackgroundContext().object(Owner.self, id: mia.id) == Owner(id: mia.id, name: "Mia Rose", note: "first"))
    }
  }

  @Test func aMergedInsertThatChangesNothingStillNamesItsSurvivor() throws {
    try withTemporaryStore { container in
      try seeded(container)
      let context = container.newBackgroundContext()
      context.insert(Event(uuid: Sample.id(9), ownerID: mia.id, at: Sample.epoch, title: "feed", amount: nil))
      let saved = try context.save()
      #expect(saved.transaction == nil, "the store already held every value")
      #expect(saved.id(of: ObjectID(Event.self, Sample.id(9))) == ObjectID(Event.self, Sample.id(2)))
      #expect(saved.id(of: ObjectID(Owner.self, mia.id)) == ObjectID(Owner.self, mia.id), "an object that merged nowhere is itself")
    }
  }

  @Test func updatingAnObjectThatWasNeverStoredThrowsAnErrorNamingIt() throws {
    try withTemporaryStore { container in
      try seeded(container)
      let context = container.newBackgroundContext()
      let ghost = Event(uuid: Sample.id(77), ownerID: nil, at: Sample.date(days: 3), title: "ghost", amount: nil)
      context.update(ghost)
      #expect {
        try context.save()
      } throws: { error in
        let error = try #require(error as? StoreError)
        return error.code == .notFound && error.path == "Event \(Sample.id(77).uuidString)" && error.detail.contains("insert it instead")
      }
      #expect(context.hasChanges, "the context keeps its changes")
      #expect(try container.newBackgroundContext().fetchCount(FetchDescriptor<Event>()) == 1, "no insert by update")
    }
  }

  @Test func updatingAnObjectAnotherContextDeletedThrowsAnErrorNamingIt() throws {
    try withTemporaryStore { container in
      try seeded(container)
      let editor = container.newBackgroundContext()
      var copy = try #require(try editor.object(Event.self, id: feed.id))
      let other = container.newBackgroundContext()
      other.delete(Event.self, id: feed.id)
      try other.save()
      copy.title = "too late"
      editor.update(copy)
      #expect {
        try editor.save()
      } throws: { error in
        let error = try #require(error as? StoreError)
        return error.code == .notFound && error.path == "Event \(feed.id.uuidString)" && error.detail.contains("deleted by another context")
      }
      #expect(try container.newBackgroundContext().fetchCount(FetchDescriptor<Event>()) == 0, "the delete stands")
    }
  }

  @Test func anEditRecordsItsChangeWithoutASeparateUpdate() throws {
    try withTemporaryStore { container in
      try seeded(container)
      let context = container.newBackgroundContext()
      let edited = try context.edit(Event.self, id: feed.id) { $0.amount = 150 }
      #expect(edited.amount == 150)
      #expect(context.hasChanges)
      try context.save()
      #expect(try container.newBackgroundContext().object(Event.self, id: feed.id)?.amount == 150)
      #expect {
        try context.edit(Event.self, id: Sample.id(404)) { $0.amount = 1 }
      } throws: { error in
        (error as? StoreError)?.code == .notFound && (error as? StoreError)?.path == "Event \(Sample.id(404).uuidString)"
      }
      #expect(!context.hasChanges)
    }
  }

  @Test func anEditMeasuredFromTheOpenedCopyKeepsWhatAnotherProcessChanged() throws {
    try withTemporaryStore { container in
      try seeded(container)
      // A form opens the feed; another process (a second container on the folder) changes its
      // title; the form then saves a new amount only.
      let form = container.newBackgroundContext()
      let opened = try #require(try form.object(Event.self, id: feed.id))
      let otherProcess = try StoreContainer.file(at: container.directory!, schema: TestSchema.v1, options: StoreOptions(watchesOtherProcesses: false))
      let otherContext = otherProcess.newBackgroundContext()
      try otherContext.edit(Event.self, id: feed.id) { $0.title = "feed #night" }
      try otherContext.save()
      _ = try form.fetch(FetchDescriptor<Event>())  // a later read must not move the form's measure
      var changed = opened
      changed.amount = 90
      form.update(changed, from: opened)
      try form.save()
      #expect(
        try container.newBackgroundContext().object(Event.self, id: feed.id)
          == Event(uuid: feed.id, ownerID: mia.id, at: Sample.epoch, title: "feed #night", amount: 90))
    }
  }

  @Test func objectIDsTellEntitiesApartAndServeAsIdentity() {
    let event = ObjectID(Event.self, Sample.id(1))
    let owner = mia.objectID
    #expect(event != owner, "the same UUID in two entities is two objects")
    #expect(Set([event, owner, ObjectID(entityName: "Owner", uuid: Sample.id(1))]).count == 2)
    #expect(owner.id == owner)
    #expect(owner.isObject(of: Owner.self) && !owner.isObject(of: Event.self))
    #expect("\(owner)" == "Owner \(Sample.id(1).uuidString)")
    #expect([owner, event].sorted() == [event, owner])
  }
}
