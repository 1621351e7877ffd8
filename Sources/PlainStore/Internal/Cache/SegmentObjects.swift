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
  /// Which ids the segment holds, as the filter `local/segment-ids` keeps.
  var idFilter: SegmentIDFilter { get }
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
  /// Encodes each object that has no JSON yet, and keeps it: the next file of the segment
  /// copies it rather than encoding the object again.
  func encodeEach(_ encoder: StoreJSONEncoder) throws
  /// Another holder of the same objects, which changes to either do not reach: a compaction
  /// encodes and writes it without the coordinator's lock while commits change these.
  func copy() -> any SegmentObjects
}

/// A segment's objects of one entity type, by id.
///
/// The objects sit in an array in no order, and a table of a concrete type says where each id's
/// object is: this class runs unspecialized for `E` (the app's module makes it, through
/// `EntitySchema`), where every step of a `[UUID: E]` costs a generic call, and a bulk save
/// writes tens of thousands of objects one at a time.
final class TypedSegmentObjects<E: Entity>: SegmentObjects, @unchecked Sendable {
  // Only ever touched inside the coordinator's lock, or by the one thread that decoded it or
  // holds it as a compaction's copy (`copy()`).
  private(set) var objects: [E] = []
  /// Where each id's object is in `objects`.
  private var rowOf: [UUID: Int] = [:]
  /// The JSON of the objects put with it since the segment file was last written, by row:
  /// empty when there is none, else as long as `objects`.
  private var encodedByRow: [RawJSON?] = []
  let uniqueKeys: [@Sendable (E) -> UniqueKey]

  init(uniqueKeys: [@Sendable (E) -> UniqueKey]) {
    self.uniqueKeys = uniqueKeys
  }

  /// The objects of a decoded segment file, indexed by id on the thread that decoded them, so
  /// that a fetch reading many months indexes them on every core. Of two objects with one id
  /// (a file the store did not write), the later is kept.
  func fill(_ decoded: [E]) {
    guard objects.isEmpty else {
      for object in decoded { store(object) }
      return
    }
    rowOf.reserveCapacity(decoded.count)
    for (row, object) in decoded.enumerated() {
      if rowOf.updateValue(row, forKey: object.id) != nil {  // an id twice: one by one, the later kept
        rowOf = [:]
        for object in decoded { store(object) }
        return
      }
    }
    objects = decoded
  }

  /// Stores the object, without JSON; its row.
  @discardableResult
  private func store(_ object: E) -> Int {
    let id = object.id
    if let row = rowOf[id] {
      objects[row] = object
      if !encodedByRow.isEmpty { encodedByRow[row] = nil }
      return row
    }
    rowOf[id] = objects.count
    objects.append(object)
    if !encodedByRow.isEmpty { encodedByRow.append(nil) }
    return objects.count - 1
  }

  var count: Int { objects.count }

  subscript(id: UUID) -> (any Entity)? { rowOf[id].map { objects[$0] } }

  func put(_ object: any Entity, encoded: RawJSON?) {
    let row = store(object as! E)
    guard let encoded else { return }
    if encodedByRow.isEmpty { encodedByRow = Array(repeating: nil, count: objects.count) }
    encodedByRow[row] = encoded
  }

  func remove(_ id: UUID) {
    guard let row = rowOf.removeValue(forKey: id) else { return }
    let last = objects.removeLast()
    let lastJSON = encodedByRow.popLast() ?? nil
    if row < objects.count {  // the last object takes the removed one's place
      objects[row] = last
      rowOf[last.id] = row
      if !encodedByRow.isEmpty { encodedByRow[row] = lastJSON }
    }
  }

  func forgetEncoded() { encodedByRow = [] }

  func copy() -> any SegmentObjects {
    // Every stored property: the arrays are shared until one side changes them, and each side
    // is touched by one thread at a time (the table's inside the coordinator's lock).
    let copy = TypedSegmentObjects(uniqueKeys: uniqueKeys)
    copy.objects = objects
    copy.rowOf = rowOf
    copy.encodedByRow = encodedByRow
    return copy
  }

  func encodeEach(_ encoder: StoreJSONEncoder) throws {
    if encodedByRow.isEmpty { encodedByRow = Array(repeating: nil, count: objects.count) }
    let reusing = encoder.reusing()
    for row in objects.indices where encodedByRow[row] == nil {
      encodedByRow[row] = RawJSON(bytes: try reusing.encodeBytes(objects[row]))
    }
  }

  func forEachID(_ body: (UUID) -> Void) {
    for id in rowOf.keys { body(id) }
  }

  func forEachObject(_ body: (any Entity) throws -> Void) rethrows {
    for object in objects { try body(object) }
  }

  var idFilter: SegmentIDFilter { SegmentIDFilter(rowOf.keys, count: rowOf.count) }

  func uniqueKey(of id: UUID, constraint: Int) -> UniqueKey? {
    rowOf[id].map { uniqueKeys[constraint](objects[$0]) }
  }

  func addUniqueKeys(constraint: Int, to index: inout [UniqueKey: UUID]) {
    let keyOf = uniqueKeys[constraint]
    for object in objects { index[keyOf(object)] = object.id }
  }

  func referrers(to target: UUID, through reference: AnyReference, skip: (UUID) -> Bool) -> [any Entity] {
    let key = reference.key as! KeyPath<E, UUID?>
    var found: [any Entity] = []
    for object in objects where object[keyPath: key] == target && !skip(object.id) { found.append(object) }
    return found
  }

  func encodeFile(entity: String, segment: String, encoder: StoreJSONEncoder) throws -> Data {
    // Sorts the ids, not the objects, and in an array of a concrete type: this class is not
    // specialized for E, so its generic sorts and copies of E cost a call per step.
    var order: [(order: UUIDOrder, row: Int)] = []
    order.reserveCapacity(rowOf.count)
    for (id, row) in rowOf { order.append((uuidOrder(id), row)) }
    order.sort { $0.order < $1.order }
    let objects = InIDOrder(objects: order.map { self.objects[$0.row] }, encoded: order.map { encodedByRow.isEmpty ? nil : encodedByRow[$0.row] })
    return try encoder.encode(SegmentFile(entity: entity, segment: segment, objects: objects))
  }

  /// A segment's objects as a JSON array: each one's JSON from its commit, or encoded now.
  private struct InIDOrder: Encodable {
    let objects: [E]
    let encoded: [RawJSON?]

    func encode(to encoder: Encoder) throws {
      var container = encoder.unkeyedContainer()
      for row in objects.indices {  // by index: a zip of [E], unspecialized, costs a call per step
        if let json = encoded[row] { try container.encode(json) } else { try container.encode(objects[row]) }
      }
    }
  }
}
