import Foundation
import PlainStore
import Testing

@Suite struct SegmentTests {
  /// Three years of events, two a week, compacted into monthly segments.
  func makeMultiYearStore(_ container: StoreContainer) throws -> [Event] {
    var events: [Event] = []
    let context = container.newBackgroundContext()
    for n in 0..<(3 * 104) {
      let event = Event(uuid: Sample.id(1000 + n), ownerID: nil, at: Sample.date(days: Double(n) * 3.5), title: "e\(n)", amount: Double(n))
      events.append(event)
      context.insert(event)
    }
    try context.save()
    try container.compact()
    return events
  }

  @Test func aFetchBoundedInTimeReadsOnlyItsMonths() throws {
    try withTemporaryStore { container in
      let events = try makeMultiYearStore(container)
      let reopened = try StoreContainer.file(at: container.directory!, schema: TestSchema.v1)
      #expect(reopened.statistics.segmentFilesRead == 0)
      var march = FetchDescriptor<Event>(sortBy: [SortDescriptor(\.at)])
      march.dateRange = ISO8601.parse("2027-03-01T00:00:00Z")!..<ISO8601.parse("2027-04-01T00:00:00Z")!
      let found = try reopened.newBackgroundContext().fetch(march)
      #expect(found == events.filter { march.dateRange!.contains($0.at) })
      #expect(!found.isEmpty)
      #expect(reopened.statistics.segmentFilesRead == 1)
    }
  }

  @Test func theNewestObjectCostsOneMonthWhateverTheHistory() throws {
    try withTemporaryStore { container in
      let events = try makeMultiYearStore(container)
      let reopened = try StoreContainer.file(at: container.directory!, schema: TestSchema.v1)
      var newest = FetchDescriptor<Event>(sortBy: [SortDescriptor(\.at, order: .reverse)])
      newest.fetchLimit = 1
      #expect(try reopened.newBackgroundContext().fetch(newest) == [events.last!])
      #expect(reopened.statistics.segmentFilesRead == 1)
      var oldest = FetchDescriptor<Event>(sortBy: [SortDescriptor(\.at)])
      oldest.fetchLimit = 3
      #expect(try reopened.newBackgroundContext().fetch(oldest) == Array(events.prefix(3)))
      #expect(reopened.statistics.segmentFilesRead == 2)
    }
  }

  @Test func compactionKeepsEveryObject() throws {
    var options = Sample.options
    options.compactionThreshold = 5
    try withTemporaryStore(options) { container in
      var expected: [UUID: Event] = [:]
      for round in 0..<23 {
        let context = container.newBackgroundContext()
        for n in 0..<7 {
          let event = Event(
            uuid: Sample.id(round * 10 + n), ownerID: nil, at: Sample.date(days: Double(round * 9 + n)), title: "r\(round)", amount: nil)
          context.insert(event)
          expected[event.id] = event
        }
        if round % 3 == 2, let victim = expected.keys.sorted(by: { $0.uuidString < $1.uuidString }).first {
          context.delete(Event.self, id: victim)
          expected[victim] = nil
        }
        if round % 4 == 3, var moved = expected.values.sorted(by: { $0.title < $1.title }).first {
          // Into another month, at an hour no other event has: (ownerID, at) is unique.
          moved.at = moved.at.addingTimeInterval(86_400 * 45 + 3_600)
          context.update(moved)
          expected[moved.id] = moved
        }
        try context.save()
      }
      #expect(container.statistics.compactions >= 4)
      let reopened = try StoreContainer.file(at: container.directory!, schema: TestSchema.v1)
      let stored = try reopened.newBackgroundContext().fetch(FetchDescriptor<Event>())
      let byID = Dictionary(uniqueKeysWithValues: stored.map { ($0.id, $0) })
      #expect(Set(expected.keys).subtracting(byID.keys).isEmpty, "missing after compaction")
      #expect(Set(byID.keys).subtracting(expected.keys).isEmpty, "unexpected after compaction")
      #expect(expected.filter { byID[$0.key] != nil && byID[$0.key] != $0.value }.isEmpty, "changed by compaction")
      let logs = try FileManager.default.contentsOfDirectory(atPath: container.directory!.appendingPathComponent("local/log").path)
      #expect(logs.count <= 23)
    }
  }

  @Test func aCommitAppendsOneRecordToTheLog() throws {
    try withTemporaryStore { container in
      let context = container.newBackgroundContext()
      context.insert(Owner(id: Sample.id(1), name: "Mia"))
      try context.save()
      context.insert(Owner(id: Sample.id(2), name: "Noah"))
      try context.save()
      let log = try FileManager.default.contentsOfDirectory(atPath: container.directory!.appendingPathComponent("local/log").path)
      #expect(log == ["00000001.log"])
      let records = try String(contentsOf: container.directory!.appendingPathComponent("local/log/00000001.log"), encoding: .utf8)
        .split(separator: "\n").filter { $0.hasPrefix("entry ") }
      #expect(records.map { $0.prefix(18) } == ["entry 000000000001", "entry 000000000002"])
      let segments = try FileManager.default.contentsOfDirectory(atPath: container.directory!.appendingPathComponent("local/segments").path)
      #expect(segments.isEmpty)
      let changes = try FileManager.default.contentsOfDirectory(atPath: container.directory!.appendingPathComponent("changes/\(Sample.device)").path)
      #expect(changes.sorted() == ["000000000001.json", "000000000002.json", "device.json"])
    }
  }
}
