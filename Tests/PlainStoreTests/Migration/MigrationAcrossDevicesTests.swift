import Foundation
import PlainStore
import Testing

/// Two devices share one `changes/` folder; one runs the updated program (schema 2), the other
/// the old one (schema 1). Old change files keep existing and keep arriving; newer ones must not
/// break the old program.
@Suite struct MigrationAcrossDevicesTests {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent("PlainStoreMigrationSync-\(UUID().uuidString)")
  var changes: URL { folder.appendingPathComponent("changes") }

  func oldDevice() throws -> StoreContainer {
    try StoreContainer.file(at: folder.appendingPathComponent("old.store"), schema: NoteSchema.v1, options: NoteSchema.options(device: 1, syncFolder: changes))
  }

  func newDevice(_ name: String = "new.store") throws -> StoreContainer {
    try StoreContainer.file(at: folder.appendingPathComponent(name), schema: NoteSchema.v2, options: NoteSchema.options(device: 2, syncFolder: changes))
  }

  @Test func anOldDevicesChangesReadThroughTheMigrationsAfterTheUpdate() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let old = try oldDevice()
    let oldContext = old.newBackgroundContext()
    oldContext.insert(NoteV1(id: Sample.id(1), text: "buy milk", stars: 3))
    try oldContext.save()

    let new = try newDevice()
    let newContext = new.newBackgroundContext()
    var pinned = try #require(try newContext.object(NoteV2.self, id: Sample.id(1)))
    pinned.isPinned = true
    newContext.update(pinned)
    try newContext.save()

    // The old program goes on writing: an edit of the text and a new note, both in schema 1.
    try old.sync()
    var edited = try #require(try oldContext.object(NoteV1.self, id: Sample.id(1)))
    edited.text = "buy oat milk"
    oldContext.update(edited)
    oldContext.insert(NoteV1(id: Sample.id(2), text: "call grandma", stars: 1))
    try oldContext.save()

    try new.sync()
    let notes = try new.newBackgroundContext().fetch(FetchDescriptor<NoteV2>(sortBy: [SortDescriptor(\.title)]))
    #expect(
      notes == [
        NoteV2(id: Sample.id(1), title: "buy oat milk", stars: 30, isPinned: true),
        NoteV2(id: Sample.id(2), title: "call grandma", stars: 10, isPinned: false),
      ], "the old edit renames into title and leaves the new device's pin alone")
    #expect(new.mergeWarnings.isEmpty)

    // A third copy of the new program, given the same files, holds the same notes.
    let other = try newDevice("other.store")
    #expect(try other.newBackgroundContext().fetch(FetchDescriptor<NoteV2>(sortBy: [SortDescriptor(\.title)])) == notes)
  }

  @Test func aNewerDevicesChangesWaitForTheUpdateWithoutBreakingTheOldProgram() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let old = try oldDevice()
    let oldContext = old.newBackgroundContext()
    oldContext.insert(NoteV1(id: Sample.id(1), text: "buy milk", stars: 3))
    try oldContext.save()

    let new = try newDevice()
    let newContext = new.newBackgroundContext()
    newContext.insert(NoteV2(id: Sample.id(2), title: "pinned", stars: 40, isPinned: true))
    try newContext.save()

    #expect(try old.sync() == nil, "nothing the old program can read arrived")
    #expect(try old.newBackgroundContext().fetch(FetchDescriptor<NoteV1>()) == [NoteV1(id: Sample.id(1), text: "buy milk", stars: 3)])
    let status = try #require(try old.syncStatus())
    #expect(status.awaitingUpdate.count == 1)
    #expect(status.awaitingUpdate.first?.hasPrefix("changes/\(String(format: "%032x", 2))/") == true)
    oldContext.insert(NoteV1(id: Sample.id(3), text: "still writing", stars: 2))
    try oldContext.save()

    // The old device's program is updated: the waiting change joins.
    let updated = try StoreContainer.file(
      at: folder.appendingPathComponent("old.store"), schema: NoteSchema.v2, options: NoteSchema.options(device: 1, syncFolder: changes))
    let notes = try updated.newBackgroundContext().fetch(FetchDescriptor<NoteV2>(sortBy: [SortDescriptor(\.stars)]))
    #expect(notes.map(\.id) == [Sample.id(3), Sample.id(1), Sample.id(2)])
    #expect(try updated.syncStatus()?.awaitingUpdate == [])
  }
}
