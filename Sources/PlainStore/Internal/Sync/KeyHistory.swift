/// Which writes change the key history the fold reads merged identities from
/// (`MergedState.aliases()`): which objects held one unique key at one moment, and so are one.
/// The one place both roads of a merge ask it: a merge of arrivals alone folds such a write by
/// itself only when it comes after every delete and key change the cache holds
/// (`StoreState.newestKeyChange`), which a commit and a merge raise by `changesKeys`.
extension MergeSchema {
  /// Whether a write is part of the key history: a delete (its object held its keys until
  /// then; a referrer's nullified key changes), or an upsert that sets a group holding part of
  /// a unique key (one naming no groups sets them all).
  func writesKeyHistory(_ object: ObjectChange) -> Bool {
    guard object.kind == .upsert, let entity = entities[object.entity] else { return true }
    guard let groups = object.groups else { return !entity.keyGroups.isEmpty }
    return groups.contains { entity.keyGroups.contains($0) }
  }

  /// Whether a write may change, after the fact, which objects held a unique key at one moment:
  /// a delete, or a write of the key history to an object that `existed` — unless its `values`
  /// before and after (a commit knows them) hold the same keys: a feed's end set, its start
  /// kept, holds its key as before.
  func changesKeys(_ object: ObjectChange, existed: Bool, values: (before: any PlainStore.Entity, after: any PlainStore.Entity, EntitySchema)? = nil)
    -> Bool
  {
    if object.kind == .delete { return true }
    guard existed, writesKeyHistory(object) else { return false }
    guard let (before, after, keys) = values else { return true }
    return keys.uniqueKeys.indices.contains { keys.uniqueKeys[$0](before) != keys.uniqueKeys[$0](after) }
  }
}
