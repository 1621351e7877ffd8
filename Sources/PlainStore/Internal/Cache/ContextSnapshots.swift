import Foundation

/// The values a context last handed out, per object: what an update is measured from (see
/// ``StoreContext``).
///
/// Every fetch hands out values, and most are never edited, so remembering them must cost next
/// to nothing: a fetch's result array is kept as it is (sharing its storage with the caller's
/// copy, no per-object work), and only the first lookup after it, the rare update or delete,
/// folds the kept arrays into a dictionary by id, newest value winning.
struct ContextSnapshots {
  private var entities: [String: any EntitySnapshots] = [:]

  /// At most this many fetch results wait unfolded, so that a query fetched again and again
  /// (a live query) holds a bounded number of copies.
  static let unfoldedLimit = 4

  subscript(key: ObjectKey) -> (any Entity)? {
    mutating get {
      guard var table = entities[key.entity] else { return nil }
      entities[key.entity] = nil  // keep the table uniquely referenced while it folds
      defer { entities[key.entity] = table }
      return table.value(of: key.id)
    }
    set {
      guard let newValue else {
        entities[key.entity]?.remove(key.id)
        return
      }
      remember(stored: [newValue])
    }
  }

  /// Remembers a fetch's results, except the objects `isPending` names (their unsaved change
  /// is what an update builds on).
  mutating func remember<E: Entity>(_ objects: [E], unless isPending: ((UUID) -> Bool)?) {
    guard !objects.isEmpty else { return }
    var table = entities.removeValue(forKey: E.entityName) as? TypedEntitySnapshots<E> ?? TypedEntitySnapshots<E>()
    if let isPending {
      table.add(objects.filter { !isPending($0.id) })
    } else {
      table.add(objects)
    }
    entities[E.entityName] = table
  }

  /// Remembers the values a save stored: kept as one result per run of one entity, so that a
  /// bulk save costs one array and no lookups per object.
  mutating func remember(stored values: [any Entity]) {
    var start = values.startIndex
    while start < values.endIndex {
      func run<E: Entity>(_ first: E) -> Int {
        var run = [first]
        var end = start + 1
        while end < values.endIndex, let next = values[end] as? E {
          run.append(next)
          end += 1
        }
        remember(run, unless: nil)
        return end
      }
      let first = values[start]
      start = run(first)
    }
  }
}

/// One entity's remembered values, its type erased.
protocol EntitySnapshots {
  mutating func value(of id: UUID) -> (any Entity)?
  mutating func remove(_ id: UUID)
}

struct TypedEntitySnapshots<E: Entity>: EntitySnapshots {
  private var byID: [UUID: E] = [:]
  /// Fetch results not folded into `byID` yet, oldest first.
  private var unfolded: [[E]] = []

  mutating func add(_ objects: [E]) {
    unfolded.append(objects)
    if unfolded.count > ContextSnapshots.unfoldedLimit { fold() }
  }

  mutating func value(of id: UUID) -> (any Entity)? {
    fold()
    return byID[id]
  }

  mutating func remove(_ id: UUID) {
    fold()
    byID[id] = nil
  }

  private mutating func fold() {
    for objects in unfolded {
      for object in objects { byID[object.id] = object }
    }
    unfolded = []
  }
}
