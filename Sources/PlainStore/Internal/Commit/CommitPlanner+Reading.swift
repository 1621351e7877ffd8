import Foundation

extension CommitPlanner {
  // MARK: Reading the state as this transaction leaves it

  /// The table of an entity, the last one kept at hand: a save's objects come entity by entity.
  mutating func entityTable(_ name: String) throws -> EntityTable {
    if let lastTable, lastTable.schema.name == name { return lastTable }
    let table = try state.table(name)
    lastTable = table
    return table
  }

  /// The object as this transaction leaves it; `segment` names where to look first.
  mutating func current(_ key: ObjectKey, segment: String?, thorough: Bool) throws -> (any Entity)? {
    if let place = places[key] { return written[place].value }
    let table = try entityTable(key.entity)
    return try reader.committedObject(table, key.id, segment, thorough, &state)
  }

  mutating func current(_ key: ObjectKey, hint: (any Entity)?, thorough: Bool) throws -> (any Entity)? {
    if let place = places[key] { return written[place].value }
    let table = try entityTable(key.entity)
    return try reader.committedObject(table, key.id, hint.map(table.segment(of:)), thorough, &state)
  }

  /// Writes `value` (nil: deletes) for `key` in this transaction and keeps the uniqueness
  /// indexes in step. `known` is the object's current value when the caller already read it;
  /// `computed`, `value`'s segment and unique keys when the caller computed them, after building
  /// that segment's scopes; `givenJSON`, `value`'s JSON when it is the context's own.
  mutating func set(
    _ key: ObjectKey, to value: (any Entity)?, hint: (any Entity)?, known: (any Entity)?? = nil,
    computed: (segment: String, keys: [UniqueKey])? = nil, givenJSON: RawJSON? = nil
  ) throws {
    let table = try entityTable(key.entity)
    let place: Int
    if let pending = places[key] {
      place = pending
    } else {
      // First write of this object in the transaction: its committed value is the original.
      let committed = try known ?? reader.committedObject(table, key.id, (hint ?? value).map(table.segment(of:)), false, &state)
      let segment = committed.map(table.segment(of:))
      place = written.count
      written.append(Written(key: key, original: committed, originalSegment: segment, value: committed, segment: segment))
      places[key] = place
      // A segment whose scopes are built now has its index changed below; only a segment
      // indexed later needs to know which of its objects this transaction changed.
      if let segment, segment != computed?.segment {
        originalsBySegment[SegmentRef(entity: key.entity, segment: segment), default: []].append(place)
      }
    }
    let newSegment = computed?.segment ?? value.map(table.segment(of:))
    let old = written[place].value
    let oldSegment = written[place].segment
    written[place].value = value
    written[place].segment = newSegment
    written[place].uniqueKeys = computed?.keys
    written[place].givenJSON = givenJSON  // written again, by a delete rule say: no longer what was given
    written[place].mergedInto = nil
    if let newSegment, computed == nil {
      writtenBySegment[SegmentRef(entity: key.entity, segment: newSegment), default: []].append(place)
    }
    guard indexedEntities.contains(key.entity) else { return }
    for (constraint, keyOf) in table.schema.uniqueKeys.enumerated() {
      let wide = table.schema.uniqueIsSegmentWide[constraint]
      if let old, let segment = oldSegment {
        let scope = IndexScope(entity: key.entity, constraint: constraint, segment: wide ? segment : "*")
        if indexChanges[scope] != nil { unindex(keyOf(old), of: key.id, in: scope, table) }
      }
      if let value, let segment = newSegment {
        let scope = IndexScope(entity: key.entity, constraint: constraint, segment: wide ? segment : "*")
        indexChanges[scope]?[computed?.keys[constraint] ?? keyOf(value)] = .some(key.id)
      }
    }
  }

  /// The object that holds `key` in `scope` as this transaction leaves it.
  func indexed(_ key: UniqueKey, in scope: IndexScope, _ table: EntityTable) -> UUID? {
    if let changed = indexChanges[scope]?[key] { return changed }
    return table.uniqueIndexes[EntityTable.IndexKey(constraint: scope.constraint, segment: scope.segment)]?[key]
  }

  mutating func unindex(_ key: UniqueKey, of id: UUID, in scope: IndexScope, _ table: EntityTable) {
    if indexed(key, in: scope, table) == id { indexChanges[scope]?[key] = .some(nil) }
  }
}
