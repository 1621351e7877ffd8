import Foundation
import Testing

@testable import PlainStore

/// Only values the reader accepts are ever written: a date outside years 0000–9999 or a
/// non-finite number is refused at save, naming the object, the property and the range, and
/// nothing is written; every date inside the range survives a write and a reopen.
@Suite struct StorableValueTests {
  static let firstStorable = Date(timeIntervalSinceReferenceDate: ISO8601.firstStorableInterval)
  static let endOfStorable = Date(timeIntervalSinceReferenceDate: ISO8601.endOfStorableIntervals)

  /// A date as a test argument: Foundation's own `Date.description`, which the test library
  /// calls, traps on NaN and on ±1e19 s.
  struct Instant: Sendable, CustomTestStringConvertible {
    var date: Date
    init(_ date: Date) { self.date = date }
    var testDescription: String { ISO8601.describe(date) }
  }

  /// Dates no store file can hold, by how a person or a program arrives at them.
  static let unstorableDates: [Instant] = [
    ISO8601.parse("9999-12-31T23:00:00-14:00")!,  // year 10000 in UTC
    ISO8601.parse("0000-01-01T00:00:00+01:00")!,  // year -1 in UTC
    firstStorable.addingTimeInterval(-365 * 86_400),
    endOfStorable,
    Date(timeIntervalSinceReferenceDate: 1e19),
    Date(timeIntervalSinceReferenceDate: -1e19),
    Date(timeIntervalSinceReferenceDate: .nan),
    Date(timeIntervalSinceReferenceDate: .infinity),
  ].map(Instant.init)

  @Test(arguments: unstorableDates)
  func aDateOutsideTheYears0000To9999IsRefusedAtSaveAndNothingIsWritten(_ instant: Instant) throws {
    let date = instant.date
    try withTemporaryStore { container in
      let setup = container.newBackgroundContext()
      setup.insert(Owner(id: Sample.id(1), name: "Mia"))
      try setup.save()
      let before = try snapshotFiles(container.directory!)

      let context = container.newBackgroundContext()
      context.insert(Event(uuid: Sample.id(2), ownerID: Sample.id(1), at: date, title: "feed"))
      let error = try #require(throws: StoreError.self) { try context.save() }
      #expect(error.code == .invalidObject)
      #expect(error.path == "Event \(Sample.id(2).uuidString)")
      #expect(error.detail.contains("property 'at'"))
      #expect(error.detail.contains("years 0000 to 9999"))
      #expect(error.detail.contains("nothing was saved"))
      #expect(try snapshotFiles(container.directory!) == before)
      #expect(context.hasChanges)  // kept, so the caller can correct it

      // The store still opens and reads: nothing the reader calls damaged was written.
      let reopened = try StoreContainer.file(at: container.directory!, schema: TestSchema.v1)
      #expect(try reopened.newBackgroundContext().fetch(FetchDescriptor<Event>()).isEmpty)
    }
  }

  @Test(arguments: [Double.nan, .infinity, -.infinity])
  func aNonFiniteNumberIsRefusedAtSaveNamingTheProperty(_ amount: Double) throws {
    try withTemporaryStore { container in
      let context = container.newBackgroundContext()
      context.insert(Event(uuid: Sample.id(2), ownerID: nil, at: Sample.epoch, title: "feed", amount: amount))
      let before = try snapshotFiles(container.directory!)
      let error = try #require(throws: StoreError.self) { try context.save() }
      #expect(error.code == .invalidObject)
      #expect(error.path == "Event \(Sample.id(2).uuidString)")
      #expect(error.detail.contains("property 'amount'"))
      #expect(error.detail.contains("finite numbers only"))
      #expect(try snapshotFiles(container.directory!) == before)
    }
  }

  /// A bulk save checks its later half on another thread: whichever half holds unstorable
  /// values, the one refused is the first in save order, and nothing is written.
  @Test(arguments: [[1_500, 1_700], [300, 1_500], [1_999], [0, 1_000]])
  func aBulkSaveRefusesItsFirstUnstorableValueWhicheverHalfHoldsIt(_ unstorable: [Int]) throws {
    let count = 2_000
    #expect(count >= StoreCoordinator.concurrentWorkThreshold, "the check takes the concurrent path")
    try withTemporaryStore { container in
      let context = container.newBackgroundContext()
      for serial in 0..<count {
        let amount = unstorable.contains(serial) ? Double.nan : Double(serial)
        context.insert(Event(uuid: Sample.id(10 + serial), ownerID: nil, at: Sample.epoch.addingTimeInterval(Double(serial) * 60), title: "feed", amount: amount))
      }
      let before = try snapshotFiles(container.directory!)
      let error = try #require(throws: StoreError.self) { try context.save() }
      #expect(error.code == .invalidObject)
      #expect(error.path == "Event \(Sample.id(10 + unstorable[0]).uuidString)")
      #expect(error.detail.contains("property 'amount'"))
      #expect(try snapshotFiles(container.directory!) == before)
      #expect(context.hasChanges)
    }
  }

  @Test func anInMemoryStoreRefusesWhatAFileStoreCannotHold() throws {
    let container = StoreContainer.inMemory(schema: TestSchema.v1)
    let context = container.newBackgroundContext()
    context.insert(Event(uuid: Sample.id(2), ownerID: nil, at: Date(timeIntervalSinceReferenceDate: .nan), title: "x"))
    let error = try #require(throws: StoreError.self) { try context.save() }
    #expect(error.code == .invalidObject)
    #expect(try container.newBackgroundContext().fetch(FetchDescriptor<Event>()).isEmpty)
  }

  /// The first and last instants of the range, and fractions near the top where a Double has
  /// the fewest fraction bits.
  static let boundaryDates: [Instant] = [
    ISO8601.parse("0000-01-01T00:00:00Z")!,
    ISO8601.parse("0000-01-01T00:00:00.001Z")!,
    ISO8601.parse("9999-12-31T23:59:59.999Z")!,
    ISO8601.parse("9999-12-31T23:59:59Z")!,
    Date(timeIntervalSinceReferenceDate: ISO8601.endOfStorableIntervals.nextDown),
    Date(timeIntervalSinceReferenceDate: ISO8601.firstStorableInterval.nextUp),
  ].map(Instant.init)

  @Test(arguments: boundaryDates)
  func everyDateInTheRangeSurvivesAWriteAndAReopen(_ instant: Instant) throws {
    let date = instant.date
    #expect(ISO8601.isStorable(date))
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("PlainStoreTests-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent("Dates.store")
    let event = Event(uuid: Sample.id(2), ownerID: nil, at: date, title: "edge", amount: 1)
    do {
      let container = try StoreContainer.file(at: url, schema: TestSchema.v1, options: Sample.options)
      let context = container.newBackgroundContext()
      context.insert(event)
      try context.save()
    }
    do {
      let reopened = try StoreContainer.file(at: url, schema: TestSchema.v1)
      let read = try reopened.newBackgroundContext().fetch(FetchDescriptor<Event>())
      #expect(read == [event])
      #expect(read.first?.at.timeIntervalSinceReferenceDate.bitPattern == date.timeIntervalSinceReferenceDate.bitPattern)
      try reopened.compact()
    }
    let compacted = try StoreContainer.file(at: url, schema: TestSchema.v1)
    #expect(try compacted.newBackgroundContext().fetch(FetchDescriptor<Event>()) == [event])
  }

  @Test(arguments: unstorableDates)
  func theEncoderRefusesAnUnstorableDateWithAnErrorNotATrap(_ instant: Instant) throws {
    let date = instant.date
    #expect(!ISO8601.isStorable(date))
    #expect {
      try StoreJSONEncoder().encode(["at": date])
    } throws: { error in
      guard case EncodingError.invalidValue(_, let context) = error else { return false }
      return context.codingPath.map(\.stringValue) == ["at"] && context.debugDescription.contains("years 0000 to 9999")
    }
    // A message can still show it.
    #expect(!ISO8601.format(date).isEmpty)
  }

  @Test(arguments: [
    "0000-01-01T00:00:00+01:00", "9999-12-31T23:00:00-14:00", "0000-01-01T00:59:59+01:00",
  ])
  func theDecoderRefusesTheDatesTheEncoderRefuses(_ text: String) throws {
    let date = try #require(ISO8601.parse(text))
    #expect(throws: EncodingError.self) { try StoreJSONEncoder().encode([date]) }
    let error = try #require(throws: DecodingError.self) {
      try StoreJSONDecoder().decode([Date].self, from: Data("[\"\(text)\"]".utf8))
    }
    guard case .dataCorrupted(let context) = error else {
      Issue.record("expected dataCorrupted, got \(error)")
      return
    }
    #expect(context.debugDescription.contains("years 0000 to 9999"))
  }

  @Test func theDecoderReadsBothEndsOfTheRange() throws {
    let data = Data(#"["0000-01-01T00:00:00Z","9999-12-31T23:59:59.999Z","0000-01-01T01:00:00+01:00"]"#.utf8)
    let dates = try StoreJSONDecoder().decode([Date].self, from: data)
    #expect(dates == [Self.firstStorable, ISO8601.parse("9999-12-31T23:59:59.999Z")!, Self.firstStorable])
  }

  @Test func outOfRangeDatesAreDescribedInTheExpandedForm() {
    #expect(ISO8601.describe(ISO8601.parse("9999-12-31T23:00:00-14:00")!) == "+10000-01-01T13:00:00Z")
    #expect(ISO8601.describe(Self.firstStorable.addingTimeInterval(-1)) == "-0001-12-31T23:59:59Z")
    #expect(ISO8601.describe(Date(timeIntervalSinceReferenceDate: .nan)) == "nan seconds from 2001-01-01T00:00:00Z")
    #expect(ISO8601.describe(Sample.epoch) == "2026-01-15T09:30:00Z")
  }
}
