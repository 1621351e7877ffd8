import Foundation

/// Merged identities. Two objects of an entity that held the same unique key at the same moment
/// — both alive, by the stamps of the writes that set their keys — are one object for good: the
/// one that held the key first survives (of two that took it in one change, the one created
/// first; ties: the smaller id), and the one that came to it is its alias from then on. What
/// the alias brought when it came (the writes of that change) and what is addressed to it later
/// reach the survivor; what it was before stays behind, as a local save that moves an object
/// onto another's key leaves it (the stored holder takes the save's changes). Deleting either
/// deletes both, and the alias never comes back when the key later stops matching (a start time
/// edited, a baby removed).
///
/// "The same moment" is read from the files alone (every write of a key's groups, kept by
/// ``MergedState/Registers/keyWrites``, and the stamps of deletes), so every device that holds
/// the same files finds the same aliases, whatever order they arrived in; a later write never
/// undoes an alias, and a device's local commit (whose stamp comes after everything it has seen)
/// meets the objects its cache shows merged as one.
extension MergedState {
  /// An alias's survivor, and the stamp of the change that made it one: its writes before that
  /// stay behind.
  struct Alias: Equatable {
    var survivor: UUID
    var since: ChangeStamp
  }

  /// Per entity, each alias → its survivor. An entity's referents go first: a reference to an
  /// object that became an alias follows it to its survivor from that moment, which may bring
  /// the referrer onto a key another holds.
  func aliases() -> [String: [UUID: Alias]] {
    var result: [String: [UUID: Alias]] = [:]
    for entity in referentsFirst() where !entity.uniqueKeys.isEmpty {
      var registers: [UUID: Registers] = [:]
      for (key, value) in objects where key.entity == entity.name { registers[key.id] = value }
      var sweep = AliasSweep(
        entity: entity, registers: registers, deletedAt: { self.objects[ObjectKey(entity: $0, id: $1)]?.deleted },
        aliasOf: { [result] in result[$0]?[$1] })
      let found = sweep.run()
      if !found.isEmpty { result[entity.name] = found }
    }
    return result
  }

  /// The schema's entities, each after those its references point at (by name where a cycle
  /// leaves no such order).
  private func referentsFirst() -> [MergeSchema.Entity] {
    var ordered: [MergeSchema.Entity] = []
    var left = schema.entities.values.sorted { $0.name < $1.name }
    while !left.isEmpty {
      let placed = Set(ordered.map(\.name))
      let next =
        left.firstIndex { entity in entity.references.allSatisfy { placed.contains($0.targetEntity) || $0.targetEntity == entity.name } }
        ?? 0
      ordered.append(left.remove(at: next))
    }
    return ordered
  }
}

/// Goes through an entity's key writes in stamp order, keeping each object's unique keys as its
/// writes up to that stamp left them, and joins two objects for good when one takes a key
/// another alive object holds: the holder's survivor stays the survivor. Once joined, the two
/// are one object: its key is the last write of either, its life ends at the first delete of
/// either.
private struct AliasSweep {
  let entity: MergeSchema.Entity
  let registers: [UUID: MergedState.Registers]
  /// When an object of another entity was deleted, if it was.
  let deletedAt: (String, UUID) -> ChangeStamp?
  /// The survivor an object of another entity merged into, and since when, if it did.
  let aliasOf: (String, UUID) -> MergedState.Alias?
  private var classes = AliasClasses()
  /// Per class (by its root): the ids in it, when more than its root (an object never joined
  /// is no entry: 50k insertions a join spared), and its keys per constraint (nil: none written yet).
  private var members: [UUID: [UUID]] = [:]
  /// Per class (by its root): the object that survives; per joined object: since when.
  private var survivors: [UUID: UUID] = [:]
  private var since: [UUID: ChangeStamp] = [:]
  private var keys: [UUID: [[RawJSON]?]] = [:]
  /// Per constraint: which class holds a key.
  private var holders: [[[RawJSON]: UUID]]
  private var dead: Set<UUID> = []

  init(
    entity: MergeSchema.Entity, registers: [UUID: MergedState.Registers], deletedAt: @escaping (String, UUID) -> ChangeStamp?,
    aliasOf: @escaping (String, UUID) -> MergedState.Alias?
  ) {
    self.entity = entity
    self.registers = registers
    self.deletedAt = deletedAt
    self.aliasOf = aliasOf
    holders = entity.uniqueKeys.map { _ in [:] }
  }

  /// Each alias → its survivor.
  mutating func run() -> [UUID: MergedState.Alias] {
    var deletes: [ChangeStamp: [UUID]] = [:]
    var touches: [ChangeStamp: [UUID]] = [:]
    for (id, object) in registers {
      if let deleted = object.deleted { deletes[deleted, default: []].append(id) }
      for group in entity.keyGroups {
        for write in object.keyWrites[group] ?? [] { touches[write.stamp, default: []].append(id) }
      }
      for reference in entity.references where entity.keyGroups.contains(entity.group(of: reference.keyName)) {
        for write in object.keyWrites[entity.group(of: reference.keyName)] ?? [] {
          guard let target = write.fields[reference.keyName].flatMap(MergedState.uuid) else { continue }
          if let deleted = deletedAt(reference.targetEntity, target) { touches[deleted, default: []].append(id) }
          if let alias = aliasOf(reference.targetEntity, target) {
            touches[alias.since, default: []].append(id)
            if let deleted = deletedAt(reference.targetEntity, alias.survivor) { touches[deleted, default: []].append(id) }
          }
        }
      }
    }
    for stamp in Set(deletes.keys).union(touches.keys).sorted() {
      for id in deletes[stamp] ?? [] { kill(classes.root(id)) }
      // A class this change leaves on the keys it holds keeps holding them; the others move,
      // in the order they were created, and join what they meet.
      // (A class placed for the first time moves, its keys not computed twice.)
      let roots = Set((touches[stamp] ?? []).map { classes.root($0) }).subtracting(dead).filter { root in
        keys[root] == nil || keys(of: root, at: stamp) != keys[root]
      }.map { (order: (registers[$0]!.created, uuidOrder($0)), root: $0) }.sorted { $0.order < $1.order }.map(\.root)
      for root in roots { unindex(root) }
      for root in roots where classes.root(root) == root && !dead.contains(root) { place(root, at: stamp) }
    }
    var survivorOf: [UUID: MergedState.Alias] = [:]
    for (root, ids) in members where classes.root(root) == root && ids.count > 1 {
      let survivor = survivors[root] ?? root
      for id in ids where id != survivor { survivorOf[id] = MergedState.Alias(survivor: survivor, since: since[id]!) }
    }
    return survivorOf
  }

  private mutating func kill(_ root: UUID) {
    guard !dead.contains(root) else { return }
    unindex(root)
    dead.insert(root)
  }

  private mutating func unindex(_ root: UUID) {
    for (constraint, key) in (keys[root] ?? []).enumerated() {
      if let key, holders[constraint][key] == root { holders[constraint][key] = nil }
    }
  }

  /// Gives a class its keys as of `stamp` and joins it with any alive class that holds one.
  private mutating func place(_ root: UUID, at stamp: ChangeStamp) {
    guard let current = keys(of: root, at: stamp) else { return kill(root) }
    keys[root] = current
    for (constraint, key) in current.enumerated() {
      guard let key, let other = holders[constraint][key].map({ classes.root($0) }), other != root, !dead.contains(other) else { continue }
      unindex(other)
      // The class that came to the key is the holder's from now on.
      for id in members[root] ?? [root] { since[id] = stamp }
      let survivor = survivors[other] ?? other
      let joined = classes.join(root, other)
      members[joined] = (members[root] ?? [root]) + (members[other] ?? [other])
      survivors[joined] = survivor
      return place(joined, at: stamp)
    }
    for (constraint, key) in current.enumerated() { if let key { holders[constraint][key] = root } }
  }

  /// A class's keys as its members' writes up to `stamp` leave them: per property the last
  /// write of its group, a reference to an object deleted by then nil; nil when a cascade
  /// deleted the class with its referent.
  private func keys(of root: UUID, at stamp: ChangeStamp) -> [[RawJSON]?]? {
    let ids = members[root] ?? [root]
    var result: [[RawJSON]?] = []
    for keyNames in entity.uniqueKeys {
      var written = false
      var values: [RawJSON] = []
      for property in keyNames {
        let group = entity.group(of: property)
        var last: MergedState.Register?
        for id in ids {
          // An insert's nil is no write of that member: the member keeps its earlier value.
          for write in registers[id]?.keyWrites[group] ?? []
          where write.stamp <= stamp && write.fields[property] != nil && (last.map { write.wins(over: $0) } ?? true) {
            last = write
          }
        }
        written = written || last != nil
        var value = last?.fields[property] ?? .null
        if let reference = entity.references.first(where: { $0.keyName == property }), var target = MergedState.uuid(value) {
          // A referent merged into another by then: the reference follows it to its survivor.
          if let alias = aliasOf(reference.targetEntity, target), alias.since <= stamp {
            target = alias.survivor
            value = MergedState.rawUUID(target)
          }
          if let deleted = deletedAt(reference.targetEntity, target), deleted <= stamp {
            if reference.deleteRule.referrerInFold == .deleted { return nil }
            value = .null
          }
        }
        values.append(value)
      }
      result.append(written ? values : nil)
    }
    return result
  }
}

extension MergedState.Registers {
  /// Takes in an alias's writes from `since` on (nil: all of them): per member of a group the
  /// last writer of the two, the earlier creation, the earlier delete.
  mutating func absorb(_ alias: MergedState.Registers, since: ChangeStamp? = nil) {
    for (group, register) in alias.groups {
      guard let brought = since.map({ register.written(since: $0) }) ?? register else { continue }
      write(brought, group: group)
    }
    created = min(created, alias.created)
    if let deleted = alias.deleted { delete(at: deleted) }
  }
}

/// Ids joined into classes (union–find): the objects that became one.
private struct AliasClasses {
  private var parent: [UUID: UUID] = [:]

  mutating func root(_ id: UUID) -> UUID {
    var root = id
    while let next = parent[root], next != root { root = next }
    // An id never joined stays out of the table: a join's fold asks once or more for each of
    // its objects, nearly all alone.
    if root != id { parent[id] = root }
    return root
  }

  /// Joins two classes; returns the joined class's root.
  mutating func join(_ one: UUID, _ other: UUID) -> UUID {
    let (a, b) = (root(one), root(other))
    if a != b { parent[a] = b }
    return b
  }
}
