import Foundation

/// One segment's committed objects, as the engine sees them whatever their entity.
///
/// The objects are held as their entity's own type (``TypedSegmentObjects``): a fetch, a
/// uniqueness index, a reference scan and a compaction read them without a cast or an
/// existential box per object, and each object costs its own size in memory instead of a box
/// beside the table. Only the engine's per-object steps, which see one object at a time through
/// `any Entity`, box the object they read.
protocol SegmentObjects: AnyObject, Sendable {
  var count: Int { get }
  /// The object with this id, boxed.
  subscript(id: UUID) -> (any Entity)? { get }
  /// Stores `object`, which must be of this table's entity type, with its JSON when the commit
  /// has it: the segment file writes that JSON as it is (see `encodeFile`).
  func put(_ object: any Entity, encoded: RawJSON?)
  func remove(_ id: UUID)
  func forEachID(_ body: (UUID) -> Void)
  /// Every object, boxed: for the rare steps that need them all as `any Entity` (a merge, a
  /// migration).
  func forEachObject(_ body: (any Entity) throws -> Void) rethrows
  /// The object's key for one uniqueness constraint, if it is here.
  func uniqueKey(of id: UUID, constraint: Int) -> UniqueKey?
  /// Adds every object's key for one uniqueness constraint to `index`.
  func addUniqueKeys(constraint: Int, to index: inout [UniqueKey: UUID])
  /// The objects whose `reference` points at `target`, boxed, leaving out those `skip` names.
  func referrers(to target: UUID, through reference: AnyReference, skip: (UUID) -> Bool) -> [any Entity]
  /// The segment file's bytes: the objects in id order, each as the JSON its commit encoded
  /// when there is one (the same bytes encoding it again would give).
  func encodeFile(entity: String, segment: String, encoder: StoreJSONEncoder) throws -> Data
  /// Lets go of the objects' JSON, once a segment file holds it.
  func forgetEncoded()
}

/// A segment's objects of one entity type, by id.
final class TypedSegmentObjects<E: Entity>: SegmentObjects, @unchecked Sendable {
  // Only ever touched inside the coordinator's Mutex, or by the one thread that decoded it.
  var byID: [UUID: E]
  /// The JSON of the objects put with it since the segment file was last written.
  private var encodedByID: [UUID: RawJSON] = [:]
  let uniqueKeys: [@Sendable (E) -> UniqueKey]

  init(_ byID: [UUID: E] = [:], uniqueKeys: [@Sendable (E) -> UniqueKey]) {
    self.byID = byID
    self.uniqueKeys = uniqueKeys
  }

  /// The objects of a decoded segment file, hashed by id on the thread that decoded them, so
  /// that a fetch reading many months hashes them on every core.
  func fill(_ objects: [E]) {
    byID.reserveCapacity(objects.count)
    for object in objects { byID[object.id] = object }
  }

  var count: Int { byID.count }

  subscript(id: UUID) -> (any Entity)? { byID[id] }

  func put(_ object: any Entity, encoded: RawJSON?) {
    let object = object as! E
    byID[object.id] = object
    if let encoded {
      encodedByID[object.id] = encoded
    } else if !encodedByID.isEmpty {
      encodedByID[object.id] = nil
    }
  }

  func remove(_ id: UUID) {
    byID[id] = nil
    if !encodedByID.isEmpty { encodedByID[id] = nil }
  }

  func forgetEncoded() { encodedByID = [:] }

  func forEachID(_ body: (UUID) -> Void) {
    for id in byID.keys { body(id) }
  }

  func forEachObject(_ body: (any Entity) throws -> Void) rethrows {
    for object in byID.values { try body(object) }
  }

  func uniqueKey(of id: UUID, constraint: Int) -> UniqueKey? {
    byID[id].map(uniqueKeys[constraint])
  }

  func addUniqueKeys(constraint: Int, to index: inout [UniqueKey: UUID]) {
    let keyOf = uniqueKeys[constraint]
    for (id, object) in byID { index[keyOf(object)] = id }
  }

  func referrers(to target: UUID, through reference: AnyReference, skip: (UUID) -> Bool) -> [any Entity] {
    let key = reference.key as! KeyPath<E, UUID?>
    var found: [any Entity] = []
    for (id, object) in byID where object[keyPath: key] == target && !skip(id) { found.append(object) }
    return found
  }

  func encodeFile(entity: String, segment: String, encoder: StoreJSONEncoder) throws -> Data {
    // Sorts the ids, not the objects, and in an array of a concrete type: this class is not
    // specialized for E, so its generic sorts and copies of E cost a call per step.
    var order: [(order: UUIDOrder, id: UUID)] = []
    order.reserveCapacity(byID.count)
    for id in byID.keys { order.append((uuidOrder(id), id)) }
    order.sort { $0.order < $1.order }
    let objects = InIDOrder(objects: order.map { byID[$0.id]! }, encoded: order.map { encodedByID[$0.id] })
    return try encoder.encode(SegmentFile(entity: entity, segment: segment, objects: objects))
  }

  /// A segment's objects as a JSON array: each one's JSON from its commit, or encoded now.
  private struct InIDOrder: Encodable {
    let objects: [E]
    let encoded: [RawJSON?]

    func encode(to encoder: Encoder) throws {
      var container = encoder.unkeyedContainer()
      for (object, json) in zip(objects, encoded) {
        if let json { try container.encode(json) } else { try container.encode(object) }
      }
    }
  }
}
