import Foundation
import Testing

@testable import PlainStore

/// A key property of a type of the app's own is read as the value itself, opened once: the same
/// part a cast to AnyHashable gives, and nil as `.null`, as for the types the store knows.
@Suite struct UniqueKeyPartTests {
  enum Kind: String, Hashable, Sendable, Codable { case wet, dirty }
  struct Change: Sendable {
    var kind: Kind
    var maybe: Kind?
    var tags: Set<String>
  }

  /// What reading a key property gave before its type was opened.
  func cast<V>(_ value: V) -> UniqueKeyPart { ((value as Any) as? AnyHashable).map(UniqueKeyPart.other) ?? .null }

  @Test func anotherTypeIsTheValueAsACastGivesIt() {
    let kind = UniqueKeyPart.reader(\Change.kind as PartialKeyPath<Change>)
    let maybe = UniqueKeyPart.reader(\Change.maybe as PartialKeyPath<Change>)
    let tags = UniqueKeyPart.reader(\Change.tags as PartialKeyPath<Change>)
    let some = Change(kind: .wet, maybe: .dirty, tags: ["night"])
    let none = Change(kind: .dirty, maybe: nil, tags: [])

    #expect(kind(some) == .other(AnyHashable(Kind.wet)))
    #expect(kind(some) == cast(some.kind) && kind(none) == cast(none.kind))
    #expect(maybe(some) == .other(AnyHashable(Kind.dirty)), "an optional's value, unwrapped")
    #expect(maybe(some) == cast(some.maybe))
    #expect(maybe(none) == .null)
    #expect(tags(some) == cast(some.tags) && tags(some) != tags(none))
    #expect(UniqueKey(values: [kind(some), maybe(none)]) == UniqueKey(values: [cast(Kind.wet), .null]))
  }

  /// A key of every type a part can be, stored and not.
  struct Sample: Entity, Hashable {
    static let entityName = "Sample"
    var name: String  // a reference first, so the plain fields after it sit at an offset
    var id: UUID
    var owner: UUID?
    var at: Date
    var until: Date?
    var count: Int
    var limit: Int?
    var amount: Double
    var share: Double?
    var done: Bool
    var seen: Bool?
    var kind: Kind
    var maybe: Kind?
    var tags: Set<String>
    var day: Int { count / 2 }  // computed
  }

  static let samples = [
    Sample(
      name: "Mia", id: UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16)), owner: UUID(), at: Date(timeIntervalSince1970: 1e9),
      until: Date(timeIntervalSince1970: -5), count: -3, limit: 7, amount: -0.0, share: 0.5, done: true, seen: false, kind: .wet,
      maybe: .dirty, tags: ["night"]),
    Sample(
      name: "", id: UUID(), owner: nil, at: Date(timeIntervalSince1970: 0), until: nil, count: .max, limit: nil, amount: .nan,
      share: nil, done: false, seen: nil, kind: .dirty, maybe: nil, tags: []),
  ]

  /// A part read from the entity's bytes is the part its key path gives; a property that is not
  /// plain bytes, or is computed, or an optional of the app's type, has no such reader.
  @Test func aPartReadFromTheBytesIsThePartTheKeyPathGives() throws {
    let stored: [PartialKeyPath<Sample>] = [
      \.id, \.owner, \.at, \.until, \.count, \.limit, \.amount, \.share, \.done, \.seen, \.kind,
    ]
    for keyPath in stored {
      let fromBytes = try #require(UniqueKeyPart.storedReader(keyPath), "\(keyPath)")
      let throughKeyPath = UniqueKeyPart.reader(keyPath)
      for sample in Self.samples {
        let part = _EntityBytes.reading(sample, fromBytes)
        #expect(part == throughKeyPath(sample) || keyPath == \Sample.amount && sample.amount.isNaN, "\(keyPath)")
        #expect(UniqueKey(values: [part]).hashValue == UniqueKey(values: [throughKeyPath(sample)]).hashValue, "\(keyPath)")
      }
    }
    for keyPath: PartialKeyPath<Sample> in [\.name, \.tags, \.day, \.maybe] {
      #expect(UniqueKeyPart.storedReader(keyPath) == nil, "\(keyPath)")
    }
  }

  /// An entity's keys are read from its bytes when every part can be, and through its key paths
  /// otherwise; either way they are the keys its segment files index by.
  @Test func anEntitysKeysAreTheSameWhicheverWayTheyAreRead() {
    let schema = EntitySchema(
      Sample.self, unique: [[\Sample.id], [\Sample.owner, \Sample.at, \Sample.kind], [\Sample.id, \Sample.name], [\Sample.maybe]])
    for sample in Self.samples {
      let typed = [
        UniqueKey(values: [UniqueKeyPart.reader(\Sample.id as PartialKeyPath<Sample>)(sample)]),
        UniqueKey(values: [\Sample.owner, \Sample.at, \Sample.kind].map { UniqueKeyPart.reader($0 as PartialKeyPath<Sample>)(sample) }),
        UniqueKey(values: [\Sample.id, \Sample.name].map { UniqueKeyPart.reader($0 as PartialKeyPath<Sample>)(sample) }),
        UniqueKey(values: [UniqueKeyPart.reader(\Sample.maybe as PartialKeyPath<Sample>)(sample)]),
      ]
      #expect(schema.uniqueKeys(of: sample) == typed)
    }
    #expect(UniqueKey.storedReader(Sample.self, [UniqueKeyPart.storedReader(\Sample.id), nil]) == nil, "one part without")
  }
}
