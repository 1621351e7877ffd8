import Foundation

/// A `#Predicate` turned into a plain Swift closure over the object, for the shapes fetches
/// use every day: comparisons and (in)equalities of the object's properties with constants
/// (`nil` included), joined by `&&`, `||` and `!`.
///
/// Foundation's `Predicate.evaluate` boxes the object into its bindings and walks the tree
/// through existentials on every call; over a month of objects that is most of a fetch. A
/// compiled predicate computes the same values with the same operators (`==` and `<` of the
/// property's own type, `&&` and `||` short-circuiting), so it finds the same objects; anything
/// else (functions, optionals' `flatMap`, force unwraps, nested closures) is not compiled and the
/// fetch evaluates the predicate itself.
struct CompiledPredicate<E> {
  let evaluate: (E) -> Bool

  init?(_ predicate: Predicate<E>) {
    guard let expression = predicate.expression as? any CompilableCondition,
      let evaluate = expression.compiled(E.self, argument: predicate.variable.key)
    else { return nil }
    self.evaluate = evaluate
  }
}

/// A Boolean expression that compiles to a closure over the object.
protocol CompilableCondition {
  func compiled<Root>(_ root: Root.Type, argument: PredicateExpressions.VariableID) -> ((Root) -> Bool)?
}

/// An operand that compiles to a closure reading its value from the object: a key path on the
/// argument, a constant or `nil`. The closure comes back as `Any`, holding `(Root) -> Output`.
protocol CompilableOperand {
  func anyReader<Root>(_ root: Root.Type, argument: PredicateExpressions.VariableID) -> Any?
}

/// The typed reader of an operand, or nil when it does not compile.
private func reader<Operand: PredicateExpression, Root>(
  _ operand: Operand, _ root: Root.Type, _ argument: PredicateExpressions.VariableID
) -> ((Root) -> Operand.Output)? {
  (operand as? any CompilableOperand)?.anyReader(root, argument: argument) as? (Root) -> Operand.Output
}

private func condition<Root>(_ expression: Any, _ root: Root.Type, _ argument: PredicateExpressions.VariableID) -> ((Root) -> Bool)? {
  (expression as? any CompilableCondition)?.compiled(root, argument: argument)
}

extension PredicateExpressions.KeyPath: CompilableOperand {
  func anyReader<R>(_ root: R.Type, argument: PredicateExpressions.VariableID) -> Any? {
    guard (self.root as? any ArgumentExpression)?.key == argument, let keyPath = keyPath as? Swift.KeyPath<R, Output> else {
      return nil
    }
    return { (object: R) -> Output in object[keyPath: keyPath] }
  }
}

extension PredicateExpressions.Value: CompilableOperand {
  func anyReader<R>(_ root: R.Type, argument: PredicateExpressions.VariableID) -> Any? {
    let value = self.value
    return { (_: R) -> Output in value }
  }
}

extension PredicateExpressions.NilLiteral: CompilableOperand {
  func anyReader<R>(_ root: R.Type, argument: PredicateExpressions.VariableID) -> Any? {
    { (_: R) -> Output in nil }
  }
}

extension PredicateExpressions.Equal: CompilableCondition {
  func compiled<R>(_ root: R.Type, argument: PredicateExpressions.VariableID) -> ((R) -> Bool)? {
    guard let lhs = reader(self.lhs, root, argument), let rhs = reader(self.rhs, root, argument) else { return nil }
    return { lhs($0) == rhs($0) }
  }
}

extension PredicateExpressions.NotEqual: CompilableCondition {
  func compiled<R>(_ root: R.Type, argument: PredicateExpressions.VariableID) -> ((R) -> Bool)? {
    guard let lhs = reader(self.lhs, root, argument), let rhs = reader(self.rhs, root, argument) else { return nil }
    return { lhs($0) != rhs($0) }
  }
}

extension PredicateExpressions.Comparison: CompilableCondition {
  func compiled<R>(_ root: R.Type, argument: PredicateExpressions.VariableID) -> ((R) -> Bool)? {
    guard let lhs = reader(self.lhs, root, argument), let rhs = reader(self.rhs, root, argument) else { return nil }
    switch op {
    case .lessThan: return { lhs($0) < rhs($0) }
    case .lessThanOrEqual: return { lhs($0) <= rhs($0) }
    case .greaterThan: return { lhs($0) > rhs($0) }
    case .greaterThanOrEqual: return { lhs($0) >= rhs($0) }
    }
  }
}

extension PredicateExpressions.Conjunction: CompilableCondition {
  func compiled<R>(_ root: R.Type, argument: PredicateExpressions.VariableID) -> ((R) -> Bool)? {
    guard let lhs = condition(self.lhs, root, argument), let rhs = condition(self.rhs, root, argument) else { return nil }
    return { lhs($0) && rhs($0) }
  }
}

extension PredicateExpressions.Disjunction: CompilableCondition {
  func compiled<R>(_ root: R.Type, argument: PredicateExpressions.VariableID) -> ((R) -> Bool)? {
    guard let lhs = condition(self.lhs, root, argument), let rhs = condition(self.rhs, root, argument) else { return nil }
    return { lhs($0) || rhs($0) }
  }
}

extension PredicateExpressions.Negation: CompilableCondition {
  func compiled<R>(_ root: R.Type, argument: PredicateExpressions.VariableID) -> ((R) -> Bool)? {
    guard let wrapped = condition(self.wrapped, root, argument) else { return nil }
    return { !wrapped($0) }
  }
}
