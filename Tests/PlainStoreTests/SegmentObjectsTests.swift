import Foundation
import Testing

@testable import PlainStore

/// A segment's objects held as their own type: what the engine reads through the erased
/// interface is what it stored, and the segment file is the objects in id order.
@Suite struct SegmentObjectsTests {
  let eventSchema = TestSchema.v1.entity(named: "Event")!

  func event(_ n: Int, owner: Int?, day: Double) -> Event {
    Event(uuid: Sample.id(n), ownerID: owner.map(Sample.id), at: Sample.date(days: day), title: "event \(n)", amount: nil)
  }

  @Test func storesItsEntityTypeAndAnswersThroughTheErasedInterface() throws {
    let objects = eventSchema.makeObjects()
    #expect(objects is TypedSegmentObjects<Event>)
    for n in [3, 1, 2] { objects.put(event(n, owner: n == 2 ? nil : 9, day: Double(n)), encoded: nil) }
    objects.put(event(3, owner: 9, day: 30), encoded: nil)  // replaces
    objects.remove(Sample.id(1))
    #expect(objects.count == 2)
    #expect(objects[Sample.id(3)] as? Event == event(3, owner: 9, day: 30))
    #expect(objects[Sample.id(1)] == nil)
    var ids: [UUID] = []
    objects.forEachID { ids.append($0) }
    #expect(Set(ids) == [Sample.id(2), Sample.id(3)])

    let keyOf = eventSchema.uniqueKeys[0]
    #expect(objects.uniqueKey(of: Sample.id(3), constraint: 0) == keyOf(event(3, owner: 9, day: 30)))
    #expect(objects.uniqueKey(of: Sample.id(1), constraint: 0) == nil)
    var index: [UniqueKey: UUID] = [:]
    objects.addUniqueKeys(constraint: 0, to: &index)
    #expect(index == [keyOf(event(2, owner: nil, day: 2)): Sample.id(2), keyOf(event(3, owner: 9, day: 30)): Sample.id(3)])

    let reference = eventSchema.references[0]
    #expect(objects.referrers(to: Sample.id(9), through: reference) { _ in false }.map(\.id) == [Sample.id(3)])
    #expect(objects.referrers(to: Sample.id(9), through: reference) { $0 == Sample.id(3) }.isEmpty)
  }

  /// Objects move when others are removed, and a file holding one id twice keeps the later:
  /// every id still finds its own object.
  @Test func everyIDFindsItsObjectAfterRemovesAndDuplicates() throws {
    let objects = try #require(eventSchema.makeObjects() as? TypedSegmentObjects<Event>)
    objects.fill((1...6).map { event($0, owner: nil, day: Double($0)) } + [event(2, owner: 9, day: 20)])
    #expect(objects.count == 6)
    #expect(objects[Sample.id(2)] as? Event == event(2, owner: 9, day: 20))
    for removed in [1, 6, 3] { objects.remove(Sample.id(removed)) }
    objects.remove(Sample.id(99))  // not there: nothing moves
    #expect(objects.count == 3)
    for n in [2, 4, 5] { #expect((objects[Sample.id(n)] as? Event)?.id == Sample.id(n), "id \(n)") }
    for n in [1, 3, 6] { #expect(objects[Sample.id(n)] == nil, "id \(n)") }
    #expect(Set(objects.objects.map(\.id)) == Set([2, 4, 5].map(Sample.id)))

    let unique = try #require(eventSchema.makeObjects() as? TypedSegmentObjects<Event>)
    unique.fill((1...3).map { event($0, owner: nil, day: 1) })
    #expect(unique.objects.map(\.id) == (1...3).map(Sample.id), "a file of distinct ids is kept as it is")
  }

  @Test func theSegmentFileIsTheObjectsInIDOrder() throws {
    let objects = eventSchema.makeObjects()
    let events = [7, 300, 2, 41, 5].map { event($0, owner: nil, day: 1) }
    for event in events { objects.put(event, encoded: nil) }
    let encoder = StoreCoding.makeEncoder()
    let data = try objects.encodeFile(entity: "Event", segment: "2026-01", encoder: encoder)
    let sorted = events.sorted { uuidPrecedes($0.id, $1.id) }
    #expect(data == (try encoder.encode(SegmentFile(entity: "Event", segment: "2026-01", objects: sorted))))
    let decoded = try StoreCoding.makeDecoder(schema: TestSchema.v1).decode(SegmentFile<[Event]>.self, from: data)
    #expect(decoded.objects.map(\.id) == [2, 5, 7, 41, 300].map(Sample.id))
  }

  /// Each object's JSON, kept, is what the file writes for it: the same bytes.
  @Test func theJSONEachObjectKeepsIsWhatTheFileWrites() throws {
    let objects = eventSchema.makeObjects()
    let encoder = StoreCoding.makeEncoder()
    for n in [7, 300, 2] { objects.put(event(n, owner: n == 2 ? 1 : nil, day: Double(n % 28)), encoded: nil) }
    let before = try objects.encodeFile(entity: "Event", segment: "2026-01", encoder: encoder)
    try objects.encodeEach(encoder)
    #expect(try objects.encodeFile(entity: "Event", segment: "2026-01", encoder: encoder) == before)
  }

  /// An object put with its commit's JSON is written as that JSON, until the segment lets go of
  /// it or the object is put again without.
  @Test func anObjectsCommitJSONIsWrittenAsItIs() throws {
    let objects = eventSchema.makeObjects()
    let encoder = StoreCoding.makeEncoder()
    let decoder = StoreCoding.makeDecoder(schema: TestSchema.v1)
    let titles = { () throws -> [String] in
      try decoder.decode(SegmentFile<[Event]>.self, from: try objects.encodeFile(entity: "Event", segment: "2026-01", encoder: encoder))
        .objects.map(\.title)
    }
    // A marker the object itself would never encode to: proof the JSON given is the one written.
    var marked = event(1, owner: nil, day: 1)
    marked.title = "as the commit encoded it"
    let markedJSON = RawJSON(bytes: Array(try encoder.encode(marked)))
    objects.put(event(1, owner: nil, day: 1), encoded: markedJSON)
    objects.put(event(2, owner: nil, day: 1), encoded: nil)
    #expect(try titles() == ["as the commit encoded it", "event 2"])
    objects.forgetEncoded()
    #expect(try titles() == ["event 1", "event 2"])
    objects.put(event(2, owner: nil, day: 1), encoded: markedJSON)
    objects.put(event(2, owner: nil, day: 1), encoded: nil)
    #expect(try titles() == ["event 1", "event 2"])
  }

  /// An object's JSON moves with it when a removal moves it to another row, and goes with it
  /// when it is removed.
  @Test func commitJSONFollowsItsObjectAcrossRemovals() throws {
    let objects = eventSchema.makeObjects()
    let encoder = StoreCoding.makeEncoder()
    let decoder = StoreCoding.makeDecoder(schema: TestSchema.v1)
    func marked(_ n: Int) throws -> RawJSON {
      var value = event(n, owner: nil, day: 1)
      value.title = "committed \(n)"
      return RawJSON(bytes: Array(try encoder.encode(value)))
    }
    for n in 1...6 { objects.put(event(n, owner: nil, day: 1), encoded: [2, 5, 6].contains(n) ? try marked(n) : nil) }
    objects.remove(Sample.id(1))  // 6 takes its row
    objects.remove(Sample.id(6))  // 5 takes its row
    objects.remove(Sample.id(3))
    objects.put(event(7, owner: nil, day: 1), encoded: nil)
    let file = try decoder.decode(SegmentFile<[Event]>.self, from: try objects.encodeFile(entity: "Event", segment: "2026-01", encoder: encoder))
    #expect(file.objects.map(\.title) == ["committed 2", "event 4", "committed 5", "event 7"])
  }
}
