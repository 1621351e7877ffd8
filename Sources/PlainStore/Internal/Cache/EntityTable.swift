import Foundation

/// The committed objects of one entity, segment by segment, loaded when first needed.
///
/// Lives inside the coordinator's lock. A segment is either loaded (its objects in memory) or
/// known only by its file; the changes committed since that file was written wait in `pending`
/// and are replayed when it loads. Replaying is idempotent (every change is a whole put or a
/// remove), which is what lets another process's compaction swap the file underneath.
final class EntityTable: @unchecked Sendable {  // only ever touched inside the coordinator's lock
  let schema: EntitySchema
  var slots: [String: Slot] = [:]
  /// Where each object seen so far lives: every object of a loaded segment, and every object a
  /// replayed change touched.
  var segmentOf: [UUID: String] = [:]
  /// Uniqueness indexes of committed objects, per constraint and segment ("*" for a constraint
  /// without the segment key), built when a save first needs one and kept in step with every
  /// change after, so a commit costs its changes and not its month.
  private(set) var uniqueIndexes: [IndexKey: [UniqueKey: UUID]] = [:]

  struct IndexKey: Hashable {
    var constraint: Int
    var segment: String
  }

  struct Slot {
    var file: String?
    var objects: (any SegmentObjects)?
    var pending: [PendingOperation] = []

    var isLoaded: Bool { objects != nil }
  }

  struct PendingOperation {
    var sequence: Int
    var operation: Operation
  }

  enum Operation {
    /// The object, with its JSON when the commit has it (see `LogChange.encoded`).
    case put(any Entity, RawJSON?)
    case remove(UUID)
  }

  init(schema: EntitySchema) {
    self.schema = schema
  }

  var isSegmented: Bool { schema.segmentDate != nil }

  func segment(of object: any Entity) -> String {
    schema.segmentDate.map { SegmentKey.month(of: $0(object)) } ?? SegmentKey.all
  }

  var isFullyLoaded: Bool { slots.values.allSatisfy(\.isLoaded) }

  /// Records a committed change: applied now where the segment is loaded, replayed on load
  /// otherwise, and remembered for the next compaction either way. `uniqueKeys`: a put's
  /// value's keys, when the caller has them.
  func apply(_ operation: Operation, to segment: String, sequence: Int, uniqueKeys: [UniqueKey]? = nil) {
    // The month's slot is changed in place, found with one lookup: copying it out would copy
    // its pending changes on every change.
    let makeObjects = schema.makeObjects
    apply(operation, to: segment, sequence: sequence, uniqueKeys: uniqueKeys, slot: &slots[segment, default: Slot(file: nil, objects: makeObjects())])
  }

  private func apply(_ operation: Operation, to segment: String, sequence: Int, uniqueKeys: [UniqueKey]?, slot: inout Slot) {
    let objects = slot.objects
    switch operation {
    case .put(let object, let encoded):
      reindex(objects, adding: object, keys: uniqueKeys, id: object.id, in: segment)
      objects?.put(object, encoded: encoded)
      segmentOf[object.id] = segment
    case .remove(let id):
      reindex(objects, adding: nil, keys: nil, id: id, in: segment)
      objects?.remove(id)
      if segmentOf[id] == segment { segmentOf[id] = nil }
    }
    slot.pending.append(PendingOperation(sequence: sequence, operation: operation))
  }

  /// The index of one constraint over one segment (or "*": all of them), built from the
  /// committed objects if it is not there. The segments must be loaded.
  func uniqueIndex(constraint: Int, segment: String) -> [UniqueKey: UUID] {
    let key = IndexKey(constraint: constraint, segment: segment)
    if let index = uniqueIndexes[key] { return index }
    var index: [UniqueKey: UUID] = [:]
    for name in segment == "*" ? Array(slots.keys) : [segment] {
      slots[name]?.objects?.addUniqueKeys(constraint: constraint, to: &index)
    }
    uniqueIndexes[key] = index
    return index
  }

  /// Keeps the built indexes in step with one change to `segment`, whose objects (nil: not
  /// loaded) still hold the object's old value. `keys`: `new`'s unique keys, when known.
  private func reindex(
    _ objects: (any SegmentObjects)?, adding new: (any Entity)?, keys: [UniqueKey]?, id: UUID, in segment: String
  ) {
    guard !uniqueIndexes.isEmpty else { return }
    guard let objects else {
      // The segment's objects are not in memory, so the old value is unknown: drop what it
      // could make stale; they are rebuilt when needed.
      forgetIndexes(covering: segment)
      return
    }
    for (constraint, keyOf) in schema.uniqueKeys.enumerated() {
      let inSegment = IndexKey(constraint: constraint, segment: segment)
      let everywhere = IndexKey(constraint: constraint, segment: "*")
      let hasSegment = uniqueIndexes[inSegment] != nil
      let hasEverywhere = uniqueIndexes[everywhere] != nil
      guard hasSegment || hasEverywhere else { continue }
      let oldKey = objects.uniqueKey(of: id, constraint: constraint)
      let newKey = new.map { keys?[constraint] ?? keyOf($0) }
      func update(_ scope: IndexKey) {
        if let oldKey, uniqueIndexes[scope]?[oldKey] == id { uniqueIndexes[scope]?[oldKey] = nil }
        if let newKey { uniqueIndexes[scope]?[newKey] = id }
      }
      if hasSegment { update(inSegment) }
      if hasEverywhere { update(everywhere) }
    }
  }

  /// Drops the indexes a change to `segment`'s objects, unseen by them, may have made stale:
  /// its own, and those of the whole entity. They are rebuilt when needed.
  private func forgetIndexes(covering segment: String) {
    uniqueIndexes = uniqueIndexes.filter { $0.key.segment != "*" && $0.key.segment != segment }
  }

  /// Fills a segment from its file's objects plus the changes committed since.
  func load(_ segment: String, objects: any SegmentObjects) {
    guard var slot = slots[segment], !slot.isLoaded else { return }
    forgetIndexes(covering: segment)
    Self.replay(slot.pending, into: objects)
    // An object already placed elsewhere keeps its place; one hash lookup per object.
    objects.forEachID { id in Self.keep(&segmentOf[id, default: segment]) }
    slot.objects = objects
    slots[segment] = slot
  }

  /// Takes a compaction's copy of a segment's objects in place of `live`, the objects it was
  /// copied from, once the segment's new file is adopted: the changes committed since the copy
  /// (those still pending) are replayed into it in the order `live` took them, so it holds the
  /// same objects in the same rows, with the JSON the compaction encoded, which the next one
  /// copies rather than encodes. The indexes stand: the objects are the same.
  func take(_ copy: any SegmentObjects, for segment: String, copiedFrom live: any SegmentObjects) {
    guard var slot = slots[segment], slot.objects === live else { return }
    Self.replay(slot.pending, into: copy)
    slot.objects = copy
    slots[segment] = slot
  }

  private static func replay(_ pending: [PendingOperation], into objects: any SegmentObjects) {
    for pending in pending {
      switch pending.operation {
      case .put(let object, let encoded): objects.put(object, encoded: encoded)
      case .remove(let id): objects.remove(id)
      }
    }
  }

  private static func keep(_ segment: inout String) {}

  /// Takes the segment files of a newer manifest, dropping the pending changes they include.
  /// Only the files change under the loaded segments, whose objects stay as they are (commits
  /// the new files hold that this process has not read come from the log next, through
  /// `apply`), so their uniqueness indexes stand: dropping them all at another process's
  /// compaction, every 64 commits of any writer, cost every other writer its month's index.
  /// A segment that comes in unloaded is loaded before an index covers it (`load` drops them).
  func adopt(_ entries: [String: SegmentEntry], through sequence: Int) {
    for (segment, entry) in entries where slots[segment]?.file != entry.file {
      var slot = slots[segment] ?? Slot(file: nil, objects: nil)
      slot.file = entry.file
      slot.pending.removeAll { $0.sequence <= sequence }
      slots[segment] = slot
    }
    for (segment, slot) in slots where entries[segment] == nil && (slot.file != nil || slot.pending.contains { $0.sequence <= sequence }) {
      // Compaction found the segment empty and dropped its file (or wrote none).
      var slot = slot
      slot.file = nil
      slot.pending.removeAll { $0.sequence <= sequence }
      if !slot.isLoaded {
        let objects = schema.makeObjects()
        Self.replay(slot.pending, into: objects)
        slot.objects = objects
        forgetIndexes(covering: segment)
      }
      slots[segment] = slot
    }
  }

  /// The segments a fetch must read, in month order; all of them for an entity kept in one.
  func segments(in months: SegmentMonths) -> [String] {
    let names = slots.keys.sorted()
    guard isSegmented, months != .unbounded else { return names }
    return names.filter { name in SegmentKey.monthIndex(of: name).map(months.contains) ?? false }
  }
}
