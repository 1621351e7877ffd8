import Foundation

/// Property-by-property merging of entity values, as Core Data's
/// `NSMergeByPropertyObjectTrumpMergePolicy` does with managed objects: the properties a context
/// changed win, the store's other properties stay.
///
/// Properties travel as their exact JSON text (`RawJSON`), never through a tree of Doubles, so
/// a merge keeps every value as it was written: an Int64 above 2^53, every digit of a date.
struct PropertyMerge {
  /// The entities' field groups: an edit of one member writes them all, as the fold takes a
  /// group whole from its last writer.
  let schema: MergeSchema

  func properties(_ object: any Entity) throws -> [String: RawJSON] {
    try EntityFields.of(object)
  }

  /// The properties of `value`, read from `encoded`, its JSON, when the caller has it (the check
  /// before a commit made it): a value is encoded once.
  func properties(_ value: any Entity, encoded: RawJSON?) throws -> [String: RawJSON] {
    try encoded.map(EntityFields.of(json:)) ?? properties(value)
  }

  /// The properties `value` (its JSON: `encoded`, when known) changed relative to `snapshot`,
  /// with the other members of their field groups (a feed's end edited writes its start too,
  /// so a start another context moved meanwhile never pairs with this end); all but its
  /// identity when there is no snapshot. A property set to nil maps to `null`.
  func changes(of value: any Entity, encoded: RawJSON? = nil, from snapshot: (any Entity)?) throws -> [String: RawJSON] {
    let new = try properties(value, encoded: encoded)
    guard let snapshot else {
      return new.filter { $0.key != type(of: value).identityKey }
    }
    let old = try properties(snapshot)
    let entity = schema.entities[type(of: value).entityName]
    var changed: [String: RawJSON] = [:]
    for key in Set(new.keys).union(old.keys) where new[key] != old[key] {
      for member in entity.map({ $0.members(of: $0.group(of: key)) }) ?? [key] { changed[member] = new[member] ?? .null }
    }
    return changed
  }

  /// The field groups that `changes` (of an object of `entity`) set, by name.
  func groups(of changes: [String: RawJSON], entity: String) -> [String] {
    guard let entity = schema.entities[entity] else { return changes.keys.sorted() }
    return Set(changes.keys.filter { $0 != entity.identityKey }.map(entity.group(of:))).sorted()
  }

  /// What an inserted object sets when it merges into a stored one (same id, or a unique key
  /// that matches): every property it carries except its identity, and none that it leaves
  /// nil, so an insert never erases a stored value (Core Data merges only the set properties).
  func setProperties(of value: any Entity, encoded: RawJSON? = nil) throws -> [String: RawJSON] {
    try properties(value, encoded: encoded).filter { $0.key != type(of: value).identityKey && !$0.value.isNull }
  }

  /// `base` with `changes` written over it.
  func apply(_ changes: [String: RawJSON], to base: any Entity) throws -> any Entity {
    var properties = try properties(base)
    for (key, value) in changes {
      properties[key] = value.isNull ? nil : value
    }
    let data = try StoreCoding.makeEncoder().encode(properties)
    return try decode(like: base, data)
  }

  private func decode<E: Entity>(like _: E, _ data: Data) throws -> any Entity {
    try StoreCoding.makeDecoder().decode(E.self, from: data)
  }
}
