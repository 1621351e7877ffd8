import Foundation

/// The committed objects of one entity, segment by segment, loaded when first needed.
///
/// Lives inside the coordinator's lock. A segment is either loaded (its objects in memory) or
/// known only by its file; the changes committed since that file was written wait in `pending`
/// and are replayed when it loads. Replaying is idempotent (every change is a whole put or a
/// remove), which is what lets another process's compaction swap the file underneath.
final class EntityTable: @unchecked Sendable {  // only ever touched inside the coordinator's Mutex
  let schema: EntitySchema
  var slots: [String: Slot] = [:]
  /// Where each object seen so far lives: every object of a loaded segment, and every object a
  /// replayed change touched.
  var segmentOf: [UUID: String] = [:]

  struct Slot {
    var file: String?
    var objects: [UUID: any Entity]?
    var pending: [PendingOperation] = []

    var isLoaded: Bool { objects != nil }
  }

  struct PendingOperation {
    var sequence: Int
    var operation: Operation
  }

  enum Operation {
    case put(any Entity)
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
  /// otherwise, and remembered for the next compaction either way.
  func apply(_ operation: Operation, to segment: String, sequence: Int) {
    // Mutate the slot in place: copying it out would copy its objects on every change.
    if slots[segment] == nil { slots[segment] = Slot(file: nil, objects: [:]) }
    switch operation {
    case .put(let object):
      slots[segment]!.objects?[object.id] = object
      segmentOf[object.id] = segment
    case .remove(let id):
      slots[segment]!.objects?[id] = nil
      if segmentOf[id] == segment { segmentOf[id] = nil }
    }
    slots[segment]!.pending.append(PendingOperation(sequence: sequence, operation: operation))
  }

  /// Fills a segment from its file's objects plus the changes committed since.
  func load(_ segment: String, objects fileObjects: [any Entity]) {
    guard var slot = slots[segment], !slot.isLoaded else { return }
    var objects = [UUID: any Entity](minimumCapacity: fileObjects.count)
    for object in fileObjects { objects[object.id] = object }
    for pending in slot.pending {
      switch pending.operation {
      case .put(let object): objects[object.id] = object
      case .remove(let id): objects[id] = nil
      }
    }
    for id in objects.keys where segmentOf[id] == nil { segmentOf[id] = segment }
    slot.objects = objects
    slots[segment] = slot
  }

  /// Takes the segment files of a newer manifest, dropping the pending changes they include.
  func adopt(_ entries: [String: SegmentEntry], through sequence: Int) {
    for (segment, entry) in entries where slots[segment]?.file != entry.file {
      var slot = slots[segment] ?? Slot(file: nil, objects: nil)
      slot.file = entry.file
      slot.pending.removeAll { $0.sequence <= sequence }
      slots[segment] = slot
    }
    for (segment, slot) in slots where slot.file != nil && entries[segment] == nil {
      // Compaction found the segment empty and dropped its file.
      var slot = slot
      slot.file = nil
      slot.pending.removeAll { $0.sequence <= sequence }
      if !slot.isLoaded {
        slot.objects = [:]
        for pending in slot.pending {
          switch pending.operation {
          case .put(let object): slot.objects?[object.id] = object
          case .remove(let id): slot.objects?[id] = nil
          }
        }
      }
      slots[segment] = slot
    }
  }

  /// The segments a fetch must read, in month order; all of them without a range.
  func segments(in range: Range<Date>?) -> [String] {
    let names = slots.keys.sorted()
    guard isSegmented, let range else { return names }
    guard let months = SegmentKey.monthIndexes(covering: range) else { return [] }
    return names.filter { name in SegmentKey.monthIndex(of: name).map(months.contains) ?? false }
  }
}
