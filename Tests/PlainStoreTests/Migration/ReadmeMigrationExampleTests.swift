import Foundation
import PlainStore
import Testing

/// The README's migration example, as written there.
@Suite struct ReadmeMigrationExampleTests {
  struct Note: Entity { static let entityName = "Note"; var id: UUID; var title: String; var isPinned: Bool }

  @Test func theReadmesMigrationOpensAVersionOneStore() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("readme-migration-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent("Notes.store")
    let old = try StoreContainer.file(at: url, schema: NoteSchema.v1, options: StoreOptions(watchesOtherProcesses: false))
    let context = old.newBackgroundContext()
    context.insert(NoteV1(id: Sample.id(1), text: "buy milk", stars: 3))
    try context.save()

    let schema = Schema(version: 2, [EntitySchema(Note.self)], migrations: [
      SchemaMigration("notes have a title and a pin", to: 2, [
        .renameProperty("text", to: \Note.title),      // version 1 called it text
        .addProperty(\Note.isPinned, default: false),  // version-1 notes read as not pinned
      ]),
    ])
    let notes = try StoreContainer.file(at: url, schema: schema)  // a version-1 store migrates here

    #expect(try notes.newBackgroundContext().fetch(FetchDescriptor<Note>()) == [Note(id: Sample.id(1), title: "buy milk", isPinned: false)])
  }
}
