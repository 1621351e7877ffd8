import Foundation

extension StoreCoordinator {
  /// The committed object with this id and its segment, found by its id alone: in the segment
  /// the tables already place it in, else in the loaded segments, else in the files whose id
  /// filter (``SegmentIDFilter``) says they may hold it — read one by one, `hint` first. A
  /// segment file without a filter (a manifest older than the filters) may hold any id.
  func locate(_ table: EntityTable, _ id: UUID, hint: String?, _ state: inout StoreState) throws -> (segment: String, object: any Entity)? {
    if let segment = table.segmentOf[id] {
      try ensureLoaded(table, segment, &state)
      if let object = table.slots[segment]?.objects?[id] { return (segment, object) }
    }
    var unloaded: [String] = []
    for (segment, slot) in table.slots {
      if let objects = slot.objects {
        if let object = objects[id] { return (segment, object) }
      } else if let file = slot.file {
        let filter = backing.segmentIDFilter(of: file, &state, self)
        if filter?.mayContain(id) ?? true { unloaded.append(segment) }
      }
    }
    unloaded.sort { ($0 == hint ? 0 : 1, $0) < ($1 == hint ? 0 : 1, $1) }
    for segment in unloaded {
      try ensureLoaded(table, segment, &state)
      if let object = table.slots[segment]?.objects?[id] { return (segment, object) }
    }
    return nil
  }
}
