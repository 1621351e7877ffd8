import Foundation

/// The objects the fold knows of but the cache does not show: deleted (their tombstones stay),
/// merged into another object (an alias), or not readable by this program. A change that
/// arrives for one of them cannot be merged object by object — the fold's answer depends on
/// history the cache does not keep — so the merge folds every file again instead.
///
/// Kept with the cache: the manifest holds the set as of its sequence, every delete of a later
/// transaction adds to it, and a merge that folded every file records the whole set again. A
/// cache written before this set existed has none (`nil` in the state): its next merge folds
/// everything, once.
struct RetiredObjects: Codable, Equatable, Sendable {
  private(set) var ids: [String: Set<UUID>] = [:]

  init() {}

  var isEmpty: Bool { ids.values.allSatisfy(\.isEmpty) }

  func contains(_ key: ObjectKey) -> Bool { ids[key.entity]?.contains(key.id) ?? false }

  mutating func insert(_ key: ObjectKey) { ids[key.entity, default: []].insert(key.id) }

  // {"<entity>": ["<id>", …]}, ids in UUID order: deterministic.
  init(from decoder: Decoder) throws {
    ids = try decoder.singleValueContainer().decode([String: [UUID]].self).mapValues(Set.init)
  }

  func encode(to encoder: Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(ids.mapValues { $0.sorted(by: uuidPrecedes) })
  }
}
