import Foundation

/// Turns a context's unsaved changes into one transaction against the latest committed state:
/// merges by property, resolves uniqueness conflicts by merging into the stored object, applies
/// delete rules and checks references. Runs under the store's lock (and, for a file store, the
/// store's flock), so what it reads is what the transaction will follow. It reads the committed
/// objects through `reader` and does no I/O of its own.
struct CommitPlanner {
  let schema: Schema
  let reader: CommittedReader
  var state: StoreState
  let merge: PropertyMerge

  /// The objects this transaction wrote, each with its committed value before it, in the
  /// order first written; `places` finds one by key. Kept in an array rather than a dictionary
  /// of entries so that a write changes its entry in place and a walk over them copies none: a
  /// bulk save writes tens of thousands.
  var written: [Written] = []
  var places: [ObjectKey: Int] = [:]
  /// This transaction's changes to the committed uniqueness indexes (kept by the tables), per
  /// entity, constraint and segment (or "*"): a key mapped to nil was removed. A scope is here
  /// once built, and from then on every write keeps it up to date.
  var indexChanges: [IndexScope: [UniqueKey: UUID?]] = [:]
  /// The objects this transaction changed (their places in `written`), by the segment their
  /// committed value is in, where that segment's scopes were not built when they were written
  /// (see `uniqueScope`).
  var originalsBySegment: [SegmentRef: [Int]] = [:]
  /// The objects this transaction wrote (their places), by the segment they were written into,
  /// where that segment's scopes were not built when they were written (an object that moved on
  /// is listed in both; readers check).
  var writtenBySegment: [SegmentRef: [Int]] = [:]
  /// The entities with a built scope: only their writes maintain indexes. A schema's few names,
  /// compared rather than hashed.
  var indexedEntities: [String] = []
  var denyChecks: [ObjectKey] = []
  /// Objects of the context that merged into another stored object on a uniqueness constraint.
  var merged: [ObjectKey: ObjectKey] = [:]
  var lastTable: EntityTable?

  /// One object as this transaction leaves it, and as it was committed before.
  struct Written {
    let key: ObjectKey
    /// The committed value before this transaction (nil: not stored), and its segment.
    var original: (any Entity)?
    var originalSegment: String?
    /// The value this transaction leaves (nil: deleted), and its segment.
    var value: (any Entity)?
    var segment: String?
    /// The value's unique keys, when `put` computed them.
    var uniqueKeys: [UniqueKey]?
    /// The JSON the check before the commit made of the value, when the transaction writes it
    /// exactly as the context gave it: it is not encoded again.
    var givenJSON: RawJSON?
    /// For an object gone because it met another on a unique key: that object, its survivor.
    var mergedInto: UUID?
    /// Whether the context gave this write (an insert, an edit, a delete), which the change
    /// file carries as given; the rest (a delete rule's, a holder's that another met) every
    /// device's fold derives from those.
    var given = false
    /// For a given change whose object merged away, or that was addressed to an alias: the
    /// groups it set (nil: an insert, which sets what it carries).
    var givenGroups: [String]?
  }

  struct SegmentRef: Hashable {
    var entity: String
    var segment: String
  }

  struct IndexScope: Hashable {
    var entity: String
    var constraint: Int
    var segment: String
  }

  init(schema: Schema, mergeSchema: MergeSchema, reader: CommittedReader, state: StoreState) {
    self.schema = schema
    self.reader = reader
    self.state = state
    merge = PropertyMerge(schema: mergeSchema)
  }

  /// The committed value an object had before this transaction.
  func originalValue(_ key: ObjectKey) -> (any Entity)? { places[key].flatMap { written[$0].original } }

  /// The log entry for the changes, or nil when they change nothing.
  mutating func plan(_ changes: [PendingChange], author: String, timestamp: Date) throws -> LogEntry? {
    written.reserveCapacity(changes.count)
    places.reserveCapacity(changes.count)
    // By index: binding each change to a name would copy it first.
    for index in changes.indices where changes[index].kind != .delete {
      try put(changes[index])
    }
    for index in changes.indices where changes[index].kind == .delete {
      try delete(ObjectKey(entity: changes[index].entity, id: changes[index].id), hint: changes[index].snapshot, given: true)
    }
    try checkDenyRules()
    try checkReferences()
    return try logEntry(author: author, timestamp: timestamp)
  }

  /// Loads what planning `changes` reads — where each object is stored and goes, the
  /// uniqueness indexes of where it goes — and plans nothing (see
  /// `StoreCoordinator.prepareCommit`).
  mutating func load(for changes: [PendingChange]) throws {
    for index in changes.indices {
      guard let value = changes[index].value else { continue }
      let table = try entityTable(changes[index].entity)
      let segment = table.segment(of: value)
      let key = ObjectKey(entity: changes[index].entity, id: changes[index].id)
      _ = try current(key, segment: changes[index].snapshot.map(table.segment(of:)) ?? segment, thorough: changes[index].kind == .update)
      for constraint in table.schema.uniqueKeys.indices { _ = try uniqueScope(table, constraint: constraint, segment: segment) }
    }
  }

  // MARK: Inserts and updates

  mutating func put(_ change: PendingChange) throws {
    guard let value = change.value else { return }
    let key = ObjectKey(entity: change.entity, id: change.id)
    let table = try entityTable(change.entity)
    let valueSegment = table.segment(of: value)
    let stored = try current(
      key, segment: change.snapshot.map(table.segment(of:)) ?? valueSegment, thorough: change.kind == .update)
    if stored == nil, let survivor = state.retired?.survivor(of: key),
      let target = try current(ObjectKey(entity: key.entity, id: survivor), hint: nil, thorough: true)
    {
      try putToSurvivor(change, value, of: key, target)
      return
    }
    if stored == nil, change.kind == .insert, state.retired?.contains(key) == true {
      // The fold keeps a delete (and a merge) for good: the id's new writes would never show,
      // here or in an object whose key it meets.
      throw StoreError(
        .notFound, path: "\(key.entity) \(key.id.uuidString)",
        "was deleted or merged into another object, and every device keeps that for good, so its id cannot be inserted again — nothing was saved; insert it under a new id.")
    }
    var merged: any Entity
    var isGiven = false
    switch (change.kind, stored) {
    case (.update, nil):
      // A deleted or merged-away id is let go for good (an insert under it is refused): no
      // advice to insert it.
      let letGo = state.retired?.contains(key) == true
      throw StoreError(
        .notFound, path: "\(key.entity) \(key.id.uuidString)",
        change.snapshot != nil
          ? "was deleted by another context or process, or merged into another object on a unique key, after it was read, so the edit cannot be saved — nothing was saved; read it again (a merged object's values are in the one it merged into)."
          : letGo
            ? "was deleted, or merged into another object on a unique key, so it cannot be updated — nothing was saved."
            : "is not stored, so it cannot be updated — nothing was saved; insert it instead.")
    case (_, nil):
      merged = value
      isGiven = true
    case (.insert, let stored?):
      // The inserted object sets what it carries: its nils leave the stored values alone.
      merged = try self.merge.apply(try self.merge.setProperties(of: value, encoded: change.encoded), to: stored)
    case (_, let stored?):
      if let snapshot = change.snapshot, !entitiesEqual(snapshot, stored) {
        merged = try self.merge.apply(try self.merge.changes(of: value, encoded: change.encoded, from: snapshot), to: stored)
      } else {
        merged = value
        isGiven = true
      }
    }
    // Uniqueness: a stored object with the same key takes this one's changes instead.
    let segment = isGiven ? valueSegment : table.segment(of: merged)
    let keys = table.schema.uniqueKeys.map { $0(merged) }
    for index in keys.indices {
      let scope = try uniqueScope(table, constraint: index, segment: segment)
      guard let otherID = indexed(keys[index], in: scope, table), otherID != merged.id else { continue }
      let otherKey = ObjectKey(entity: change.entity, id: otherID)
      guard let other = try current(otherKey, segment: segment, thorough: true) else { continue }
      let changes =
        change.kind == .insert
        ? try self.merge.setProperties(of: value, encoded: change.encoded)
        : try self.merge.changes(of: value, encoded: change.encoded, from: change.snapshot)
      let combined = try self.merge.apply(changes.filter { $0.key != type(of: value).identityKey }, to: other)
      if stored != nil {
        // The object became the stored one: its change file carries the edit as given, which
        // every fold joins to the holder.
        try mergeAway(key, into: otherKey, hint: stored)
        written[places[key]!].given = true
        if change.kind == .insert {
          written[places[key]!].givenJSON = try change.encoded ?? EntityFields.json(of: value)
        } else {
          written[places[key]!].givenJSON = try EntityFields.json(of: merged)
          written[places[key]!].givenGroups = merge.groups(of: changes, entity: key.entity)
        }
      } else {
        // A new object is the holder's alias for good, as every device's fold makes it of an
        // insert that meets a held key: an edit or a delete addressed to it reaches the holder.
        // Its change file carries it as it was inserted, which every fold joins to the holder
        // as this plan did, or, where the holder was deleted before, keeps as it was logged.
        noteGiven(to: key, aliasOf: otherID, in: segment, json: try change.encoded ?? EntityFields.json(of: value), groups: nil)
      }
      try set(otherKey, to: combined, hint: other)
      self.merged[key] = otherKey
      return
    }
    try set(
      key, to: merged, hint: stored, known: .some(stored), computed: (segment, keys),
      givenJSON: isGiven ? change.encoded : nil)
    written[places[key]!].given = true
  }

  /// A change addressed to an object that merged into `survivor` on a unique key (here, or on
  /// another device): it reaches the survivor, as every device's fold takes the alias's later
  /// writes to it — what the change set (an edit's changes, an insert's set properties), onto
  /// the survivor's values. A context that read the object before the merge edits it so.
  mutating func putToSurvivor(_ change: PendingChange, _ value: any Entity, of key: ObjectKey, _ survivor: any Entity)
    throws
  {
    let changes =
      change.kind == .insert
      ? try merge.setProperties(of: value, encoded: change.encoded)
      : try merge.changes(of: value, encoded: change.encoded, from: change.snapshot)
    let combined = try merge.apply(changes.filter { $0.key != type(of: value).identityKey }, to: survivor)
    let survivorKey = ObjectKey(entity: key.entity, id: survivor.id)
    merged[key] = survivorKey
    let survivorWasGiven = places[survivorKey].map { written[$0].given } ?? false
    try put(PendingChange(entity: key.entity, id: survivor.id, kind: .update, value: combined, snapshot: survivor))
    // The change file carries the change under the id it was addressed to: every fold takes it
    // to the survivor, or, where the two never joined there, to the object it named.
    written[places[survivorKey]!].given = survivorWasGiven
    noteGiven(
      to: key, aliasOf: survivor.id, in: try entityTable(key.entity).segment(of: combined), json: try EntityFields.json(of: value),
      groups: change.kind == .insert ? nil : merge.groups(of: changes, entity: key.entity))
  }

  /// Records a change the context gave to an id that is not stored: an insert that merged into
  /// `survivor`, or an edit or a delete (`json` nil) addressed to one of its aliases. The cache
  /// keeps the id as the survivor's alias; the change file carries the change as given.
  mutating func noteGiven(to key: ObjectKey, aliasOf survivor: UUID, in segment: String, json: RawJSON?, groups: [String]?) {
    let entry = Written(
      key: key, original: nil, originalSegment: nil, value: nil, segment: segment, givenJSON: json, mergedInto: survivor, given: true,
      givenGroups: groups)
    if let place = places[key] {
      written[place] = entry
    } else {
      places[key] = written.count
      written.append(entry)
    }
  }

  /// The index of one uniqueness constraint over the objects a value could collide with: its
  /// own segment when the constraint includes the segment key, else the whole entity.
  mutating func uniqueScope(_ table: EntityTable, constraint: Int, segment valueSegment: String) throws -> IndexScope {
    let segmentWide = table.schema.uniqueIsSegmentWide[constraint]
    let segment = segmentWide ? valueSegment : "*"
    let scope = IndexScope(entity: table.schema.name, constraint: constraint, segment: segment)
    if indexChanges[scope] != nil { return scope }
    if segmentWide {
      try reader.ensureLoaded(table, segment, &state)
    } else {
      try reader.loadAll(table, &state)
    }
    _ = table.uniqueIndex(constraint: constraint, segment: segment)  // the committed objects'
    indexChanges[scope] = [:]
    // This transaction's writes made before the scope existed: of this month only (a bulk save
    // spans many months, and scanning all of its objects for each would cost months × objects).
    let entity = table.schema.name
    let ref = SegmentRef(entity: entity, segment: segment)
    let keyOf = table.schema.uniqueKeys[constraint]
    func ofEntity() -> [Int] { written.indices.filter { written[$0].key.entity == entity } }
    for place in segmentWide ? originalsBySegment[ref] ?? [] : ofEntity() {
      if let original = written[place].original, !segmentWide || written[place].originalSegment == segment {
        unindex(keyOf(original), of: written[place].key.id, in: scope, table)
      }
    }
    for place in segmentWide ? writtenBySegment[ref] ?? [] : ofEntity() {
      if let value = written[place].value, !segmentWide || written[place].segment == segment {
        indexChanges[scope]?[keyOf(value)] = .some(written[place].key.id)
      }
    }
    if !indexedEntities.contains(entity) { indexedEntities.append(entity) }
    return scope
  }

  // MARK: The transaction

  /// The object a merged-away object ends in, following merges made later in the transaction;
  /// nil when it was not merged, or its survivor was deleted too (which deletes it).
  func survivor(of place: Int) -> UUID? {
    var current = place
    for _ in written.indices {
      guard let id = written[current].mergedInto else { return nil }
      // A survivor is always written in the transaction that merges into it.
      guard let next = places[ObjectKey(entity: written[current].key.entity, id: id)] else { return id }
      if written[next].value != nil { return id }
      current = next
    }
    return nil
  }

  mutating func logEntry(author: String, timestamp: Date) throws -> LogEntry? {
    var changes: [LogChange] = []
    changes.reserveCapacity(written.count)
    // Made in log order, rather than sorted once made: each entry's fields read in place
    // (binding an entry to a name would copy all of it).
    let order = LogOrder.positions(count: written.count, entity: { written[$0].key.entity }, id: { written[$0].key.id })
    for entry in order {
      if written[entry].original == nil, written[entry].mergedInto != nil, let segment = written[entry].segment {
        // An id never stored here: an insert that merged into a stored object, or an alias an
        // edit or a delete was addressed to. Kept as its survivor's alias.
        var change = LogChange(entity: written[entry].key.entity, id: written[entry].key.id, kind: .retire, segment: segment, from: nil, value: nil)
        change.mergedInto = survivor(of: entry) ?? written[entry].mergedInto
        change.encoded = written[entry].givenJSON
        change.isGiven = true
        change.givenGroups = written[entry].givenGroups
        changes.append(change)
        continue
      }
      if entitiesEqual(written[entry].original, written[entry].value) { continue }
      let key = written[entry].key
      switch (written[entry].original, written[entry].originalSegment, written[entry].value, written[entry].segment) {
      case (nil, _, let value?, let segment?):
        var change = LogChange(entity: key.entity, id: key.id, kind: .insert, segment: segment, from: nil, value: value)
        change.uniqueKeys = written[entry].uniqueKeys
        change.encoded = written[entry].givenJSON
        change.isGiven = written[entry].given
        changes.append(change)
      case (_?, let from?, nil, _):
        var change = LogChange(entity: key.entity, id: key.id, kind: .delete, segment: from, from: nil, value: nil)
        change.mergedInto = survivor(of: entry)
        change.isGiven = written[entry].given
        // A moved object that merged away: the edit as given, which its change file carries.
        if change.mergedInto != nil {
          change.encoded = written[entry].givenJSON
          change.givenGroups = written[entry].givenGroups
        }
        changes.append(change)
      case (_?, let from?, let value?, let segment?):
        var change = LogChange(
          entity: key.entity, id: key.id, kind: .update, segment: segment, from: from == segment ? nil : from, value: value)
        change.uniqueKeys = written[entry].uniqueKeys
        change.encoded = written[entry].givenJSON
        change.isGiven = written[entry].given
        changes.append(change)
      default:
        continue
      }
    }
    guard !changes.isEmpty else { return nil }
    return LogEntry(sequence: state.sequence + 1, author: author, timestamp: timestamp, changes: changes)
  }
}
