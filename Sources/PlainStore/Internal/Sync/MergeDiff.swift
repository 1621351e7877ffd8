import Foundation

/// What a merge changes in the cache: per object, the fold's value against the cache's, as the
/// local log's changes and the merge report's lines. The one comparison both merges make — the
/// one that folds every file, and the one that folds only what arrived.
struct MergeDiff {
  var changes: [LogChange] = []
  var reported: [MergeReport.Change] = []

  /// Adds one entity's differences. `current`: the cache's objects, `target`: the fold's, each
  /// over the same ids (every object of the entity, or only those a merge touched).
  /// `mergedFrom`: other devices' objects that merged into one of `current`, by its id; the
  /// report says so of it even when the merge changed none of its values.
  mutating func add(
    entity: String, table: EntityTable, current: [UUID: any Entity], target: [UUID: any Entity], mergedFrom: [UUID: [UUID]] = [:]
  ) {
    for (id, value) in target {
      let segment = table.segment(of: value)
      if let old = current[id] {
        guard !entitiesEqual(old, value) else {
          if let aliases = mergedFrom[id] {
            reported.append(MergeReport.Change(entity: entity, id: id, kind: .updated, before: old, after: value, mergedFrom: aliases))
          }
          continue
        }
        let from = table.segment(of: old)
        changes.append(LogChange(entity: entity, id: id, kind: .update, segment: segment, from: from == segment ? nil : from, value: value))
        reported.append(
          MergeReport.Change(entity: entity, id: id, kind: .updated, before: old, after: value, mergedFrom: mergedFrom[id] ?? []))
      } else {
        changes.append(LogChange(entity: entity, id: id, kind: .insert, segment: segment, from: nil, value: value))
        reported.append(MergeReport.Change(entity: entity, id: id, kind: .inserted, before: nil, after: value))
      }
    }
    for (id, old) in current where target[id] == nil {
      changes.append(LogChange(entity: entity, id: id, kind: .delete, segment: table.segment(of: old), from: nil, value: nil))
      reported.append(MergeReport.Change(entity: entity, id: id, kind: .deleted, before: old, after: nil))
    }
  }
}
