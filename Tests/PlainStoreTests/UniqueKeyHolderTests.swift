import Foundation
import Testing

@testable import PlainStore

/// A context asks the store which object holds an object's unique key before it saves — the
/// one a save would merge it into — and hears the store's own answer, from its index, with the
/// context's unsaved changes laid over: a domain never restates the rule.
@Suite struct UniqueKeyHolderTests {
  let ava = Sample.id(1)
  let mia = Sample.id(2)

  @Test func theHolderOfAKeyIsTheObjectASaveWouldMergeInto() throws {
    let container = try StoreContainer.temporary(schema: TestSchema.v1, options: Sample.options)
    let seeding = container.newBackgroundContext()
    seeding.insert(Owner(id: ava, name: "Ava"))
    seeding.insert(Event(uuid: Sample.id(10), ownerID: ava, at: Sample.epoch, title: "feed"))
    seeding.insert(Event(uuid: Sample.id(11), ownerID: ava, at: Sample.date(days: 40), title: "feed"))
    try seeding.save()

    let context = container.newBackgroundContext()
    #expect(try context.objectSharingAUniqueKey(with: Owner(id: Sample.id(3), name: "Ava"))?.id == ava)
    #expect(try context.objectSharingAUniqueKey(with: Owner(id: ava, name: "Ava")) == nil, "an object does not clash with itself")
    #expect(try context.objectSharingAUniqueKey(with: Owner(id: Sample.id(3), name: "Zoe")) == nil)
    // A key that holds the segment date: found in its month, whichever month that is.
    let again = Event(uuid: Sample.id(12), ownerID: ava, at: Sample.date(days: 40), title: "again")
    #expect(try context.objectSharingAUniqueKey(with: again)?.uuid == Sample.id(11))
    #expect(try context.objectSharingAUniqueKey(with: Event(uuid: Sample.id(12), ownerID: ava, at: Sample.date(days: 41), title: "x")) == nil)

    // Unsaved changes count: an inserted holder, a renamed one, a deleted one.
    context.insert(Owner(id: mia, name: "Mia"))
    #expect(try context.objectSharingAUniqueKey(with: Owner(id: Sample.id(3), name: "Mia"))?.id == mia)
    try context.edit(Owner.self, id: ava) { $0.name = "Ava Rose" }
    #expect(try context.objectSharingAUniqueKey(with: Owner(id: Sample.id(3), name: "Ava")) == nil, "renamed here, not saved yet")
    #expect(try context.objectSharingAUniqueKey(with: Owner(id: Sample.id(3), name: "Ava Rose"))?.id == ava)
    context.delete(Event.self, id: Sample.id(11))
    #expect(try context.objectSharingAUniqueKey(with: again) == nil, "deleted here, not saved yet")
  }
}
