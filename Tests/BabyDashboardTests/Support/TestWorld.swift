import BabyDashboard
import BabyDashboardFixtures
import Foundation
import PlainStore

/// Fixed moments, identities and zones for the domain's tests: nothing reads the machine's
/// clock, zone or locale.
enum Fixed {
  /// 2026-03-14T15:00:00Z, a Saturday: 11:00 in New York (EDT).
  static let now = date("2026-03-14T15:00:00Z")

  static func date(_ text: String) -> Date {
    guard let date = ISO8601.parse(text) else { preconditionFailure("not ISO 8601: \(text)") }
    return date
  }

  /// `00000000-0000-0000-0000-<n in 12 hex digits>`.
  static func id(_ n: Int) -> UUID {
    let hex = String(n, radix: 16)
    return UUID(uuidString: "00000000-0000-0000-0000-" + String(repeating: "0", count: 12 - hex.count) + hex)!
  }

  static func zone(_ identifier: String) -> TimeZone {
    guard let zone = TimeZone(identifier: identifier) else { preconditionFailure("no time zone \(identifier)") }
    return zone
  }

  static let newYork = zone("America/New_York")
  static let lordHowe = zone("Australia/Lord_Howe")
  static let utc = zone("UTC")
  static let gregorian = Calendar(identifier: .gregorian)
}

/// A clock the test moves by hand.
final class TestClock: Sendable {
  private let current: StoreMutex<Date>

  init(_ start: Date = Fixed.now) {
    current = StoreMutex(start)
  }

  var now: Date { current.withLock { $0 } }

  func set(_ date: Date) {
    current.withLock { $0 = date }
  }

  func advance(_ seconds: TimeInterval) {
    current.withLock { $0 = $0.addingTimeInterval(seconds) }
  }
}

/// Fixed identities handed out in order: 1000, 1001, …
final class TestIDs: Sendable {
  private let next: StoreMutex<Int>

  init(startingAt first: Int = 1000) {
    next = StoreMutex(first)
  }

  func make() -> UUID {
    Fixed.id(next.withLock { value in
      defer { value += 1 }
      return value
    })
  }
}

extension BabyProfile {
  /// Mia, added first (2026-01-01), though her name sorts after Leo's.
  static let mia = makeBabyProfile(id: Fixed.id(1), name: "Mia", createdAt: Fixed.date("2026-01-01T08:00:00Z"))
  /// Leo, added second (2026-02-01).
  static let leo = makeBabyProfile(
    id: Fixed.id(2), name: "Leo", feedTerm: 7_200, createdAt: Fixed.date("2026-02-01T08:00:00Z"))
}
