import Foundation

/// The months of the segment key a fetch must read: from its ``FetchDescriptor/dateRange`` and
/// from the bounds its `#Predicate` puts on the segment key (see SegmentMonths+Predicate.swift).
///
/// Month indexes grow with dates (``SegmentKey/monthIndex(of:)`` is monotonic), so a bound on a
/// date is a bound on its month, with no rounding guesses: `key < b` means `key <= b.nextDown`.
struct SegmentMonths: Equatable {
  /// The first month that can match (a ``SegmentKey`` month index), nil for no lower bound.
  var first: Int?
  /// The last month that can match, nil for no upper bound.
  var last: Int?

  static let unbounded = SegmentMonths(first: nil, last: nil)
  static let none = SegmentMonths(first: 1, last: 0)

  func contains(_ month: Int) -> Bool {
    (first.map { month >= $0 } ?? true) && (last.map { month <= $0 } ?? true)
  }

  func intersection(_ other: SegmentMonths) -> SegmentMonths {
    SegmentMonths(
      first: [first, other.first].compactMap { $0 }.max(),
      last: [last, other.last].compactMap { $0 }.min())
  }

  /// The months a half-open date range touches.
  init(covering range: Range<Date>) {
    guard !range.isEmpty else {
      self = .none
      return
    }
    self = Self.of(.greaterThanOrEqual, range.lowerBound).intersection(Self.of(.lessThan, range.upperBound))
  }

  init(first: Int?, last: Int?) {
    self.first = first
    self.last = last
  }

  /// The months holding every date `op` accepts against `bound`, for a comparison written
  /// `key op bound`.
  static func of(_ op: PredicateExpressions.ComparisonOperator, _ bound: Date) -> SegmentMonths {
    func month(_ seconds: TimeInterval) -> Int {
      SegmentKey.monthIndex(of: Date(timeIntervalSinceReferenceDate: seconds))
    }
    let seconds = bound.timeIntervalSinceReferenceDate
    // Beyond any storable date (ISO8601.isStorable), a bound narrows nothing worth the risk.
    guard seconds.magnitude < 1e14 else { return .unbounded }
    switch op {
    case .lessThan: return SegmentMonths(first: nil, last: month(seconds.nextDown))
    case .lessThanOrEqual: return SegmentMonths(first: nil, last: month(seconds))
    case .greaterThan: return SegmentMonths(first: month(seconds.nextUp), last: nil)
    case .greaterThanOrEqual: return SegmentMonths(first: month(seconds), last: nil)
    }
  }
}
