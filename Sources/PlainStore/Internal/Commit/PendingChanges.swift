import Foundation

/// A context's unsaved changes, one per object, in the order each object was first changed,
/// with the values the context last handed out.
///
/// The changes sit in an array, each object's place kept beside it: a save takes them in
/// order without a lookup each, and a save that finds nothing recorded while it committed
/// forgets them all at once, which matters for a bulk save of tens of thousands.
struct PendingChanges {
  /// The changes in order, each with the count of changes recorded when it was (its stamp);
  /// nil where an object's change was dropped (an insert then deleted).
  private var list: [(change: PendingChange, stamp: Int)?] = []
  private var place: [ObjectKey: Int] = [:]
  /// The value last handed out for each object: what an update is measured from.
  var snapshots = ContextSnapshots()
  /// How many changes were ever recorded: a save compares it before and after its commit.
  private(set) var recorded = 0

  var isEmpty: Bool { place.isEmpty }

  subscript(key: ObjectKey) -> PendingChange? { place[key].flatMap { list[$0]?.change } }

  /// Every change, in order.
  var all: [PendingChange] { list.compactMap { $0?.change } }

  /// The changes to objects of one entity, in no order.
  func changes(of entity: String) -> [PendingChange] {
    place.compactMap { key, index in key.entity == entity ? list[index]?.change : nil }
  }

  func hasChanges(of entity: String) -> Bool { place.keys.contains { $0.entity == entity } }

  mutating func record(_ change: consuming PendingChange) {
    recorded += 1
    let key = ObjectKey(entity: change.entity, id: change.id)
    // One lookup: an object not seen before takes the next place as it is looked for.
    let next = list.count
    var isNew = false
    let index = Self.read(&place[key, default: { isNew = true; return next }()])
    if !isNew, let earlier = list[index]?.change {
      switch (earlier.kind, change.kind) {
      case (.insert, .update): change.kind = .insert  // still new to the store
      case (.insert, .delete):
        remove(key)
        return
      default: break
      }
    }
    if change.kind != .insert { change.snapshot = snapshots[key] }
    if isNew {
      list.append((change, recorded))
    } else {
      list[index] = (change, recorded)
    }
  }

  /// A value accessed in place: through `Dictionary`'s `subscript(_:default:)`, a lookup that
  /// inserts the default when the key is missing.
  private static func read(_ value: inout Int) -> Int { value }

  /// Remembers values a fetch handed out, except those of objects with an unsaved change: they
  /// keep the snapshot their change is measured from. Only the table of places is held while
  /// the snapshots change, so that none of their storage is shared and copied.
  mutating func rememberHandedOut<E: Entity>(_ objects: [E]) {
    let place = self.place
    let isPending: ((UUID) -> Bool)? =
      hasChanges(of: E.entityName) ? { place[ObjectKey(entity: E.entityName, id: $0)] != nil } : nil
    snapshots.remember(objects, unless: isPending)
  }

  mutating func remove(_ key: ObjectKey) {
    guard let index = place.removeValue(forKey: key) else { return }
    list[index] = nil
    if place.isEmpty { list = [] }
  }

  /// Removes the object's change if it was recorded by the time `recorded` counted, that is,
  /// if it is the one a save took: a change recorded while the save committed stays for the
  /// next save.
  mutating func remove(_ key: ObjectKey, recordedBy recorded: Int) {
    guard let index = place[key], let entry = list[index], entry.stamp <= recorded else { return }
    remove(key)
  }

  mutating func removeAll() {
    list = []
    place = [:]
  }
}
