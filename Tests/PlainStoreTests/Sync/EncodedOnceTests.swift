import Foundation
import Testing

@testable import PlainStore

/// A save encodes each object once: the JSON its check made is what the change file and the
/// segment file hold, byte for byte what encoding the object there would have written.
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

  /// A segment written by the compaction after a save holds the save's JSON of its objects,
  /// mixed with objects encoded there (those of an earlier save whose JSON was let go), and is
  /// the bytes of encoding all of them; an object a delete rule changed is written as stored.
  @Test func theCheckedJSONIsTheSegmentsBytes() throws {
    try withTemporaryStore { container in
      let context = container.newBackgroundContext()
      context.insert(Owner(id: Sample.id(1), name: "Mia"))
      context.insert(Event(uuid: Sample.id(2), ownerID: Sample.id(1), at: Sample.epoch, title: "feed \"night\" ☾", amount: 90.5))
      try context.save()
      try container.compact()
      context.insert(Event(uuid: Sample.id(3), ownerID: Sample.id(1), at: Sample.date(days: 1), title: "feed", amount: 1e-7))
      context.insert(Event(uuid: Sample.id(4), ownerID: nil, at: Sample.date(days: 2), title: "ünïcode\n", amount: nil))
      try context.save()
      context.insert(Event(uuid: Sample.id(5), ownerID: Sample.id(6), at: Sample.date(days: 3), title: "nullified", amount: 2))
      context.insert(Owner(id: Sample.id(6), name: "Noah"))
      try context.save()
      context.delete(Owner(id: Sample.id(6), name: "Noah"))
      try context.save()
      try container.compact()

      let segments = container.directory!.appendingPathComponent("local/segments")
      let name = try #require(try FileManager.default.contentsOfDirectory(atPath: segments.path).first { $0.hasPrefix("Event.2026-01.") })
      let bytes = try Data(contentsOf: segments.appendingPathComponent(name))
      let file = try StoreCoding.makeDecoder(schema: TestSchema.v1).decode(SegmentFile<[Event]>.self, from: bytes)
      #expect(file.objects.map(\.id) == [2, 3, 4, 5].map(Sample.id))
      #expect(file.objects.last?.ownerID == nil)
      #expect(try StoreCoding.makeEncoder().encode(file) == bytes)
    }
  }

  /// An update's new value is encoded once, by its check: the field groups it changes are read
  /// from that JSON, not from the value encoded again; its old value once more.
  @Test func anUpdatesNewValueIsEncodedOnce() throws {
    let (container, context) = try Self.storeHoldingATallied(named: "before")
    defer { try? container.destroy() }
    let before = Tallied.encodings.withLock { $0["before"] ?? 0 }
    _ = try context.edit(Tallied.self, id: Sample.id(1)) { $0.name = "after" }
    try context.save()
    #expect(Tallied.encodings.withLock { $0["after"] } == 1)
    // The old value too: once, for the properties the edit changed (its JSON is not kept).
    #expect(Tallied.encodings.withLock { $0["before"] ?? 0 } - before == 1)
    #expect(try Self.secondChange(container).groups == ["name"], "the groups read from the checked JSON")
  }

  /// An insert onto a stored object: the inserted value is read from its check's JSON, and the
  /// merged value is encoded once, for its field groups and its change file alike.
  @Test func anInsertOntoAStoredObjectEncodesEachValueOnce() throws {
    let (container, context) = try Self.storeHoldingATallied(named: "stored")
    defer { try? container.destroy() }
    context.insert(Tallied(id: Sample.id(1), name: "inserted", note: nil))
    try context.save()
    // The inserted value and the merged one (which takes its name) are two values, each encoded once.
    #expect(Tallied.encodings.withLock { $0["inserted"] } == 2)
    let object = try Self.secondChange(container)
    #expect(object.groups == ["name"])
    #expect(object.fields?["note"] == RawJSON(bytes: Array(#""kept""#.utf8)), "the stored note stays")
  }

  /// A segment written again copies the JSON of the objects it kept from the last time, rather
  /// than encoding them again: an object read from its segment file is encoded by the first
  /// compaction that writes its segment, and by no later one (3 before: once by every one).
  @Test func aSegmentWrittenAgainCopiesItsObjectsJSON() throws {
    let (container, _) = try Self.storeHoldingATallied(named: "compacted")
    defer { try? container.destroy() }
    try container.compact()
    #expect(Tallied.encodings.withLock { $0["compacted"] } == 1, "its check's JSON, written by the compaction")
    // Another container reads the object from its segment file, without JSON.
    let other = try StoreContainer.file(at: container.directory!, schema: Self.talliedSchema, options: Sample.options)
    let context = other.newBackgroundContext()
    for n in 2...3 {
      context.insert(Tallied(id: Sample.id(n), name: "added", note: nil))
      try context.save()
      try other.compact()
    }
    #expect(Tallied.encodings.withLock { $0["compacted"] } == 2)
  }

  private static let talliedSchema = Schema(version: 1, [EntitySchema(Tallied.self)])

  /// A temporary store of ``Tallied`` objects that saved one (id 1, its note "kept"), and a
  /// context on it.
  private static func storeHoldingATallied(named name: String) throws -> (StoreContainer, StoreContext) {
    let container = try StoreContainer.temporary(schema: talliedSchema, options: Sample.options)
    let context = container.newBackgroundContext()
    context.insert(Tallied(id: Sample.id(1), name: name, note: "kept"))
    try context.save()
    return (container, context)
  }

  /// The one object of the store's second change file.
  private static func secondChange(_ container: StoreContainer) throws -> ObjectChange {
    let bytes = try Data(contentsOf: container.directory!.appendingPathComponent("changes/\(Sample.device)/000000000002.json"))
    return try #require(try ChangeFileCodec.decode(bytes).get().objects.first)
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

/// An entity that counts how often each of its values is encoded, by name.
private struct Tallied: Entity, Hashable {
  static let entityName = "Tallied"
  static let encodings = StoreMutex<[String: Int]>([:])
  var id: UUID
  var name: String
  var note: String?

  func encode(to encoder: any Encoder) throws {
    Self.encodings.withLock { $0[name, default: 0] += 1 }
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(name, forKey: .name)
    try container.encodeIfPresent(note, forKey: .note)
  }
}
