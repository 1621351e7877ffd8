import Foundation
import Testing

@testable import PlainStore

/// The cache's record of what the fold knows but does not show, with each alias's survivor.
@Suite struct RetiredObjectsTests {
  let a = Sample.id(1)
  let b = Sample.id(2)
  let c = Sample.id(3)
  let d = Sample.id(4)
  func key(_ id: UUID) -> ObjectKey { ObjectKey(entity: "Owner", id: id) }

  @Test func anAliasShowsAsTheEndOfItsMergesAndAsNothingOnceThatIsDeleted() {
    var retired = RetiredObjects()
    retired.insert(key(a), mergedInto: b)
    #expect(retired.survivor(of: key(a)) == b)
    retired.insert(key(b), mergedInto: c)  // the survivor merged on in turn
    #expect(retired.survivor(of: key(a)) == c)
    #expect(retired.aliases(of: "Owner") == [a: c, b: c])
    retired.insert(key(c))  // and was deleted
    #expect(retired.survivor(of: key(a)) == nil)
    #expect(retired.aliases(of: "Owner").isEmpty)
    // Where it went is still known: an edit by the old id is told the object was deleted.
    #expect(retired.lastSurvivor(of: key(a)) == c)
    #expect(retired.aliases(of: "Owner", includingDeleted: true) == [a: c, b: c])
    #expect(retired.lastSurvivor(of: key(c)) == nil, "deleted, never merged")
    #expect(retired.survivor(of: key(d)) == nil, "not retired")
    #expect(retired.survivor(of: ObjectKey(entity: "Event", id: a)) == nil, "aliases are per entity")
  }

  @Test func aDamagedCycleEndsInNothing() throws {
    var retired = RetiredObjects()
    retired.insert(key(a), mergedInto: b)
    retired.insert(key(b), mergedInto: a)
    #expect(retired.survivor(of: key(a)) == nil)
    #expect(retired.lastSurvivor(of: key(a)) == nil)
  }

  @Test func itReadsAsItWasWrittenAndAsAnOlderManifestWroteIt() throws {
    var retired = RetiredObjects()
    retired.insert(key(a), mergedInto: b)
    retired.insert(key(c))
    let data = try StoreCoding.makeEncoder().encode(retired)
    #expect(
      String(decoding: data, as: UTF8.self)
        == #"{"aliases":{"Owner":{"\#(a.uuidString)":"\#(b.uuidString)"}},"ids":{"Owner":["\#(a.uuidString)","\#(c.uuidString)"]}}"#)
    #expect(try StoreCoding.makeDecoder().decode(RetiredObjects.self, from: data) == retired)
    let older = Data(#"{"Owner":["\#(a.uuidString)"]}"#.utf8)
    let read = try StoreCoding.makeDecoder().decode(RetiredObjects.self, from: older)
    #expect(read.contains(key(a)) && read.survivor(of: key(a)) == nil)
  }
}
