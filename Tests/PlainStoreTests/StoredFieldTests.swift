import Foundation
import Testing

@testable import PlainStore

/// A stored property of plain bytes reads the same from the entity's memory as through its key
/// path; any other property keeps its key path.
@Suite struct StoredFieldTests {
  struct Record: Entity, Hashable {
    static let entityName = "Record"
    static let identityKey = "uuid"
    var name: String  // references first, so the fields after it sit at an offset
    var uuid: UUID
    var id: UUID { uuid }
    var at: Date
    var owner: UUID?
    var count: Int8
    var amount: Double?
    var done: Bool
    var tags: [String]
  }

  final class Boxed: Entity, @unchecked Sendable {
    static let entityName = "Boxed"
    static let identityKey = "id"
    let id: UUID
    init(id: UUID) { self.id = id }
    static func == (a: Boxed, b: Boxed) -> Bool { a.id == b.id }
    func hash(into hasher: inout Hasher) { hasher.combine(id) }
    func encode(to encoder: Encoder) throws { var c = encoder.singleValueContainer(); try c.encode(id) }
    init(from decoder: Decoder) throws { id = try decoder.singleValueContainer().decode(UUID.self) }
  }

  func check<V: Equatable>(_ keyPath: KeyPath<Record, V>, _ records: [Record]) throws {
    let field = try #require(StoredField(keyPath), "\(keyPath)")
    for record in records {
      #expect(field.read(record) == record[keyPath: keyPath])
      #expect(field.read(boxed: record) == record[keyPath: keyPath])
    }
  }

  @Test func plainStoredPropertiesReadAsTheirKeyPathsDo() throws {
    let records = [
      Record(name: "Mia", uuid: Sample.id(1), at: Sample.epoch, owner: Sample.id(9), count: -3, amount: 90.5, done: true, tags: ["a"]),
      Record(name: "", uuid: Sample.id(2), at: Sample.date(days: -400.25), owner: nil, count: 127, amount: nil, done: false, tags: []),
    ]
    try check(\.uuid, records)
    try check(\.at, records)
    try check(\.owner, records)
    try check(\.count, records)
    try check(\.amount, records)
    try check(\.done, records)
  }

  @Test func anyOtherPropertyKeepsItsKeyPath() {
    #expect(StoredField(\Record.name) == nil, "a string holds a reference")
    #expect(StoredField(\Record.tags) == nil)
    #expect(StoredField(\Record.id) == nil, "computed")
    #expect(StoredField(\Boxed.id) == nil, "a class's property is not in its value")
  }
}
