import Foundation
import PlainStore

extension StoreContext {
  /// The stored object, other than `object` itself, that shares one of its unique keys — the
  /// object a save would merge `object` into.
  ///
  /// The keys are the schema's own (``EntitySchema/uniqueKeyNames``), so the rule is never
  /// restated: the engine merges such objects to keep imports idempotent, and a person editing
  /// one row must be told instead of silently replacing another. Property values are read by
  /// reflection and compared exactly; a nil is a value like any other, as the engine has it.
  ///
  /// - Returns: the clashing object, or nil when a save would keep both.
  public func clashingObject<E: Entity>(with object: E, schema: Schema) throws -> E? {
    guard let entity = schema.entities.first(where: { $0.name == E.entityName }),
      !entity.uniqueKeyNames.isEmpty
    else { return nil }
    let (labels, values) = Self.properties(of: object)
    let keySets = entity.uniqueKeyNames.filter { $0.allSatisfy(labels.contains) }
    guard !keySets.isEmpty else { return nil }
    var descriptor = FetchDescriptor<E>()
    // Every key set holds the segment key: only objects at that very instant can clash.
    if let segment = entity.segmentKeyName, keySets.allSatisfy({ $0.contains(segment) }),
      let date = values[segment] as? Date
    {
      descriptor.dateRange = date..<Date(timeIntervalSinceReferenceDate: date.timeIntervalSinceReferenceDate.nextUp)
    }
    for candidate in try fetch(descriptor) where candidate.id != object.id {
      let other = Self.properties(of: candidate).values
      if keySets.contains(where: { keys in keys.allSatisfy { values[$0] == other[$0] } }) {
        return candidate
      }
    }
    return nil
  }

  /// The unique-key values of every stored object of `E`, to tell many objects at once (an
  /// import) whether a save would merge them into a stored one — the rule of
  /// ``clashingObject(with:schema:)``, with one fetch instead of one per object.
  public func uniqueKeyIndex<E: Entity>(_ type: E.Type, schema: Schema) throws -> UniqueKeyIndex<E> {
    let keySets = schema.entities.first(where: { $0.name == E.entityName })?.uniqueKeyNames ?? []
    var index = UniqueKeyIndex<E>(keySets: keySets, stored: [])
    guard !keySets.isEmpty else { return index }
    for object in try fetch(FetchDescriptor<E>()) { index.stored.formUnion(index.keys(of: object)) }
    return index
  }

  /// The stored properties of `object` by name; an absent optional has no value.
  static func properties(of object: some Entity) -> (labels: Set<String>, values: [String: AnyHashable]) {
    var labels = Set<String>()
    var values: [String: AnyHashable] = [:]
    for child in Mirror(reflecting: object).children {
      guard let label = child.label else { continue }
      labels.insert(label)
      values[label] = child.value as? AnyHashable
    }
    return (labels, values)
  }
}

/// The unique-key values of a set of stored objects: see ``StoreContext/uniqueKeyIndex(_:schema:)``.
public struct UniqueKeyIndex<E: Entity> {
  /// The schema's unique key sets of `E`, by property name.
  let keySets: [[String]]
  /// One entry per stored object and key set: the key set's number, then its values.
  var stored: Set<[AnyHashable]>

  /// Whether a stored object shares one of `object`'s unique keys.
  public func holds(_ object: E) -> Bool {
    !stored.isDisjoint(with: keys(of: object))
  }

  func keys(of object: E) -> [[AnyHashable]] {
    let values = StoreContext.properties(of: object).values
    return keySets.enumerated().map { number, names in
      [AnyHashable(number)] + names.map { values[$0] ?? AnyHashable(Optional<Int>.none) }
    }
  }
}
