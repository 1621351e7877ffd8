import Foundation

extension CommitPlanner {
  // MARK: Deletes and delete rules

  mutating func delete(_ key: ObjectKey, hint: (any Entity)?, given: Bool) throws {
    guard let existing = try current(key, hint: hint, thorough: true) else {
      // An object merged into another: its delete deletes the survivor, as in every device's fold.
      if let survivor = state.retired?.survivor(of: key) {
        let survivorKey = ObjectKey(entity: key.entity, id: survivor)
        merged[key] = survivorKey
        let segment = try current(survivorKey, hint: nil, thorough: true).map { try entityTable(key.entity).segment(of: $0) }
        try delete(survivorKey, hint: nil, given: false)
        if given, let segment { noteGiven(to: key, aliasOf: survivor, in: segment, json: nil, groups: nil) }
      }
      return
    }
    try set(key, to: nil, hint: existing)
    if given { written[places[key]!].given = true }
    for entity in schema.entities {
      for reference in entity.references where reference.targetEntity == key.entity {
        let referrers = try referrers(of: key.id, in: entity, through: reference)
        switch reference.deleteRule {
        case .nullify:
          for referrer in referrers {
            try putRewritten(ObjectKey(entity: entity.name, id: referrer.id), reference.pointing(referrer, nil), was: referrer)
          }
        case .cascade:
          for referrer in referrers { try delete(ObjectKey(entity: entity.name, id: referrer.id), hint: referrer, given: false) }
        case .deny:
          if !referrers.isEmpty { denyChecks.append(key) }
        }
      }
    }
  }

  /// An object that met `survivor` on a unique key, as this transaction leaves it: gone from the
  /// cache, and an alias of its survivor for good. Its change file moves it onto the
  /// survivor's key, which makes every device's fold join the two as this plan does (see
  /// `MergedState.aliases()`); objects that refer to it follow it to the survivor, as they do
  /// in the fold, rather than meet its delete rule.
  mutating func mergeAway(_ key: ObjectKey, into survivor: ObjectKey, hint: (any Entity)?) throws {
    guard let existing = try current(key, hint: hint, thorough: true) else { return }
    try set(key, to: nil, hint: existing)
    written[places[key]!].mergedInto = survivor.id
    for entity in schema.entities {
      for reference in entity.references where reference.targetEntity == key.entity {
        for referrer in try referrers(of: key.id, in: entity, through: reference) {
          try putRewritten(ObjectKey(entity: entity.name, id: referrer.id), reference.pointing(referrer, survivor.id), was: referrer)
        }
      }
    }
  }

  /// Writes a referrer whose reference a delete nullified, or a merge pointed at the survivor.
  /// Its unique key may now be another object's (two orphans of one start): the stored holder
  /// of the key survives as it is, and the referrer merges away, bringing nothing but its
  /// moved reference — what the change that moved it wrote of it, as every device's fold
  /// joins them (`MergedState.absorb`).
  mutating func putRewritten(_ key: ObjectKey, _ value: any Entity, was referrer: any Entity) throws {
    let table = try entityTable(key.entity)
    let segment = table.segment(of: value)
    for (constraint, keyOf) in table.schema.uniqueKeys.enumerated() {
      let scope = try uniqueScope(table, constraint: constraint, segment: segment)
      guard let otherID = indexed(keyOf(value), in: scope, table), otherID != key.id else { continue }
      let otherKey = ObjectKey(entity: key.entity, id: otherID)
      guard try current(otherKey, segment: segment, thorough: true) != nil else { continue }
      try mergeAway(key, into: otherKey, hint: referrer)
      return
    }
    try set(key, to: value, hint: referrer)
  }

  /// The objects of `entity` whose `reference` points at `id`, as this transaction leaves them.
  mutating func referrers(of id: UUID, in entity: EntitySchema, through reference: AnyReference) throws
    -> [any Entity]
  {
    let table = try entityTable(entity.name)
    try reader.loadAll(table, &state)
    var found: [any Entity] = []
    for slot in table.slots.values {
      found += slot.objects?.referrers(to: id, through: reference) { places[ObjectKey(entity: entity.name, id: $0)] != nil } ?? []
    }
    for entry in written.indices where written[entry].key.entity == entity.name {
      if let value = written[entry].value, reference.target(value) == id { found.append(value) }
    }
    return found.sorted { uuidPrecedes($0.id, $1.id) }
  }

  mutating func checkDenyRules() throws {
    for key in denyChecks {
      for entity in schema.entities {
        for reference in entity.references where reference.targetEntity == key.entity && reference.deleteRule == .deny {
          let remaining = try referrers(of: key.id, in: entity, through: reference)
          if !remaining.isEmpty {
            throw StoreError(
              .reference, path: "\(key.entity) \(key.id.uuidString)",
              "cannot be deleted: \(remaining.count) \(entity.name) still refer to it through '\(reference.keyName)' (delete rule deny) — delete or change those first.")
          }
        }
      }
    }
  }

  /// Every reference of every object this transaction writes points at an object that exists.
  mutating func checkReferences() throws {
    // Every broken reference is found, the one reported is the first by id: the same error
    // whatever order the transaction's objects are in, without sorting them all.
    var broken: (key: ObjectKey, reference: AnyReference, target: UUID)?
    // Objects saved together mostly refer to the same few: the last one found is not looked up again.
    var lastFound: ObjectKey?
    for entry in written.indices {
      guard let value = written[entry].value else { continue }
      let key = written[entry].key
      for reference in try entityTable(key.entity).schema.references {
        // A reference this transaction left as it was is not its to check: another device's
        // object may refer to one still on its way.
        guard let target = reference.target(value), written[entry].original.flatMap(reference.target) != target else { continue }
        let targetKey = ObjectKey(entity: reference.targetEntity, id: target)
        if targetKey == lastFound { continue }
        if try current(targetKey, hint: nil, thorough: true) != nil {
          lastFound = targetKey
        } else if broken.map({ uuidPrecedes(key.id, $0.key.id) }) ?? true {
          broken = (key, reference, target)
        }
      }
    }
    if let (key, reference, target) = broken {
      throw StoreError(
        .reference, path: "\(key.entity) \(key.id.uuidString)",
        "its '\(reference.keyName)' refers to \(reference.targetEntity) \(target.uuidString), which does not exist — save that \(reference.targetEntity) first or set '\(reference.keyName)' to nil.")
    }
  }
}
