import Foundation
import Testing

@testable import PlainStore

/// A save encodes each object once: the JSON its check made is what the change file holds,
/// byte for byte what encoding the object there would have written.
@Suite struct EncodedOnceTests {
  @Test func theCheckedJSONIsTheChangeFilesBytes() throws {
    try withTemporaryStore { container in
      let context = container.newBackgroundContext()
      context.insert(Owner(id: Sample.id(1), name: "Mia"))
      context.insert(Event(uuid: Sample.id(2), ownerID: Sample.id(1), at: Sample.epoch, title: "feed \"night\" ☾", amount: 90.5))
      try context.save()
      var event = try #require(try context.object(Event.self, id: Sample.id(2)))
      event.amount = 120
      context.insert(event)
      try context.save()

      let folder = container.directory!.appendingPathComponent("changes/\(Sample.device)")
      for name in ["000000000001.json", "000000000002.json"] {
        let bytes = try Data(contentsOf: folder.appendingPathComponent(name))
        var change = try ChangeFileCodec.decode(bytes).get()
        // The same change with every object encoded here, from its value.
        change.objects = try change.objects.map { object in
          let type = try #require(TestSchema.v1.entity(named: object.entity)?.type)
          let value = try StoreCoordinator.decodeEntity(type, try #require(object.fields))
          return ObjectChange(entity: object.entity, id: object.id, kind: object.kind, value: value, groups: object.groups)
        }
        #expect(try ChangeFileCodec.encode(change) == bytes, "\(name)")
      }
    }
  }

  /// An object the commit changed on its way (a delete rule nullified its reference) is
  /// encoded as it is stored, not as the context gave it.
  @Test func anObjectADeleteRuleChangedIsWrittenAsStored() throws {
    try withTemporaryStore { container in
      let context = container.newBackgroundContext()
      context.insert(Owner(id: Sample.id(1), name: "Mia"))
      try context.save()
      context.insert(Event(uuid: Sample.id(2), ownerID: Sample.id(1), at: Sample.epoch, title: "feed", amount: 90))
      context.delete(Owner(id: Sample.id(1), name: "Mia"))
      try context.save()
      let stored = try container.newBackgroundContext().object(Event.self, id: Sample.id(2))
      #expect(stored?.ownerID == nil)
      let bytes = try Data(contentsOf: container.directory!.appendingPathComponent("changes/\(Sample.device)/000000000002.json"))
      let object = try #require(try ChangeFileCodec.decode(bytes).get().objects.first { $0.id == Sample.id(2) })
      #expect(object.fields?["ownerID"] == nil, "the owner's id as the context gave it")  // a nil property is left out
      #expect(object.fields?["title"] == RawJSON(bytes: Array(#""feed""#.utf8)))
    }
  }
}
