import Foundation
import PlainStore
import Testing

@Suite struct ISO8601Tests {
  @Test(arguments: [
    ("2026-01-15T09:30:00Z", 790_162_200.0),
    ("2026-01-15T09:30:00.250Z", 790_162_200.25),
    ("2026-01-15T18:30:00+09:00", 790_162_200.0),
    ("2026-01-15T04:00:00-0530", 790_162_200.0),
    ("2026-01-15T09:30Z", 790_162_200.0),
  ])
  func parsesTheCommonForms(_ text: String, _ expected: TimeInterval) {
    #expect(ISO8601.parse(text) == Date(timeIntervalSinceReferenceDate: expected))
  }

  @Test(arguments: ["2026-01-15T09:30:00", "2026-02-30T09:30:00Z", "2026-01-15 25:00:00Z", "yesterday", "2026-01-15T09:30:00Zjunk"])
  func refusesWhatIsNotAZonedDate(_ text: String) {
    #expect(ISO8601.parse(text) == nil)
  }

  @Test func formatsTheShortestExactText() {
    #expect(ISO8601.format(Date(timeIntervalSinceReferenceDate: 790_162_200)) == "2026-01-15T09:30:00Z")
    #expect(ISO8601.format(Date(timeIntervalSinceReferenceDate: 790_162_200.5)) == "2026-01-15T09:30:00.5Z")
    #expect(ISO8601.formatMilliseconds(Date(timeIntervalSinceReferenceDate: 790_162_200)) == "2026-01-15T09:30:00.000Z")
    #expect(ISO8601.format(Date(timeIntervalSinceReferenceDate: -1)) == "2000-12-31T23:59:59Z")
  }

  @Test func everyDateComesBackBitForBit() {
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<10_000 {
      let date = Date(timeIntervalSinceReferenceDate: Double.random(in: -2e9...2e9, using: &generator))
      #expect(ISO8601.parse(ISO8601.format(date)) == date)
    }
    for tiny in [1e-7, 1.5e-5, 0.000_123, 0.999_999_999] {
      let date = Date(timeIntervalSinceReferenceDate: 790_162_200 + tiny)
      #expect(ISO8601.parse(ISO8601.format(date)) == date)
    }
  }
}
