import Foundation
import PlainStore
import Testing

/// Opening a store written with an older schema migrates it; a newer one is refused; reading
/// writes nothing. Every store here is a real folder.
@Suite struct SchemaMigrationTests {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent("PlainStoreMigration-\(UUID().uuidString)")
  var store: URL { folder.appendingPathComponent("Notes.store") }

  let first = NoteV1(id: Sample.id(1), text: "buy milk", stars: 3)
  let second = NoteV1(id: Sample.id(2), text: "call grandma", stars: 5)

  func writeVersion1(_ notes: [NoteV1]) throws {
    let container = try StoreContainer.file(at: store, schema: NoteSchema.v1, options: NoteSchema.options(device: 1))
    let context = container.newBackgroundContext()
    for note in notes { context.insert(note) }
    try context.save()
  }

  func openVersion2() throws -> StoreContainer {
    try StoreContainer.file(at: store, schema: NoteSchema.v2, options: NoteSchema.options(device: 1))
  }

  func storeJSON() throws -> String {
    try String(contentsOf: store.appendingPathComponent("store.json"), encoding: .utf8)
  }

  @Test func anOlderStoreOpensWithEveryObjectMigrated() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    try writeVersion1([first, second])
    let container = try openVersion2()
    let notes = try container.newBackgroundContext().fetch(FetchDescriptor<NoteV2>(sortBy: [SortDescriptor(\.title)]))
    #expect(
      notes == [
        NoteV2(id: first.id, title: "buy milk", stars: 30, isPinned: false),
        NoteV2(id: second.id, title: "call grandma", stars: 50, isPinned: false),
      ])
    let header = try storeJSON()
    #expect(header.contains(#""schemaVersion":2"#))
    #expect(header.contains(#""migrations":["notes have a title, tenths of stars and a pin"]"#))
    #expect(container.cacheRebuildReason?.contains("schema version 1") == true)
  }

  @Test func aMigratedStoreSavesAndReopensInTheNewSchema() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    try writeVersion1([first])
    do {
      let context = try openVersion2().newBackgroundContext()
      var note = try #require(try context.object(NoteV2.self, id: first.id))
      note.isPinned = true
      context.update(note)
      try context.save()
    }
    let reopened = try openVersion2()
    #expect(try reopened.newBackgroundContext().object(NoteV2.self, id: first.id) == NoteV2(id: first.id, title: "buy milk", stars: 30, isPinned: true))
    #expect(reopened.cacheRebuildReason == nil, "a store at the current version opens without a migration")
  }

  /// A property removed by a migration is gone from the old values, not only unread by the new
  /// entity (which would ignore it either way): a later migration that adds a property of that
  /// name gives old objects its default, never the removed value.
  @Test func aRemovedPropertyIsGoneFromOldValues() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    struct NoteV4: Entity, Hashable {
      static let entityName = "Note"
      var id: UUID
      var title: String
      var isPinned: Bool
      var stars: String
    }
    let v4 = Schema(
      version: 4, [EntitySchema(NoteV4.self, unique: [[\.id]])],
      migrations: [
        NoteSchema.toV2,
        SchemaMigration("notes lose their stars", to: 3, [.removeProperty("stars", of: NoteV4.self)]),
        SchemaMigration("notes are rated in words", to: 4, [.addProperty(\NoteV4.stars, default: "unrated")]),
      ])
    try writeVersion1([first, second])
    let container = try StoreContainer.file(at: store, schema: v4, options: NoteSchema.options(device: 1))
    let notes = try container.newBackgroundContext().fetch(FetchDescriptor<NoteV4>(sortBy: [SortDescriptor(\.title)]))
    #expect(
      notes == [
        NoteV4(id: first.id, title: "buy milk", isPinned: false, stars: "unrated"),
        NoteV4(id: second.id, title: "call grandma", isPinned: false, stars: "unrated"),
      ])
  }

  @Test func aNewerStoreIsRefusedAndNothingIsWritten() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    try writeVersion1([first])
    _ = try openVersion2()
    let before = try snapshotFiles(store)
    #expect {
      _ = try StoreContainer.file(at: store, schema: NoteSchema.v1, options: NoteSchema.options(device: 1))
    } throws: { error in
      (error as? StoreError)?.code == .newerSchema(2) && "\(error)".contains("update the program")
    }
    #expect(try snapshotFiles(store) == before)
  }

  @Test func openingAStoreAndReadingItWritesNothing() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    try writeVersion1([first, second])
    _ = try openVersion2()
    let before = try snapshotFiles(store)
    let container = try openVersion2()
    _ = try container.newBackgroundContext().fetch(FetchDescriptor<NoteV2>())
    try container.refresh()
    #expect(try snapshotFiles(store) == before)
  }

  @Test func aStepThatCannotTransformAValueLeavesTheStoreAsItWas() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    try writeVersion1([first, second])
    let before = try snapshotFiles(store)
    // Reads `stars` as a String, which an Int is not: the migration cannot run.
    let wrong = Schema(
      version: 2, [EntitySchema(NoteV2.self, unique: [[\.id]])],
      migrations: [
        SchemaMigration("stars from text", to: 2, [.renameProperty("text", to: \NoteV2.title), .transformProperty(\NoteV2.stars, from: String.self) { Int64($0) ?? 0 }])
      ])
    #expect {
      _ = try StoreContainer.file(at: store, schema: wrong, options: NoteSchema.options(device: 1))
    } throws: { error in
      (error as? StoreError)?.code == .migration && "\(error)".contains("'stars from text'") && "\(error)".contains("Note 00000000-0000-4000-8000-00000000000")
    }
    #expect(try snapshotFiles(store) == before)
    let old = try StoreContainer.file(at: store, schema: NoteSchema.v1, options: NoteSchema.options(device: 1))
    #expect(try old.newBackgroundContext().fetchCount(FetchDescriptor<NoteV1>()) == 2, "the old program still opens it")
  }

  @Test(arguments: [
    (Schema(version: 2, [EntitySchema(NoteV2.self)], migrations: [SchemaMigration("beyond", to: 3, [])]), "above the schema's 2"),
    (
      Schema(version: 3, [EntitySchema(NoteV2.self)], migrations: [SchemaMigration("b", to: 3, []), SchemaMigration("a", to: 2, [])]),
      "not above the one before it"
    ),
    (Schema(version: 3, [EntitySchema(NoteV2.self)], migrations: [SchemaMigration("same", to: 2, []), SchemaMigration("same", to: 3, [])]), "named 'same'"),
    (
      Schema(version: 2, [EntitySchema(Reading.self)], migrations: [SchemaMigration("nan", to: 2, [.addProperty(\Reading.value, default: .nan)])]),
      "default of Reading.value cannot be stored"
    ),
  ])
  func aSchemaWhoseMigrationsCannotRunIsRefusedBeforeAnythingIsWritten(schema: Schema, message: String) throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    #expect {
      _ = try StoreContainer.file(at: store, schema: schema, options: NoteSchema.options(device: 1))
    } throws: { error in
      (error as? StoreError)?.code == .migration && "\(error)".contains(message)
    }
    #expect(!FileManager.default.fileExists(atPath: store.path))
  }
}

/// Only for a migration default that cannot be stored.
struct Reading: Entity {
  static let entityName = "Reading"
  var id: UUID
  var value: Double
}
