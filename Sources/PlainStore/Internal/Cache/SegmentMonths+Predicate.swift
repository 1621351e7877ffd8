import Foundation

/// Reads the months of the segment key a `#Predicate` can match out of its expression tree, so
/// that `#Predicate { $0.startTime >= a }` reads only the months from `a` on, as a
/// ``FetchDescriptor/dateRange`` would.
///
/// Conservative by construction: only comparisons of the segment key with a constant
/// (`<`, `<=`, `>`, `>=`, `==`, on either side), joined by `&&`, narrow anything; every other
/// shape (`||`, `!`, optionals, functions, key paths on other properties) leaves its months
/// unbounded. Narrowing never hides an error either: a bound on the right of `&&` counts only
/// when what is evaluated before it cannot throw, so an object outside the months makes the
/// whole predicate false without throwing, as a full scan would find.
extension SegmentMonths {
  /// The months a predicate over `E` can match; `isSegmentKey` tells the segment key's key path.
  static func of<E>(_ predicate: Predicate<E>, isSegmentKey: @escaping (AnyKeyPath) -> Bool) -> SegmentMonths {
    let context = MonthReading.Context(variable: predicate.variable.key, isSegmentKey: isSegmentKey)
    return reading(of: predicate.expression, in: context).months
  }
}

/// What reading one expression found: the months it can be true in, and whether evaluating it
/// may throw (which stops bounds to its right from counting).
struct MonthReading {
  var months: SegmentMonths
  var mayThrow: Bool

  static let unknown = MonthReading(months: .unbounded, mayThrow: true)

  struct Context {
    /// The predicate's own argument: a key path on anything else is not the object's.
    var variable: PredicateExpressions.VariableID
    var isSegmentKey: (AnyKeyPath) -> Bool
  }
}

/// An expression whose months and throwing can be read; anything else is ``MonthReading/unknown``.
protocol MonthBoundingExpression {
  func months(in context: MonthReading.Context) -> MonthReading
}

private func reading(of expression: Any, in context: MonthReading.Context) -> MonthReading {
  (expression as? any MonthBoundingExpression)?.months(in: context) ?? .unknown
}

/// `$0.key`, read for which argument and key path it names.
protocol ArgumentKeyPathExpression {
  var argumentKey: PredicateExpressions.VariableID? { get }
  var anyKeyPath: AnyKeyPath { get }
}

/// A constant, whatever its type.
protocol ConstantExpression {
  var constant: Any { get }
}

extension PredicateExpressions.KeyPath: ArgumentKeyPathExpression {
  var argumentKey: PredicateExpressions.VariableID? {
    (root as? any ArgumentExpression)?.key
  }
  var anyKeyPath: AnyKeyPath { keyPath }
}

/// The predicate's argument (`$0`).
protocol ArgumentExpression {
  var key: PredicateExpressions.VariableID { get }
}

extension PredicateExpressions.Variable: ArgumentExpression {}

extension PredicateExpressions.Value: ConstantExpression {
  var constant: Any { value }
}

/// Whether an operand is one that evaluates without throwing: a constant or a key path on the
/// argument (stored properties and plain getters cannot throw).
private func isPlainOperand(_ operand: Any, _ context: MonthReading.Context) -> Bool {
  if operand is any ConstantExpression { return true }
  if let keyPath = operand as? any ArgumentKeyPathExpression { return keyPath.argumentKey == context.variable }
  return false
}

/// The constant date a comparison with the segment key holds, and whether the key is on the left.
private func segmentKeyComparison(_ lhs: Any, _ rhs: Any, _ context: MonthReading.Context) -> (bound: Date, keyOnLeft: Bool)? {
  func isSegmentKey(_ operand: Any) -> Bool {
    guard let keyPath = operand as? any ArgumentKeyPathExpression else { return false }
    return keyPath.argumentKey == context.variable && context.isSegmentKey(keyPath.anyKeyPath)
  }
  if isSegmentKey(lhs), let bound = (rhs as? any ConstantExpression)?.constant as? Date { return (bound, true) }
  if isSegmentKey(rhs), let bound = (lhs as? any ConstantExpression)?.constant as? Date { return (bound, false) }
  return nil
}

extension PredicateExpressions.Conjunction: MonthBoundingExpression {
  func months(in context: MonthReading.Context) -> MonthReading {
    let left = reading(of: lhs, in: context)
    let right = reading(of: rhs, in: context)
    // The right side runs only when the left is true: its bounds hold when the left cannot throw.
    let months = left.mayThrow ? left.months : left.months.intersection(right.months)
    return MonthReading(months: months, mayThrow: left.mayThrow || right.mayThrow)
  }
}

extension PredicateExpressions.Comparison: MonthBoundingExpression {
  func months(in context: MonthReading.Context) -> MonthReading {
    guard isPlainOperand(lhs, context), isPlainOperand(rhs, context) else { return .unknown }
    guard let (bound, keyOnLeft) = segmentKeyComparison(lhs, rhs, context) else {
      return MonthReading(months: .unbounded, mayThrow: false)
    }
    let op: PredicateExpressions.ComparisonOperator
    switch (self.op, keyOnLeft) {
    case (let written, true): op = written
    case (.lessThan, false): op = .greaterThan
    case (.lessThanOrEqual, false): op = .greaterThanOrEqual
    case (.greaterThan, false): op = .lessThan
    case (.greaterThanOrEqual, false): op = .lessThanOrEqual
    }
    return MonthReading(months: SegmentMonths.of(op, bound), mayThrow: false)
  }
}

extension PredicateExpressions.Equal: MonthBoundingExpression {
  func months(in context: MonthReading.Context) -> MonthReading {
    guard isPlainOperand(lhs, context), isPlainOperand(rhs, context) else { return .unknown }
    guard let (bound, _) = segmentKeyComparison(lhs, rhs, context) else {
      return MonthReading(months: .unbounded, mayThrow: false)
    }
    return MonthReading(
      months: SegmentMonths.of(.greaterThanOrEqual, bound).intersection(SegmentMonths.of(.lessThanOrEqual, bound)),
      mayThrow: false)
  }
}

extension PredicateExpressions.NotEqual: MonthBoundingExpression {
  func months(in context: MonthReading.Context) -> MonthReading {
    guard isPlainOperand(lhs, context), isPlainOperand(rhs, context) else { return .unknown }
    return MonthReading(months: .unbounded, mayThrow: false)
  }
}
