import Foundation
import PlainStore
import Testing

/// Merges move properties as the exact text they were written in: no value changes because
/// another property of its object merged.
@Suite struct ExactMergeTests {
  struct Tally: Entity, Hashable {
    static let entityName = "Tally"
    var id: UUID
    var count: Int64
    var label: String
    var note: String?
  }

  static let schema = Schema(version: 1, [EntitySchema(Tally.self, unique: [[\.id]])])

  @Test func anInt64AboveTwoToThe53SurvivesAPropertyMerge() throws {
    let container = try StoreContainer.temporary(schema: Self.schema, options: StoreOptions(watchesOtherProcesses: false))
    defer { try? container.destroy() }
    let big: Int64 = 9_007_199_254_740_993  // 2^53 + 1: a Double cannot hold it
    let setup = container.newBackgroundContext()
    setup.insert(Tally(id: Sample.id(1), count: big, label: "start", note: nil))
    try setup.save()

    // Two editors open the same object; one changes the label, the other (later) the note.
    let first = container.newBackgroundContext()
    let second = container.newBackgroundContext()
    var mine = try #require(try first.object(Tally.self, id: Sample.id(1)))
    var theirs = try #require(try second.object(Tally.self, id: Sample.id(1)))
    theirs.label = "theirs"
    second.update(theirs)
    try second.save()
    mine.note = "mine"
    first.update(mine)
    try first.save()  // merges "note" onto the stored value, which the other editor changed

    let stored = try #require(try container.newBackgroundContext().object(Tally.self, id: Sample.id(1)))
    #expect(stored == Tally(id: Sample.id(1), count: big, label: "theirs", note: "mine"))
    let reopened = try StoreContainer.file(at: container.directory!, schema: Self.schema)
    #expect(try reopened.newBackgroundContext().object(Tally.self, id: Sample.id(1))?.count == big)
  }

  @Test func anInt64AboveTwoToThe53SurvivesAnInsertThatMergesIntoIt() throws {
    let container = try StoreContainer.temporary(schema: Self.schema, options: StoreOptions(watchesOtherProcesses: false))
    defer { try? container.destroy() }
    let big: Int64 = 9_007_199_254_740_993
    let setup = container.newBackgroundContext()
    setup.insert(Tally(id: Sample.id(1), count: big, label: "start", note: "kept"))
    try setup.save()
    let context = container.newBackgroundContext()
    context.insert(Tally(id: Sample.id(1), count: big, label: "again", note: nil))
    try context.save()
    let reopened = try StoreContainer.file(at: container.directory!, schema: Self.schema, options: StoreOptions(watchesOtherProcesses: false))
    #expect(try reopened.newBackgroundContext().object(Tally.self, id: Sample.id(1)) == Tally(id: Sample.id(1), count: big, label: "again", note: "kept"))
  }
}
