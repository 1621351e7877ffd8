import Foundation
import Testing

@testable import PlainStore

/// A schema names properties by their key paths; change files, field groups and unique keys
/// read them by name from the entity's JSON. Each key path's name is the key its Codable writes,
/// found when the schema is built; one that names no key of the JSON is a schema error that
/// names it, before anything is read or written.
@Suite struct CodableNameTests {
  struct Renamed: Entity, Hashable {
    static let entityName = "Renamed"
    var id: UUID
    var day: Date
    var note: String?
    var isDone = false
    var isShared = false
    var kind = Kind.small
    enum CodingKeys: String, CodingKey { case id, day = "date", note = "memo", isDone = "done", isShared = "shared", kind = "size" }
    enum Kind: String, Codable, CaseIterable { case small, large }
  }

  @Test func eachKeyPathIsNamedByTheKeyItsCodableWrites() {
    let entity = EntitySchema(
      Renamed.self, unique: [[\.day, \.kind]], indexed: [\.note], segmentedBy: \Renamed.day, fieldGroups: [[\.isDone], [\.isShared, \.note]])
    #expect(entity.nameError == nil)
    #expect(entity.uniqueKeyNames == [["date", "size"]])
    #expect(entity.indexedKeyNames == ["memo"])
    #expect(entity.segmentKeyName == "date")
    #expect(entity.fieldGroupNames == [["done"], ["shared", "memo"]], "two Bools are told apart")
  }

  @Test func aRenamedKeyIsWhatChangeFilesHoldAndWhatUniqueKeysMergeOn() throws {
    let schema = Schema(version: 1, [EntitySchema(Renamed.self, unique: [[\.day]], fieldGroups: [[\.note]])])
    let container = try StoreContainer.temporary(schema: schema, options: Sample.options)
    defer { try? container.destroy() }
    let context = container.newBackgroundContext()
    context.insert(Renamed(id: Sample.id(1), day: Sample.epoch, note: "#one"))
    try context.save()
    context.insert(Renamed(id: Sample.id(2), day: Sample.epoch, note: "#two"))
    try context.save()
    var stored = try container.newBackgroundContext().fetch(FetchDescriptor<Renamed>())
    #expect(stored.map(\.id) == [Sample.id(1)], "one day, one object")
    #expect(stored.first?.note == "#two")
    stored[0].note = nil
    let editor = container.newBackgroundContext()
    editor.update(stored[0])
    try editor.save()
    let changes = try #require(container.directory).appendingPathComponent("changes")
    let texts = try FileManager.default.subpathsOfDirectory(atPath: changes.path).filter { $0.hasSuffix("000000000003.json") }.map {
      try String(contentsOf: changes.appendingPathComponent($0), encoding: .utf8)
    }
    let clear = try #require(texts.first)
    #expect(clear.contains(#""groups":["memo"]"#), "the clear names the JSON's key: \(clear)")
    #expect(!clear.contains(#""note""#) && !clear.contains(#""day""#))
  }

  struct Computed: Entity {
    static let entityName = "Computed"
    var id: UUID
    var start: Date
    var cached = 0
    var weekday: Int { Int(start.timeIntervalSince1970 / 86_400) % 7 }
    enum CodingKeys: String, CodingKey { case id, start }
  }

  @Test(arguments: [
    // A computed key path has no name Swift can print: the message says where the schema names it.
    (EntitySchema(Computed.self, indexed: [\.weekday]), "Computed.indexed[0]"),
    (EntitySchema(Computed.self, fieldGroups: [[\.start, \.cached]]), "Computed.cached"),
  ])
  func aKeyPathThatNamesNoKeyOfTheJSONIsASchemaErrorNamingIt(entity: EntitySchema, path: String) throws {
    let error = try #require(entity.nameError)
    #expect(error.code == .invalidObject)
    #expect(error.path == path)
    #expect(error.detail.contains("writes it under no key of its own"), "\(error)")
    let schema = Schema(version: 1, [entity])
    let opened = #expect(throws: StoreError.self) { try StoreContainer.temporary(schema: schema, options: Sample.options) }
    #expect(opened?.path == path)
    let context = StoreContainer.inMemory(schema: schema).newBackgroundContext()
    context.insert(Computed(id: Sample.id(1), start: Sample.epoch))
    let saved = #expect(throws: StoreError.self) { try context.save() }
    #expect(saved?.path == path, "an in-memory store refuses at its first save")
  }

  struct Unprobeable: Entity {
    static let entityName = "Unprobeable"
    var id: UUID
    var mood: Mood
    enum Mood: String, Codable { case calm, fussy }
  }

  @Test func anEntityWhoseCodableCannotBeProbedIsASchemaErrorThatSaysWhatToDo() throws {
    let error = try #require(EntitySchema(Unprobeable.self, indexed: [\.mood]).nameError)
    #expect(error.path == "Unprobeable")
    #expect(error.detail.contains("CaseIterable"), "\(error)")
  }

  @Test func aMigrationStepThatNamesNoKeyIsRefusedWhenTheContainerOpens() throws {
    let schema = Schema(
      version: 2, [EntitySchema(Computed.self)],
      migrations: [SchemaMigration("weekday", to: 2, [.renameProperty("day", to: \Computed.weekday)])])
    let error = #expect(throws: StoreError.self) { try StoreContainer.temporary(schema: schema, options: Sample.options) }
    #expect(error?.code == .migration)
    #expect(error?.detail.contains("Computed.renameProperty") == true, "\(String(describing: error))")
  }
}
