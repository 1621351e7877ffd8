import Foundation
import PlainStore
import Testing

/// A `#Predicate` that bounds the segment key reads only its months, and finds exactly what a
/// full scan finds, whatever its shape.
@Suite struct PredicateNarrowingTests {
  static let monthStarts: [Date] = (0..<30).map { month in
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    return calendar.date(from: DateComponents(year: 2025, month: 1 + month, day: 1))!
  }

  /// Dates on and around month edges, down to the last representable instant before one.
  static func edgeDates(_ start: Date) -> [Date] {
    let seconds = start.timeIntervalSinceReferenceDate
    return [
      start, Date(timeIntervalSinceReferenceDate: seconds.nextDown), Date(timeIntervalSinceReferenceDate: seconds.nextUp),
      start.addingTimeInterval(-0.000_000_5), start.addingTimeInterval(0.000_000_5), start.addingTimeInterval(-1),
      start.addingTimeInterval(13 * 86_400 + 0.25),
    ]
  }

  /// Events on every edge of 30 months plus seeded random ones, owned by two owners or none,
  /// compacted into monthly segment files.
  func makeStore(_ container: StoreContainer, seed: UInt64) throws -> [Event] {
    var random = SplitMix64(seed: seed)
    let owners = [Sample.id(1), Sample.id(2)]
    let context = container.newBackgroundContext()
    for (n, owner) in owners.enumerated() { context.insert(Owner(id: owner, name: "o\(n)", note: nil)) }
    var dates = Self.monthStarts.flatMap(Self.edgeDates)
    let span = Self.monthStarts.last!.timeIntervalSince(Self.monthStarts.first!)
    for _ in 0..<200 {
      dates.append(Self.monthStarts[0].addingTimeInterval(Double.random(in: 0..<span, using: &random)))
    }
    var events: [Event] = []
    for (n, date) in dates.enumerated() {
      let owner = [owners[0], owners[1], nil][Int.random(in: 0..<3, using: &random)]
      let amount: Double? = Bool.random(using: &random) ? Double(n) : nil
      let event = Event(uuid: Sample.id(1_000 + n), ownerID: owner, at: date, title: "e\(n)", amount: amount)
      events.append(event)
      context.insert(event)
    }
    try context.save()
    try container.compact()
    return events
  }

  /// Bounds: month edges and the instants either side of them, and random instants.
  static func bounds(_ random: inout SplitMix64) -> [Date] {
    let edge = monthStarts[Int.random(in: 3..<27, using: &random)]
    let seconds = edge.timeIntervalSinceReferenceDate
    return [
      edge, Date(timeIntervalSinceReferenceDate: seconds.nextDown), Date(timeIntervalSinceReferenceDate: seconds.nextUp),
      edge.addingTimeInterval(Double.random(in: -40 * 86_400..<40 * 86_400, using: &random)),
    ]
  }

  /// Every shape, written as an app would: the narrowing ones and the ones that must not narrow.
  static func predicates(_ a: Date, _ b: Date, owner ownerValue: UUID) -> [(String, Predicate<Event>)] {
    let owner: UUID? = ownerValue
    return [
      (">= a", #Predicate<Event> { $0.at >= a }),
      ("> a", #Predicate<Event> { $0.at > a }),
      ("< b", #Predicate<Event> { $0.at < b }),
      ("<= b", #Predicate<Event> { $0.at <= b }),
      ("== a", #Predicate<Event> { $0.at == a }),
      ("a <= (flipped)", #Predicate<Event> { a <= $0.at }),
      ("b > (flipped)", #Predicate<Event> { b > $0.at }),
      ("a < (flipped)", #Predicate<Event> { a < $0.at }),
      ("b >= (flipped)", #Predicate<Event> { b >= $0.at }),
      (">= a && < b", #Predicate<Event> { $0.at >= a && $0.at < b }),
      ("> a && <= b", #Predicate<Event> { $0.at > a && $0.at <= b }),
      ("owner && >= a && < b", #Predicate<Event> { $0.ownerID == owner && $0.at >= a && $0.at < b }),
      ("amount && (>= a && <= b)", #Predicate<Event> { $0.amount != nil && ($0.at >= a && $0.at <= b) }),
      ("< b && owner", #Predicate<Event> { $0.at < b && $0.ownerID == owner }),
      ("|| does not narrow", #Predicate<Event> { $0.at < a || $0.at >= b }),
      ("! does not narrow", #Predicate<Event> { !($0.at >= a) }),
      ("optional amount", #Predicate<Event> { ($0.amount ?? 0) > 3 && $0.at >= a }),
      ("flatMap owner", #Predicate<Event> { $0.ownerID.flatMap { $0 == ownerValue } ?? false && $0.at < b }),
      ("title then bound", #Predicate<Event> { $0.title.starts(with: "e1") && $0.at >= a }),
      ("true && bound", #Predicate<Event> { true && $0.at > a }),
      ("amount == nil && > a", #Predicate<Event> { $0.amount == nil && $0.at > a }),
      ("title == || == a", #Predicate<Event> { $0.title == "e5" || $0.at == a }),
      ("owner != && <= b", #Predicate<Event> { $0.ownerID != owner && $0.at <= b }),
      ("no owner", #Predicate<Event> { $0.ownerID == nil }),
      ("nil != owner", #Predicate<Event> { nil != $0.ownerID && !($0.at < a) }),
    ]
  }

  @Test(arguments: [1, 2, 3] as [UInt64])
  func everyShapeFindsWhatAFullScanFinds(seed: UInt64) throws {
    try withTemporaryStore { container in
      let events = try makeStore(container, seed: seed)
      var random = SplitMix64(seed: seed &* 7_919)
      // Reopened once: loaded months outside a predicate's bounds must be skipped as well.
      let reopened = try StoreContainer.file(at: container.directory!, schema: TestSchema.v1)
      for _ in 0..<2 {
        for a in Self.bounds(&random) {
          for b in Self.bounds(&random) {
            for (shape, predicate) in Self.predicates(a, b, owner: Sample.id(Int.random(in: 1...2, using: &random))) {
              let expected = try events.filter { try predicate.evaluate($0) }.sorted { ($0.at, $0.title) < ($1.at, $1.title) }
              let found = try reopened.newBackgroundContext().fetch(
                FetchDescriptor(predicate: predicate, sortBy: [SortDescriptor(\.at), SortDescriptor(\.title)]))
              #expect(found == expected, "\(shape), a = \(a.timeIntervalSinceReferenceDate), b = \(b.timeIntervalSinceReferenceDate)")
              #expect(try reopened.newBackgroundContext().fetchCount(FetchDescriptor(predicate: predicate)) == expected.count)
            }
          }
        }
      }
    }
  }

  @Test func aLowerBoundReadsOnlyTheMonthsFromIt() throws {
    try withTemporaryStore { container in
      let events = try makeStore(container, seed: 9)
      let reopened = try StoreContainer.file(at: container.directory!, schema: TestSchema.v1)
      let lower = Self.monthStarts[27]
      let found = try reopened.newBackgroundContext().fetch(FetchDescriptor(predicate: #Predicate<Event> { $0.at >= lower }))
      #expect(Set(found) == Set(events.filter { $0.at >= lower }))
      #expect(reopened.statistics.segmentFilesRead == 3)
    }
  }

  @Test func aMonthWrittenAsTwoBoundsReadsOneSegment() throws {
    try withTemporaryStore { container in
      let events = try makeStore(container, seed: 10)
      let reopened = try StoreContainer.file(at: container.directory!, schema: TestSchema.v1)
      let (lower, upper) = (Self.monthStarts[12], Self.monthStarts[13])
      let owner: UUID? = Sample.id(1)
      let found = try reopened.newBackgroundContext().fetch(
        FetchDescriptor(predicate: #Predicate<Event> { $0.ownerID == owner && $0.at >= lower && $0.at < upper }))
      #expect(Set(found) == Set(events.filter { $0.ownerID == owner && $0.at >= lower && $0.at < upper }))
      #expect(reopened.statistics.segmentFilesRead == 1)
    }
  }

  @Test func aBoundAfterAnExpressionThatMayThrowDoesNotNarrow() throws {
    try withTemporaryStore { container in
      _ = try makeStore(container, seed: 11)
      let reopened = try StoreContainer.file(at: container.directory!, schema: TestSchema.v1)
      let lower = Self.monthStarts[27]
      // Force-unwrapping a nil amount throws for some objects: a full scan throws, and so must
      // the narrowed fetch, whose months hold only objects with an amount or none.
      let predicate = #Predicate<Event> { $0.amount! > 0 && $0.at >= lower }
      #expect(throws: (any Error).self) { try events(reopened, predicate) }
    }
  }

  @Test func aDateRangeAndAPredicateReadTheMonthsBothAllow() throws {
    try withTemporaryStore { container in
      let events = try makeStore(container, seed: 12)
      let reopened = try StoreContainer.file(at: container.directory!, schema: TestSchema.v1)
      let lower = Self.monthStarts[10]
      var descriptor = FetchDescriptor(predicate: #Predicate<Event> { $0.at >= lower })
      descriptor.dateRange = Self.monthStarts[5]..<Self.monthStarts[12]
      let found = try reopened.newBackgroundContext().fetch(descriptor)
      #expect(Set(found) == Set(events.filter { $0.at >= lower && descriptor.dateRange!.contains($0.at) }))
      #expect(reopened.statistics.segmentFilesRead == 2)
    }
  }

  @Test func aDateRangeEndingJustAfterAMonthStartReadsThatMonth() throws {
    try withTemporaryStore { container in
      let events = try makeStore(container, seed: 13)
      let reopened = try StoreContainer.file(at: container.directory!, schema: TestSchema.v1)
      var descriptor = FetchDescriptor<Event>(sortBy: [SortDescriptor(\.at)])
      descriptor.dateRange = Self.monthStarts[8]..<Self.monthStarts[9].addingTimeInterval(0.000_000_6)
      let found = try reopened.newBackgroundContext().fetch(descriptor)
      #expect(found == events.filter { descriptor.dateRange!.contains($0.at) }.sorted { $0.at < $1.at })
      #expect(found.last?.at ?? .distantPast >= Self.monthStarts[9])
    }
  }

  @Test func aDateJustBeforeAMonthStartIsFiledInTheMonthBefore() throws {
    try withTemporaryStore { container in
      let start = Self.monthStarts[6]
      let justBefore = Date(timeIntervalSinceReferenceDate: start.timeIntervalSinceReferenceDate.nextDown)
      let context = container.newBackgroundContext()
      context.insert(Event(uuid: Sample.id(1), ownerID: nil, at: justBefore, title: "last", amount: nil))
      context.insert(Event(uuid: Sample.id(2), ownerID: nil, at: start, title: "first", amount: nil))
      try context.save()
      try container.compact()
      let reopened = try StoreContainer.file(at: container.directory!, schema: TestSchema.v1)
      let found = try events(reopened, #Predicate<Event> { $0.at < start })
      #expect(found.map(\.title) == ["last"])
      #expect(reopened.statistics.segmentFilesRead == 1)
    }
  }

  private func events(_ container: StoreContainer, _ predicate: Predicate<Event>) throws -> [Event] {
    try container.newBackgroundContext().fetch(FetchDescriptor(predicate: predicate))
  }
}
