import Foundation

/// A context's unsaved changes to one entity, laid over the committed objects when it fetches.
struct ContextOverlay<E: Entity> {
  /// id → the unsaved value, or nil for an unsaved delete.
  var changed: [UUID: E?] = [:]
}

extension StoreCoordinator {
  /// The objects a descriptor selects, sorted, with the context's unsaved changes laid over.
  ///
  /// Reads only the segments it must: the months of `dateRange` and of the bounds its predicate
  /// puts on the segment key; and when the first sort is the segment key and there is a limit,
  /// the months newest (or oldest) first until the limit is filled, so the newest object costs one
  /// month whatever the years of history.
  func fetch<E: Entity>(_ descriptor: FetchDescriptor<E>, overlay: ContextOverlay<E>, counting: Bool = false) throws -> [E] {
    var order = FetchOrder<E>(descriptor.sortBy, leadingDate: nil)
    let matches = try repairingCache { try state.withLock { state -> [E] in
      let table = try state.table(E.entityName)
      let segmentKey = table.schema.segmentKeyPath as? KeyPath<E, Date>
      var leadingReverse: Bool?
      if let first = descriptor.sortBy.first {
        if table.schema.sortDescriptorOnSegmentKey(false)?.matches(first) == true {
          leadingReverse = false
        } else if table.schema.sortDescriptorOnSegmentKey(true)?.matches(first) == true {
          leadingReverse = true
        }
      }
      if let segmentKey, let leadingReverse { order = FetchOrder(descriptor.sortBy, leadingDate: (segmentKey, leadingReverse)) }
      let accepts = Self.condition(descriptor, segmentKey: segmentKey)
      var segments = table.segments(in: Self.months(descriptor, table.schema))
      var needed: Int?
      if !counting, let limit = descriptor.fetchLimit, leadingReverse != nil, table.isSegmented {
        needed = limit + (descriptor.fetchOffset ?? 0)
      }
      let newestFirst = needed != nil && leadingReverse == true
      if newestFirst { segments.reverse() }
      if needed == nil { try preload(table, segments, &state) }
      let pending = try overlay.changed.values.compactMap { $0 }.filter(accepts)
      var found: [E] = []
      for segment in segments {
        try ensureLoaded(table, segment, &state)
        if let segmentObjects = table.slots[segment]?.objects {
          let objects = (segmentObjects as! TypedSegmentObjects<E>).objects  // the table of E's name holds E
          if overlay.changed.isEmpty {
            for object in objects where try accepts(object) { found.append(object) }
          } else {
            for object in objects where overlay.changed[object.id] == nil {
              if try accepts(object) { found.append(object) }
            }
          }
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
      found.append(contentsOf: pending)  // in place: `found + pending` would copy every match
      return found
    } }
    if counting { return matches }
    return order.arranged(consume matches, offset: descriptor.fetchOffset ?? 0, limit: descriptor.fetchLimit)
  }

  /// Whether an object is one the descriptor selects: in its `dateRange` and accepted by its
  /// predicate, compiled to a plain closure when its shape allows (see ``CompiledPredicate``).
  static func condition<E: Entity>(_ descriptor: FetchDescriptor<E>, segmentKey: KeyPath<E, Date>?) -> (E) throws -> Bool {
    let inRange: ((E) -> Bool)? = descriptor.dateRange.flatMap { range in
      segmentKey.map { key in { range.contains($0[keyPath: key]) } }
    }
    guard let predicate = descriptor.predicate else { return inRange ?? { _ in true } }
    if let compiled = CompiledPredicate(predicate) {
      guard let inRange else { return compiled.evaluate }
      return { inRange($0) && compiled.evaluate($0) }
    }
    guard let inRange else { return predicate.evaluate }
    return { try inRange($0) && predicate.evaluate($0) }
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

  /// Whether the cache knows the object as deleted or merged away (see ``RetiredObjects``).
  func isRetired(_ key: ObjectKey) -> Bool {
    state.withLock { $0.retired?.contains(key) ?? false }
  }

  /// The object the cache shows a merged-away object as (see ``RetiredObjects/survivor(of:)``).
  func survivor(of key: ObjectKey) -> UUID? {
    state.withLock { $0.retired?.survivor(of: key) }
  }

  func aliases(of entity: String, includingDeleted: Bool) -> [UUID: UUID] {
    state.withLock { $0.retired?.aliases(of: entity, includingDeleted: includingDeleted) ?? [:] }
  }

  /// The committed objects, other than `object` itself, that hold one of its unique keys (its
  /// identity aside): the ones a save of it would merge it into.
  func holders<E: Entity>(ofKeysOf object: E) throws -> [UUID] {
    try repairingCache {
      try state.withLock { state in
        let table = try state.table(E.entityName)
        return try table.schema.uniqueKeys.indices.compactMap { constraint in
          try holder(of: object, constraint: constraint, table, &state).flatMap { $0 == object.id ? nil : $0 }
        }
      }
    }
  }

  /// The committed object that holds `value`'s key of one unique constraint, from the cache's
  /// index of it (its segment's, or the entity's, loaded first); nil for the identity's
  /// constraint, which only the object itself holds. The one lookup of a key's holder: a save's
  /// question (``holders(ofKeysOf:)``) and an arrival's (`mergeOnlyArrived`).
  func holder(of value: any Entity, constraint: Int, _ table: EntityTable, _ state: inout StoreState) throws -> UUID? {
    guard table.schema.uniqueKeyNames[constraint] != [table.schema.type.identityKey] else { return nil }
    let segment = table.schema.uniqueIsSegmentWide[constraint] ? table.segment(of: value) : "*"
    if segment == "*" { try loadAll(table, &state) } else { try ensureLoaded(table, segment, &state) }
    return table.uniqueIndex(constraint: constraint, segment: segment)[table.schema.uniqueKeys[constraint](value)]
  }

  /// The committed object with this id, looking in every segment if it must.
  func object<E: Entity>(_ type: E.Type, id: UUID) throws -> E? {
    try repairingCache {
      try state.withLock { state in
        let table = try state.table(E.entityName)
        return try committedObject(table, id, segment: nil, thorough: true, &state) as? E
      }
    }
  }
}
