import Foundation

/// A context's unsaved changes to one entity, laid over the committed objects when it fetches.
struct ContextOverlay<E: Entity> {
  /// id → the unsaved value, or nil for an unsaved delete.
  var changed: [UUID: E?] = [:]
}

extension StoreCoordinator {
  /// The objects a descriptor selects, sorted, with the context's unsaved changes laid over.
  ///
  /// Reads only the segments it must: the months of `dateRange`; and when the first sort is
  /// the segment key and there is a limit, the months newest (or oldest) first until the limit
  /// is filled, so the last feed costs one month whatever the years of history.
  func fetch<E: Entity>(_ descriptor: FetchDescriptor<E>, overlay: ContextOverlay<E>, counting: Bool = false) throws -> [E] {
    var sortKey: SegmentSortKey?
    let matches = try state.withLock { state -> [E] in
      let table = try table(E.entityName, state)
      if let date = table.schema.segmentDate, let first = descriptor.sortBy.first {
        if table.schema.sortDescriptorOnSegmentKey(false)?.matches(first) == true {
          sortKey = SegmentSortKey(date: date, reverse: false)
        } else if table.schema.sortDescriptorOnSegmentKey(true)?.matches(first) == true {
          sortKey = SegmentSortKey(date: date, reverse: true)
        }
      }
      let inRange: (E) -> Bool = { object in
        guard let range = descriptor.dateRange, let date = table.schema.segmentDate else { return true }
        return range.contains(date(object))
      }
      let accepts: (E) throws -> Bool = { object in
        try inRange(object) && (descriptor.predicate.map { try $0.evaluate(object) } ?? true)
      }
      var segments = table.segments(in: Self.months(descriptor, table.schema))
      var needed: Int?
      var newestFirst = false
      if !counting, let limit = descriptor.fetchLimit, let first = descriptor.sortBy.first, table.isSegmented {
        if table.schema.sortDescriptorOnSegmentKey(true)?.matches(first) == true {
          needed = limit + (descriptor.fetchOffset ?? 0)
          newestFirst = true
        } else if table.schema.sortDescriptorOnSegmentKey(false)?.matches(first) == true {
          needed = limit + (descriptor.fetchOffset ?? 0)
        }
      }
      if newestFirst { segments.reverse() }
      if needed == nil { try preload(table, segments, &state) }
      let pending = try overlay.changed.values.compactMap { $0 }.filter(accepts)
      var found: [E] = []
      for segment in segments {
        try ensureLoaded(table, segment, &state)
        for (id, object) in table.slots[segment]?.objects ?? [:] where overlay.changed[id] == nil {
          let object = object as! E
          if try accepts(object) { found.append(object) }
        }
        if let needed {
          // Unread months hold only objects that sort after every one read so far.
          let pendingHere = pending.filter {
            let month = table.segment(of: $0)
            return newestFirst ? month >= segment : month <= segment
          }
          if found.count + pendingHere.count >= needed { break }
        }
      }
      return found + pending
    }
    if counting { return matches }
    let sorted = Self.sort(matches, by: descriptor.sortBy, segmentKey: sortKey)
    let offset = min(descriptor.fetchOffset ?? 0, sorted.count)
    let end = descriptor.fetchLimit.map { min(sorted.count, offset + $0) } ?? sorted.count
    return Array(sorted[offset..<end])
  }

  /// The months a descriptor can match: those of its `dateRange` and of the bounds its
  /// predicate puts on the segment key.
  static func months<E: Entity>(_ descriptor: FetchDescriptor<E>, _ schema: EntitySchema) -> SegmentMonths {
    guard let segmentKey = schema.segmentKeyPath else { return .unbounded }
    var months = descriptor.dateRange.map(SegmentMonths.init(covering:)) ?? .unbounded
    if let predicate = descriptor.predicate {
      months = months.intersection(SegmentMonths.of(predicate) { $0 == segmentKey })
    }
    return months
  }

  /// The first sort descriptor when it is the segment key: compared as plain numbers, which
  /// is many times faster than a key-path comparator over thousands of objects.
  struct SegmentSortKey {
    var date: @Sendable (any Entity) -> Date
    var reverse: Bool
  }

  static func sort<E: Entity>(_ objects: [E], by sortBy: [SortDescriptor<E>], segmentKey: SegmentSortKey?) -> [E] {
    func precedes(_ lhs: E, _ rhs: E, from first: Int) -> Bool {
      for comparator in sortBy.dropFirst(first) {
        switch comparator.compare(lhs, rhs) {
        case .orderedAscending: return true
        case .orderedDescending: return false
        case .orderedSame: continue
        }
      }
      return uuidPrecedes(lhs.id, rhs.id)
    }
    if sortBy.isEmpty {
      // By id alone: compare precomputed integers, not UUID bytes through the comparator.
      return objects.map { (key: uuidOrder($0.id), value: $0) }.sorted { $0.key < $1.key }.map(\.value)
    }
    guard let segmentKey else { return objects.sorted { precedes($0, $1, from: 0) } }
    var decorated = objects.map { (key: segmentKey.date($0).timeIntervalSinceReferenceDate, value: $0) }
    decorated.sort { lhs, rhs in
      if lhs.key != rhs.key { return segmentKey.reverse ? lhs.key > rhs.key : lhs.key < rhs.key }
      return precedes(lhs.value, rhs.value, from: 1)
    }
    return decorated.map(\.value)
  }

  /// The committed object with this id, looking in every segment if it must.
  func object<E: Entity>(_ type: E.Type, id: UUID) throws -> E? {
    try state.withLock { state in
      let table = try table(E.entityName, state)
      return try committedObject(table, id, hint: nil, thorough: true, &state) as? E
    }
  }
}
