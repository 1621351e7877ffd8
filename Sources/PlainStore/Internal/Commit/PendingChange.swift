import Foundation

/// One unsaved change of a context, as the save hands it to the coordinator.
struct PendingChange: Sendable {
  enum Kind: Sendable { case insert, update, delete }
  var entity: String
  var id: UUID
  var kind: Kind
  /// The new value (inserts and updates).
  var value: (any Entity)?
  /// The value the context last handed out for this object: what the change is measured from,
  /// property by property. nil when the context never read it.
  var snapshot: (any Entity)?
  /// The value's JSON, as the check before the commit encoded it (see `StorableCheck`).
  var encoded: RawJSON?
}

struct ObjectKey: Hashable, Sendable {
  var entity: String
  var id: UUID

  /// The id alone: ids are unique across entities in practice, so hashing the entity's name
  /// too would only double the cost of every table a commit plan keeps (equality checks both).
  func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

func entitiesEqual(_ lhs: (any Entity)?, _ rhs: (any Entity)?) -> Bool {
  switch (lhs, rhs) {
  case (nil, nil): return true
  case (let lhs?, let rhs?): return openEqual(lhs, rhs)
  default: return false
  }
}

private func openEqual<E: Entity>(_ lhs: E, _ rhs: any Entity) -> Bool {
  (rhs as? E) == lhs
}

/// Orders ids by their bytes: the same order on every platform.
func uuidPrecedes(_ lhs: UUID, _ rhs: UUID) -> Bool {
  uuidOrder(lhs) < uuidOrder(rhs)
}

/// A UUID's bytes as two big-endian integers: comparing them orders UUIDs byte by byte, as
/// `uuidPrecedes` does, many times faster than comparing byte sequences.
func uuidOrder(_ id: UUID) -> UUIDOrder {
  let words = _UUIDWords.words(id)
  return UUIDOrder(high: UInt64(bigEndian: words.first), low: UInt64(bigEndian: words.second))
}

struct UUIDOrder: Comparable {
  var high: UInt64
  var low: UInt64

  static func < (lhs: Self, rhs: Self) -> Bool {
    lhs.high != rhs.high ? lhs.high < rhs.high : lhs.low < rhs.low
  }
}
