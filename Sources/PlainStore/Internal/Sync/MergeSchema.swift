/// What the merge needs to know of the entities, by property name: which properties travel
/// together, which key sets are unique, and where references point.
struct MergeSchema: Sendable {
  struct Entity: Sendable {
    var name: String
    var identityKey: String
    /// Property → the name of its field group. A property in no declared group is a group of
    /// its own, named after it.
    var groupOf: [String: String]
    /// Uniqueness constraints other than the identity alone.
    var uniqueKeys: [[String]]
    var references: [Reference]

    func group(of property: String) -> String { groupOf[property] ?? property }

    /// The properties of a group: a declared group's members, or the one property a group of
    /// its own is named after.
    func members(of group: String) -> [String] { membersOf[group] ?? [group] }

    /// A declared group's name → its members (filled in by ``MergeSchema``).
    fileprivate(set) var membersOf: [String: [String]] = [:]
    /// The groups that hold a part of a unique key (filled in by ``MergeSchema``): the merge
    /// keeps every write of these, not only the last (see `MergedState.aliases()`).
    fileprivate(set) var keyGroups: Set<String> = []
  }

  struct Reference: Sendable {
    var keyName: String
    var targetEntity: String
    var deleteRule: DeleteRule
  }

  var entities: [String: Entity]
  /// The schema version change files are read into; a file of a newer one is not folded.
  var version: Int
  var migrations: MigrationPlan

  init(entities: [Entity], version: Int = 1, migrations: MigrationPlan = MigrationPlan()) {
    self.entities = Dictionary(
      uniqueKeysWithValues: entities.map { entity in
        var entity = entity
        entity.membersOf = Dictionary(grouping: entity.groupOf.keys.sorted(), by: { entity.groupOf[$0]! })
        entity.keyGroups = Set(entity.uniqueKeys.joined().map(entity.group(of:)))
        return (entity.name, entity)
      })
    self.version = version
    self.migrations = migrations
  }

  init(_ schema: Schema) {
    self.init(
      entities: schema.entities.map { entity in
        var groupOf: [String: String] = [:]
        for group in entity.fieldGroupNames {
          let name = group.sorted().joined(separator: "+")
          for property in group { groupOf[property] = name }
        }
        let identity = entity.type.identityKey
        return Entity(
          name: entity.name, identityKey: identity, groupOf: groupOf,
          uniqueKeys: entity.uniqueKeyNames.filter { $0 != [identity] && $0 != ["id"] },
          references: entity.references.map { Reference(keyName: $0.keyName, targetEntity: $0.targetEntity, deleteRule: $0.deleteRule) })
      }, version: schema.version, migrations: MigrationPlan(schema.migrations))
  }
}
