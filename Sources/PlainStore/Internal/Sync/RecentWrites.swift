import Foundation

/// Bounds on when the objects the cache shows were last written, group by group, for a merge
/// of arrivals alone where the exact stamps (``WriteStamps``, held in memory) are not known —
/// after an open, for an object another process changed — and the newest delete or key change,
/// which every delete and key write that arrives must come after: an arrived write may be folded onto an object by itself only
/// when it comes after every write of the groups it sets (each group goes to its last writer),
/// and only when no delete or unique-key change came after it (which objects held one key at
/// one moment, and so became one, depends on them: `MergedState.aliases()`). So the other
/// parent's edit of a feed's memo, made before this phone set the feed's end, still merges by
/// itself: the end's group is not one it sets.
///
/// Every write is known to be at or before `horizon`, except those listed per object and group
/// (`allGroups` for a write that set every group: an insert, a delete, a merge's); `reshaped` is
/// the newest delete or key change after it. A listed time may be later than the write (a merge
/// lists its changes at its newest file's), never earlier. A merge that folded every file moves
/// the horizon to the newest change folded and forgets the list; commits and merges of arrivals
/// add to it; past `limit` objects the horizon moves up to forget the older half. A cache
/// written before this was kept starts at its newest change folded: an arrival must then come
/// after everything.
struct RecentWrites: Codable, Equatable, Sendable {
  private(set) var horizon: UInt64
  private(set) var reshaped: UInt64 = 0
  /// Per object, the newest write of each group listed (`allGroups`: of every group).
  private(set) var objects: [ObjectKey: [String: UInt64]] = [:]

  /// The name that stands for every group of an object: no group of an entity has it.
  static let allGroups = "*"

  init(horizon: UInt64) { self.horizon = horizon }

  /// Objects listed before the horizon moves up: about 25 KB of the manifest, which every open
  /// parses, and weeks of a family's entries.
  static let limit = 512

  /// The newest write `key` may have had, of `groups` (nil: of any group).
  func newestWrite(of key: ObjectKey, groups: [String]? = nil) -> UInt64 {
    guard let written = objects[key] else { return horizon }
    guard let groups else { return written.values.max()! }
    return groups.reduce(written[Self.allGroups] ?? horizon) { max($0, written[$1] ?? horizon) }
  }

  /// Whether a change stamped `hlc` comes after every delete and key change the cache holds,
  /// and after every write not listed.
  func isSettled(before hlc: UInt64) -> Bool { hlc > max(horizon, reshaped) }

  /// Records one write, at `hlc`, of `key`'s `groups` (nil or none named: of every group).
  mutating func note(_ key: ObjectKey, groups: [String]? = nil, at hlc: UInt64) {
    guard hlc > horizon else { return }
    for group in groups.flatMap({ $0.isEmpty ? nil : $0 }) ?? [Self.allGroups] {
      objects[key, default: [:]][group] = max(objects[key]?[group] ?? 0, hlc)
    }
    if objects.count > Self.limit {
      horizon = objects.values.map { $0.values.max()! }.sorted()[objects.count / 2]
      objects = objects.compactMapValues { written in
        let kept = written.filter { $0.value > horizon }
        return kept.isEmpty ? nil : kept
      }
    }
  }

  /// Records a delete or a unique-key change at `hlc`.
  mutating func noteReshaped(at hlc: UInt64) {
    if hlc > horizon { reshaped = max(reshaped, hlc) }
  }

  /// Whether a write may change, after the fact, which objects held a unique key at one moment:
  /// a delete (its object held keys until then; its referents' nullified keys change), or an
  /// upsert of an object that `existed` that sets a group holding part of a unique key (an
  /// upsert naming no groups sets them all) — unless its `values` before and after (a commit
  /// knows them) hold the same keys: a feed's end set, its start kept, holds its key as before.
  static func reshapes(
    _ object: ObjectChange, existed: Bool, _ schema: MergeSchema, values: (before: any Entity, after: any Entity, EntitySchema)? = nil
  ) -> Bool {
    if object.kind == .delete { return true }
    guard existed else { return false }
    guard let entity = schema.entities[object.entity] else { return true }
    guard object.groups?.contains(where: { entity.keyGroups.contains($0) }) ?? !entity.keyGroups.isEmpty else { return false }
    guard let (before, after, keys) = values else { return true }
    return keys.uniqueKeys.indices.contains { keys.uniqueKeys[$0](before) != keys.uniqueKeys[$0](after) }
  }

  // {"horizon": N, "reshaped": N, "objects": {"<entity>": {"<id>": N, …}},
  //  "groups": {"<entity>": {"<id>": {"<group>": N, …}, …}}}: "objects" holds each object's
  // newest write, as caches before groups were kept wrote it (read alone, a write of every
  // group); "groups" each object's groups, for an object whose writes are not all of every
  // group. Keys sorted by the encoder, deterministic.
  private enum CodingKeys: String, CodingKey { case horizon, reshaped, objects, groups }

  init(from decoder: Decoder) throws {
    // Every other process reads the manifest again after a compaction, and Codable's generic
    // dictionaries made its 512 objects 1.3 ms of it: the store's decoder walks the nodes.
    if let decoding = decoder as? JSONDecoding, let read = Self.read(decoding) {
      self = read
      return
    }
    let container = try decoder.container(keyedBy: CodingKeys.self)
    horizon = try container.decode(UInt64.self, forKey: .horizon)
    reshaped = try container.decode(UInt64.self, forKey: .reshaped)
    func key(_ entity: String, _ text: String, _ codingKey: CodingKeys) throws -> ObjectKey {
      guard let id = UUID(uuidString: text) else {
        throw DecodingError.dataCorruptedError(forKey: codingKey, in: container, debugDescription: "'\(text)' is not an id")
      }
      return ObjectKey(entity: entity, id: id)
    }
    for (entity, ids) in try container.decode([String: [String: UInt64]].self, forKey: .objects) {
      for (text, hlc) in ids { objects[try key(entity, text, .objects)] = [Self.allGroups: hlc] }
    }
    for (entity, ids) in try container.decodeIfPresent([String: [String: [String: UInt64]]].self, forKey: .groups) ?? [:] {
      for (text, groups) in ids where !groups.isEmpty { objects[try key(entity, text, .groups)] = groups }
    }
  }

  /// The record as the Codable path below reads it, from the store decoder's nodes; nil for
  /// anything else (a member it does not know, a number that is not one, an id that is not
  /// one), which the Codable path then reads or refuses with its message.
  private static func read(_ decoding: JSONDecoding) -> RecentWrites? {
    let document = decoding.document
    func number(_ node: Int) -> UInt64? {
      document.nodes[node].kind == .number ? try? decoding.integer(node, UInt64.self, .at(0), nil) : nil
    }
    /// Calls `body` with each object of `{"<entity>": {"<id>": value, …}, …}`; false when the
    /// shape is not that, or `body` says false. (The parser refuses a key that comes twice.)
    func eachObject(_ node: Int, _ body: (ObjectKey, Int) -> Bool) -> Bool {
      var valid = true
      let isObject = document.forEachMember(of: node) { entityKey, ids in
        guard valid else { return }
        let entity = document.string(document.nodes[entityKey])
        let isIDs = document.forEachMember(of: ids) { idKey, value in
          let idNode = document.nodes[idKey]
          guard valid, !idNode.flag, let id = JSONDecoding.parseUUID(document.slice(idNode)) else {
            valid = false
            return
          }
          valid = body(ObjectKey(entity: entity, id: id), value)
        }
        valid = valid && isIDs
      }
      return valid && isObject
    }
    var members: [String: Int] = [:]
    var known = true
    let isObject = document.forEachMember(of: decoding.node) { key, value in
      let name = document.string(document.nodes[key])
      if CodingKeys(rawValue: name) == nil { known = false }
      members[name] = value
    }
    guard isObject, known, let horizon = members["horizon"].flatMap(number), let reshaped = members["reshaped"].flatMap(number),
      let objects = members["objects"]
    else { return nil }
    var recent = RecentWrites(horizon: horizon)
    recent.reshaped = reshaped
    let listed = eachObject(objects) { key, value in
      guard let hlc = number(value) else { return false }
      recent.objects[key] = [Self.allGroups: hlc]
      return true
    }
    guard listed else { return nil }
    guard let groups = members["groups"], document.nodes[groups].kind != .null else { return recent }
    let grouped = eachObject(groups) { key, value in
      var written: [String: UInt64] = [:]
      var valid = true
      let isObject = document.forEachMember(of: value) { group, time in
        guard let hlc = number(time) else {
          valid = false
          return
        }
        written[document.string(document.nodes[group])] = hlc
      }
      guard isObject, valid else { return false }
      if !written.isEmpty { recent.objects[key] = written }
      return true
    }
    return grouped ? recent : nil
  }

  func encode(to encoder: Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(horizon, forKey: .horizon)
    try container.encode(reshaped, forKey: .reshaped)
    if encoder is JSONEncoding {
      // The store's encoder takes the lists as their JSON, written in order: a compaction
      // writes them under the store's lock, and Codable's generic dictionaries, sorted by the
      // encoder, made them a third of it. The same bytes as below (`RecentWritesTests`).
      let (newest, groups) = json()
      try container.encode(newest, forKey: .objects)
      if let groups { try container.encode(groups, forKey: .groups) }
      return
    }
    var newest: [String: [String: UInt64]] = [:]
    var groups: [String: [String: [String: UInt64]]] = [:]
    for (key, written) in objects {
      let id = JSONWriter.uuidString(key.id)  // every compaction writes up to `limit` of them
      newest[key.entity, default: [:]][id] = written.values.max()!
      if written.count != 1 || written[Self.allGroups] == nil { groups[key.entity, default: [:]][id] = written }
    }
    try container.encode(newest, forKey: .objects)
    if !groups.isEmpty { try container.encode(groups, forKey: .groups) }
  }

  /// "objects" and "groups" (nil when empty) as `encode(to:)` writes them: keys in bytewise
  /// order, as the encoder sorts them.
  private func json() -> (newest: RawJSON, groups: RawJSON?) {
    func sorted(_ names: some Sequence<String>) -> [String] { names.sorted(by: JSONEncoding.keyPrecedes) }
    var byEntity: [String: [(id: String, written: [String: UInt64])]] = [:]
    for (key, written) in objects { byEntity[key.entity, default: []].append((JSONWriter.uuidString(key.id), written)) }
    let newest = JSONWriter(capacity: 64 + objects.count * 60)
    let groups = JSONWriter()
    newest.append(UInt8(ascii: "{"))
    groups.append(UInt8(ascii: "{"))
    var groupedEntities = 0
    for (entityIndex, entity) in sorted(byEntity.keys).enumerated() {
      if entityIndex > 0 { newest.append(UInt8(ascii: ",")) }
      newest.appendString(entity)
      newest.append(":{")
      var groupedIDs = 0
      // Uppercase hex and dashes: their Strings sort as their bytes.
      for (index, (id, written)) in byEntity[entity]!.sorted(by: { $0.id < $1.id }).enumerated() {
        if index > 0 { newest.append(UInt8(ascii: ",")) }
        newest.appendString(id)
        newest.append(UInt8(ascii: ":"))
        newest.appendInteger(written.values.max()!)
        guard written.count != 1 || written[Self.allGroups] == nil else { continue }
        if groupedIDs == 0 {
          if groupedEntities > 0 { groups.append("},") }
          groups.appendString(entity)
          groups.append(":{")
          groupedEntities += 1
        } else {
          groups.append(UInt8(ascii: ","))
        }
        groupedIDs += 1
        groups.appendString(id)
        groups.append(":{")
        for (groupIndex, group) in sorted(written.keys).enumerated() {
          if groupIndex > 0 { groups.append(UInt8(ascii: ",")) }
          groups.appendString(group)
          groups.append(UInt8(ascii: ":"))
          groups.appendInteger(written[group]!)
        }
        groups.append(UInt8(ascii: "}"))
      }
      newest.append(UInt8(ascii: "}"))
    }
    newest.append(UInt8(ascii: "}"))
    guard groupedEntities > 0 else { return (RawJSON(bytes: Array(newest.takeData())), nil) }
    groups.append("}}")
    return (RawJSON(bytes: Array(newest.takeData())), RawJSON(bytes: Array(groups.takeData())))
  }
}
