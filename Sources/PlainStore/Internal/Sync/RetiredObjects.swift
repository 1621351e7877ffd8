import Foundation

/// The objects the fold knows of but the cache does not show: deleted (their tombstones stay),
/// merged into another object (an alias), or not readable by this program. A change that
/// arrives for one of them cannot be merged object by object — the fold's answer depends on
/// history the cache does not keep — so the merge folds every file again instead.
///
/// For an alias it keeps the object it merged into, so that an edit or a delete a context here
/// addresses to the alias reaches its survivor, as one from another device does in the fold
/// (see `CommitPlanner.put`).
///
/// Kept with the cache: the manifest holds the set as of its sequence, every delete of a later
/// transaction adds to it (with the survivor of a save's merge), and a merge that folded every
/// file records the whole set again. A cache written before this set existed has none (`nil` in
/// the state): its next merge folds everything, once.
struct RetiredObjects: Codable, Equatable, Sendable {
  private(set) var ids: [String: Set<UUID>] = [:]
  /// Per entity, each alias → the object it merged into, which may have merged on in turn.
  private(set) var survivors: [String: [UUID: UUID]] = [:]

  init() {}

  var isEmpty: Bool { ids.values.allSatisfy(\.isEmpty) }

  func contains(_ key: ObjectKey) -> Bool { ids[key.entity]?.contains(key.id) ?? false }

  mutating func insert(_ key: ObjectKey, mergedInto survivor: UUID? = nil) {
    ids[key.entity, default: []].insert(key.id)
    if let survivor { survivors[key.entity, default: [:]][key.id] = survivor }
  }

  /// The object the cache shows a merged-away object as: its survivor, after the merges that
  /// survivor went through in turn; nil when the id is not an alias, or its survivor is gone.
  func survivor(of key: ObjectKey) -> UUID? {
    guard let end = lastSurvivor(of: key), ids[key.entity]?.contains(end) != true else { return nil }
    return end
  }

  /// The last object a merged-away object merged into, after the merges of its survivor in
  /// turn, whether the cache shows it or it was deleted since; nil when the id is not an alias.
  func lastSurvivor(of key: ObjectKey) -> UUID? {
    guard let aliases = survivors[key.entity], var end = aliases[key.id] else { return nil }
    // A chain only ever runs from an older merge to a newer one: no id is merged twice. The
    // bound is for a damaged manifest.
    for _ in 0...aliases.count {
      guard let next = aliases[end] else { return end }
      end = next
    }
    return nil
  }

  /// Every alias of one entity → the object it shows as now (see ``survivor(of:)``), or with
  /// `includingDeleted`, the last it merged into, shown or deleted (``lastSurvivor(of:)``).
  func aliases(of entity: String, includingDeleted: Bool = false) -> [UUID: UUID] {
    (survivors[entity] ?? [:]).keys.reduce(into: [:]) { aliases, alias in
      let key = ObjectKey(entity: entity, id: alias)
      aliases[alias] = includingDeleted ? lastSurvivor(of: key) : survivor(of: key)
    }
  }

  // {"aliases": {"<entity>": {"<alias>": "<survivor>", …}}, "ids": {"<entity>": ["<id>", …]}},
  // ids in UUID order: deterministic. A manifest written before aliases were kept holds the
  // second dictionary alone; its values are arrays, so the two never read as each other.
  private enum CodingKeys: String, CodingKey { case aliases, ids }

  init(from decoder: Decoder) throws {
    if let old = try? decoder.singleValueContainer().decode([String: [UUID]].self) {
      ids = old.mapValues(Set.init)
      return
    }
    let container = try decoder.container(keyedBy: CodingKeys.self)
    ids = try container.decode([String: [UUID]].self, forKey: .ids).mapValues(Set.init)
    let aliases = try container.decode([String: [String: UUID]].self, forKey: .aliases)
    for (entity, pairs) in aliases {
      for (alias, survivor) in pairs {
        guard let id = UUID(uuidString: alias) else {
          throw DecodingError.dataCorruptedError(
            forKey: .aliases, in: container, debugDescription: "'\(alias)' of \(entity) is not an id")
        }
        survivors[entity, default: [:]][id] = survivor
      }
    }
  }

  func encode(to encoder: Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(ids.mapValues { $0.sorted(by: uuidPrecedes) }, forKey: .ids)
    try container.encode(survivors.mapValues { Dictionary(uniqueKeysWithValues: $0.map { ($0.key.uuidString, $0.value) }) }, forKey: .aliases)
  }
}
