import Foundation

/// When the objects the cache shows were last written, as far as a merge of arrivals alone needs
/// to know: an arrived change may be folded onto an object by itself only when it comes after
/// every write the object has had (each of its groups goes to the last writer), and only when no
/// delete or unique-key change came after it (which objects held one key at one moment, and so
/// became one, depends on them: `MergedState.aliases()`).
///
/// Every write is known to be at or before `horizon`, except those listed per object; `reshaped`
/// is the newest delete or key change after it. A merge that folded every file moves the horizon
/// to the newest change folded and forgets the list; commits and merges of arrivals add to it;
/// past `limit` objects the horizon moves up to forget the older half. A cache written before
/// this was kept starts at its newest change folded: an arrival must then come after everything.
struct RecentWrites: Codable, Equatable, Sendable {
  private(set) var horizon: UInt64
  private(set) var reshaped: UInt64 = 0
  private(set) var objects: [ObjectKey: UInt64] = [:]

  init(horizon: UInt64) { self.horizon = horizon }

  /// Objects listed before the horizon moves up: about 25 KB of the manifest, which every open
  /// parses, and weeks of a family's entries.
  static let limit = 512

  /// The newest write `key` may have had.
  func newestWrite(of key: ObjectKey) -> UInt64 { objects[key] ?? horizon }

  /// Whether a change stamped `hlc` comes after every delete and key change the cache holds,
  /// and after every write not listed.
  func isSettled(before hlc: UInt64) -> Bool { hlc > max(horizon, reshaped) }

  /// Records one write, at `hlc`, of `key`.
  mutating func note(_ key: ObjectKey, at hlc: UInt64) {
    guard hlc > horizon else { return }
    objects[key] = max(objects[key] ?? 0, hlc)
    if objects.count > Self.limit {
      horizon = objects.values.sorted()[objects.count / 2]
      objects = objects.filter { $0.value > horizon }
    }
  }

  /// Records a delete or a unique-key change at `hlc`.
  mutating func noteReshaped(at hlc: UInt64) {
    if hlc > horizon { reshaped = max(reshaped, hlc) }
  }

  /// Whether a write may change, after the fact, which objects held a unique key at one moment:
  /// a delete (its object held keys until then; its referents' nullified keys change), or an
  /// upsert of an object that `existed` that sets a group holding part of a unique key (an
  /// upsert naming no groups sets them all).
  static func reshapes(_ object: ObjectChange, existed: Bool, _ schema: MergeSchema) -> Bool {
    if object.kind == .delete { return true }
    guard existed else { return false }
    guard let entity = schema.entities[object.entity] else { return true }
    guard let groups = object.groups else { return !entity.keyGroups.isEmpty }
    return groups.contains { entity.keyGroups.contains($0) }
  }

  // {"horizon": N, "reshaped": N, "objects": {"<entity>": {"<id>": N, …}}}: keys sorted by the
  // encoder, deterministic.
  private enum CodingKeys: String, CodingKey { case horizon, reshaped, objects }

  init(from decoder: Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    horizon = try container.decode(UInt64.self, forKey: .horizon)
    reshaped = try container.decode(UInt64.self, forKey: .reshaped)
    for (entity, ids) in try container.decode([String: [String: UInt64]].self, forKey: .objects) {
      for (text, hlc) in ids {
        guard let id = UUID(uuidString: text) else {
          throw DecodingError.dataCorruptedError(forKey: .objects, in: container, debugDescription: "'\(text)' is not an id")
        }
        objects[ObjectKey(entity: entity, id: id)] = hlc
      }
    }
  }

  func encode(to encoder: Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(horizon, forKey: .horizon)
    try container.encode(reshaped, forKey: .reshaped)
    var byEntity: [String: [String: UInt64]] = [:]
    for (key, hlc) in objects { byEntity[key.entity, default: [:]][key.id.uuidString] = hlc }
    try container.encode(byEntity, forKey: .objects)
  }
}
