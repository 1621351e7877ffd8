import Foundation

/// The state of a store as a pure function of a set of change files: per object and field
/// group, the value of the last writer by (HLC, device, sequence); a delete wins over every
/// edit, before or after it, and its tombstone stays. Applying a file is commutative,
/// associative and idempotent, so the order files arrive in, duplicates and conflict copies
/// never change the result.
///
/// What the contexts see is ``materialize()``: the live objects, with uniqueness constraints
/// restored (objects that share a unique key become one, the same one on every device) and
/// references to deleted objects handled by their delete rule.
struct MergedState: Sendable {
  /// The version of the rules below, which a cache records (`Manifest.mergeRules`): 2 keeps the
  /// holder of a unique key as the survivor of a meeting, where 1 kept the object created first;
  /// 3 keeps each alias's survivor with the cache (``RetiredObjects``), where an edit addressed
  /// to the alias goes; 4 joins a field group member by member (an insert's nil sets nothing)
  /// and has a referrer follow its referent's merge within the alias sweep, the holder keeping
  /// its values.
  static let rulesVersion = 4

  struct Registers: Equatable, Sendable {
    /// The earliest write of the object: who created it first, which decides which of two
    /// objects sharing a unique key survives.
    var created: ChangeStamp
    var groups: [String: Register] = [:]
    /// The earliest delete: where the object's life ends.
    var deleted: ChangeStamp?
    /// Every write of a group that holds part of a unique key, in stamp order, not only the
    /// last: which objects held one key at one moment (see `aliases()`) depends on them.
    var keyWrites: [String: [Register]] = [:]

    /// Keeps one write of a key group; a write folded twice is kept once.
    mutating func recordKeyWrite(_ register: Register, group: String) {
      var writes = keyWrites[group] ?? []
      guard !writes.contains(register) else { return }
      let place = writes.firstIndex { register.stamp < $0.stamp || (register.stamp == $0.stamp && $0.wins(over: register)) }
      writes.insert(register, at: place ?? writes.endIndex)
      keyWrites[group] = writes
    }

    /// Folds one write of a group in: per member, the later writer's value.
    mutating func write(_ register: Register, group: String) {
      if var held = groups[group] {
        held.join(register)
        groups[group] = held
      } else {
        groups[group] = register
      }
    }

    /// Ends the object's life at `stamp`, if that is earlier than its end so far.
    mutating func delete(at stamp: ChangeStamp) {
      deleted = min(deleted ?? stamp, stamp)
    }
  }

  let schema: MergeSchema
  var objects: [ObjectKey: Registers] = [:]
  /// Every change folded in, by device (a snapshot counts as the changes it covers).
  var applied: [DeviceID: IndexSet] = [:]
  /// Values of older files that a migration could not transform (kept as they were).
  var migrationFailures: [MigrationPlan.Failure] = []

  init(schema: MergeSchema) {
    self.schema = schema
  }

  func contains(device: DeviceID, sequence: Int) -> Bool { applied[device]?.contains(sequence) ?? false }

  /// Folds one change file in; a file already folded changes nothing. A file of an older schema
  /// version is read through the schema's migrations; one of a newer version is left out (its
  /// device runs a newer program: the file waits for this one's update).
  mutating func apply(_ change: ChangeFile) {
    guard change.schemaVersion <= schema.version else { return }
    let stamp = change.stamp
    applied[change.device, default: IndexSet()].insert(change.sequence)
    for object in change.objects {
      // A newer schema's entity is kept too, each property its own group: a snapshot must
      // carry it on for the devices that can read it.
      let entity = schema.entities[object.entity]
      let key = ObjectKey(entity: object.entity, id: object.id)
      var registers = objects[key] ?? Registers(created: stamp)
      if stamp < registers.created { registers.created = stamp }
      switch object.kind {
      case .delete:
        registers.delete(at: stamp)
      case .upsert:
        var touched: [String: [String: RawJSON]] = [:]
        var fields = object.fields ?? [:]
        var groups = object.groups
        if change.schemaVersion < schema.version {
          schema.migrations.migrate(
            object.entity, id: object.id, fields: &fields, groups: &groups, from: change.schemaVersion, failures: &migrationFailures)
        }
        let sets = groups.map(Set.init)
        for (property, value) in fields where property != entity?.identityKey {
          let group = entity?.group(of: property) ?? property
          if sets?.contains(group) ?? true { touched[group, default: [:]][property] = value }
        }
        // A group an update names is set whole: a member it does not carry was set to nil (an
        // entity's Codable leaves nils out), which is a value, not "unchanged".
        for group in groups ?? [] where entity != nil {
          for member in entity!.members(of: group) where touched[group]?[member] == nil {
            touched[group, default: [:]][member] = .null
          }
        }
        for (group, fields) in touched {
          let register = Register(stamp: stamp, fields: fields)
          if entity?.keyGroups.contains(group) == true { registers.recordKeyWrite(register, group: group) }
          registers.write(register, group: group)
        }
      }
      objects[key] = registers
    }
  }

  /// Gives an object the values a cache holds for it, each group as its last writer wrote it
  /// (`stamps`): the start of a merge of arrivals alone that may hold writes older than the
  /// cache's. A group's members the values leave out were set to nil by its writer (the JSON
  /// leaves nils out), and so is a group the stamps name that the values hold nothing of.
  mutating func seed(_ key: ObjectKey, fields: [String: RawJSON], stamps: ObjectStamps, created: ChangeStamp) {
    guard let entity = schema.entities[key.entity] else { return }
    var registers = Registers(created: created)
    var groups: [String: [String: RawJSON]] = [:]
    for (property, value) in fields where property != entity.identityKey { groups[entity.group(of: property), default: [:]][property] = value }
    for group in stamps.groups.keys where groups[group] == nil { groups[group] = [:] }
    for (group, values) in groups {
      var fields = values
      for member in entity.members(of: group) where fields[member] == nil { fields[member] = .null }
      let written = stamps.group(group)
      let register = Register(stamp: written.stamp, fields: fields, earlier: written.earlier.filter { fields[$0.key] != nil })
      if entity.keyGroups.contains(group) { registers.recordKeyWrite(register, group: group) }
      registers.groups[group] = register
    }
    objects[key] = registers
  }

  // MARK: What the contexts see

  /// The live objects per entity, as property name → exact JSON text (the identity included),
  /// after delete rules and uniqueness. Objects that held one unique key at one moment are one
  /// (`aliases()`, the one survivor rule, which reads when a delete nullified a reference or a
  /// referent merged away); references to deleted objects are handled as a local delete would
  /// (nullify makes orphans, cascade deletes), and references to a merged-away object follow
  /// it to its survivor.
  func materialize() -> [String: [UUID: [String: RawJSON]]] { materializeWithAliases().objects }

  /// ``materialize()``, per entity each merged-away id → the object it merged into (its final
  /// survivor, which may be gone), and the registers of every object left once aliases joined
  /// their survivors (where ``WriteStamps`` reads a live object's stamps).
  func materializeWithAliases() -> (
    objects: [String: [UUID: [String: RawJSON]]], survivors: [String: [UUID: UUID]], registers: [ObjectKey: Registers]
  ) {
    var live: [String: [UUID: Registers]] = [:]
    var gone: [String: Set<UUID>] = [:]
    // Objects that held one unique key at one moment are one object for good.
    let aliases = aliases()
    var objects = objects
    for (name, survivors) in aliases {
      for (alias, joined) in survivors {
        let (aliasKey, survivorKey) = (ObjectKey(entity: name, id: alias), ObjectKey(entity: name, id: joined.survivor))
        guard let merged = objects.removeValue(forKey: aliasKey) else { continue }
        objects[survivorKey]?.absorb(merged, since: joined.since)
      }
    }
    for (name, survivors) in aliases {
      for (alias, joined) in survivors where objects[ObjectKey(entity: name, id: joined.survivor)]?.deleted != nil {
        gone[name, default: []].insert(alias)
      }
    }
    for (key, registers) in objects {
      if registers.deleted != nil {
        gone[key.entity, default: []].insert(key.id)
      } else {
        live[key.entity, default: [:]][key.id] = registers
      }
    }
    var changed = true
    while changed {
      changed = false
      for (name, entity) in schema.entities {
        for reference in entity.references {
          for (id, registers) in live[name] ?? [:] {
            guard let target = Self.fields(registers, entity, schema.migrations)[reference.keyName].flatMap(Self.uuid),
              gone[reference.targetEntity]?.contains(target) == true
            else { continue }
            switch reference.deleteRule.referrerInFold {
            case .deleted:
              live[name]?[id] = nil
              gone[name, default: []].insert(id)
            case .referenceCleared:
              live[name]?[id] = Self.setting(reference.keyName, to: .null, in: registers, entity)
            }
            changed = true
          }
        }
      }
    }
    // References to a merged-away object follow it to its survivor (`aliases()` has met the
    // keys this brings together already).
    let survivorOf = aliases.mapValues { $0.mapValues(\.survivor) }
    for (name, entity) in schema.entities {
      for reference in entity.references {
        guard let survivors = survivorOf[reference.targetEntity], !survivors.isEmpty else { continue }
        for (id, registers) in live[name] ?? [:] {
          guard let target = Self.fields(registers, entity, schema.migrations)[reference.keyName].flatMap(Self.uuid), let survivor = survivors[target] else { continue }
          live[name]?[id] = Self.setting(reference.keyName, to: Self.rawUUID(survivor), in: registers, entity)
        }
      }
    }
    var result: [String: [UUID: [String: RawJSON]]] = [:]
    for (name, objects) in live {
      guard let entity = schema.entities[name] else { continue }
      var values: [UUID: [String: RawJSON]] = [:]
      values.reserveCapacity(objects.count)
      for (id, registers) in objects {
        var fields = Self.fields(registers, entity, schema.migrations)
        fields[entity.identityKey] = Self.rawUUID(id)
        values[id] = fields
      }
      result[name] = values
    }
    return (result, survivorOf, objects)
  }

  /// An object's properties: each group's last writer's, and the defaults of properties that
  /// migrations added and no writer set.
  private static func fields(_ registers: Registers, _ entity: MergeSchema.Entity, _ migrations: MigrationPlan) -> [String: RawJSON] {
    var fields: [String: RawJSON] = [:]
    for register in registers.groups.values { fields.merge(register.fields) { $1 } }
    migrations.fillDefaults(entity.name, &fields)
    return fields
  }

  /// The registers with one property replaced, its stamp kept: a derived value, never stored.
  private static func setting(_ property: String, to value: RawJSON, in registers: Registers, _ entity: MergeSchema.Entity) -> Registers {
    var registers = registers
    registers.groups[entity.group(of: property)]?.fields[property] = value
    return registers
  }

  static func rawUUID(_ id: UUID) -> RawJSON { RawJSON(bytes: Array("\"\(id.uuidString)\"".utf8)) }

  /// The id a register's JSON string holds, read as the decoder reads one.
  static func uuid(_ text: RawJSON) -> UUID? { JSONDecoding.parseUUID(quoted: text.bytes) }

  /// The live objects as one deterministic JSON document: entities by name, objects by id.
  func canonicalExport() throws -> Data {
    let state = materialize()
    var entities: [String: [[String: RawJSON]]] = [:]
    for (name, objects) in state {
      entities[name] = objects.map { (order: uuidOrder($0.key), fields: $0.value) }.sorted { $0.order < $1.order }.map(\.fields)
    }
    return try StoreCoding.makeEncoder().encode(entities)
  }
}
