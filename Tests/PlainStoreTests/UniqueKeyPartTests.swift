import Foundation
import Testing

@testable import PlainStore

/// A key property of a type of the app's own is read as the value itself, opened once: the same
/// part a cast to AnyHashable gives, and nil as `.null`, as for the types the store knows.
@Suite struct UniqueKeyPartTests {
  enum Kind: String, Hashable, Sendable { case wet, dirty }
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
}
