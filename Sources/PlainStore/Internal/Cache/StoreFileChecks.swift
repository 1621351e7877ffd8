import Foundation

extension StoreHeader {
  /// A store of a newer schema than this program's is left untouched: nothing reads it further.
  func refuseIfNewer(than schema: Schema, _ files: StoreFiles) throws {
    guard schemaVersion > schema.version else { return }
    throw StoreError(
      .newerSchema(schemaVersion), path: files.display("store.json"),
      "the store has schema version \(schemaVersion) but this program knows only up to \(schema.version) — update the program; the store was left untouched.")
  }
}

extension Manifest {
  /// What a manifest read from disk must be before a state adopts it, at an open and at each
  /// catch-up: segment names a store writes, values of this schema version and, opening, the
  /// merge rules of this program.
  func check(for schema: Schema, _ files: StoreFiles, opening: Bool) throws {
    try checkSegmentNames(schema, files)
    try checkSchemaVersion(schema, files, opening: opening)
    if opening { try checkMergeRules(files) }
  }

  /// The segment file names a manifest lists become paths: each must be a name the store
  /// writes, for an entity of the schema, so that no manifest can lead outside `segments/`.
  private func checkSegmentNames(_ schema: Schema, _ files: StoreFiles) throws {
    let entities = Set(schema.entities.map(\.name))
    for (entity, entries) in segments {
      for (segment, entry) in entries
      where !entities.contains(entity) || !SegmentKey.isValid(segment) || !SegmentKey.isSegmentFileName(entry.file, entities: [entity]) {
        throw StoreError(
          .damaged, path: files.display(files.manifestPath), "lists '\(entry.file)' for \(entity) \(segment), which is not a segment file name.")
      }
    }
  }

  /// The segments a manifest lists hold values of this program's schema version (a manifest
  /// written before versions were recorded is taken as this version's). Opening, store.json has
  /// the last word: a cache of another version is a migration killed before store.json took
  /// the new version, rebuilt as damage. Open, a newer cache means a newer program migrated.
  private func checkSchemaVersion(_ schema: Schema, _ files: StoreFiles, opening: Bool) throws {
    guard let version = schemaVersion, version != schema.version else { return }
    if version > schema.version && !opening {
      throw StoreError(
        .newerSchema(version), path: files.display(files.manifestPath),
        "a newer program migrated the store to schema version \(version) while this one (version \(schema.version)) had it open — update the program.")
    }
    throw StoreError(.damaged, path: files.display(files.manifestPath), "holds a cache of schema version \(version), not \(schema.version).")
  }

  /// The segments were folded by this program's rules, or could not tell them apart: a cache
  /// that shows merged or deleted objects (where the rules of survivors decide) and was folded
  /// by other rules is rebuilt, as damage, so that it is again the fold of its files.
  private func checkMergeRules(_ files: StoreFiles) throws {
    let rules = mergeRules ?? 1
    guard rules != MergedState.rulesVersion, folded != nil, retired.map({ !$0.isEmpty }) ?? true else { return }
    throw StoreError(
      .damaged, path: files.display(files.manifestPath),
      "holds a cache folded by the merge rules of version \(rules), not \(MergedState.rulesVersion) (which object of two that met on a unique key survives, and where an edit of the other goes).")
  }
}
