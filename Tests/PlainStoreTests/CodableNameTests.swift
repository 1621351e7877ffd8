import Foundation
import Testing

@testable import PlainStore

/// A schema names properties by their key paths; change files, field groups and unique keys
/// read them by name from the entity's JSON. A property its CodingKeys writes under another name
/// is a schema error, named before anything is written.
@Suite struct CodableNameTests {
  struct Renamed: Entity, Hashable {
    static let entityName = "Renamed"
    var id: UUID
    var day: Date
    var note: String?
    enum CodingKeys: String, CodingKey { case id, day = "date", note }
  }

  @Test func aKeyPathWhoseCodableKeyDiffersIsRefusedNamingIt() throws {
    let schema = Schema(version: 1, [EntitySchema(Renamed.self, unique: [[\.day]])])
    let container = try StoreContainer.temporary(schema: schema, options: Sample.options)
    defer { try? container.destroy() }
    let context = container.newBackgroundContext()
    context.insert(Renamed(id: Sample.id(1), day: Sample.epoch, note: nil))
    let error = #expect(throws: StoreError.self) { try context.save() }
    #expect(error?.code == .invalidObject)
    #expect(error?.path == "Renamed.day")
    #expect(error?.detail.contains("Codable writes no such key") == true, "\(String(describing: error))")
    #expect(try container.newBackgroundContext().fetch(FetchDescriptor<Renamed>()).isEmpty, "nothing was saved")
  }

  @Test func aNamedPropertyHoldingNilIsCheckedOnceItHoldsAValue() throws {
    let schema = Schema(version: 1, [EntitySchema(Renamed.self, indexed: [\.note])])
    let container = try StoreContainer.temporary(schema: schema, options: Sample.options)
    defer { try? container.destroy() }
    let context = container.newBackgroundContext()
    context.insert(Renamed(id: Sample.id(2), day: Sample.epoch, note: nil))
    try context.save()  // 'note' holds nil: nothing to tell it by yet
    context.insert(Renamed(id: Sample.id(3), day: Sample.epoch, note: "#one"))
    try context.save()  // 'note' is its own Codable key
  }
}
