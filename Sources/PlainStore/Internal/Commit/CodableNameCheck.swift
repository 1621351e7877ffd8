import Foundation

/// Holds a schema's property names to the entity's Codable keys. Change files, field groups and
/// unique keys are read by name from an object's JSON, so a key path whose property the entity's
/// `CodingKeys` writes under another name (or not at all) would merge as if the property never
/// changed: a schema error, named at the first save that shows it, before anything is written.
///
/// A name is checked once an object holds a value there (a nil is left out of the JSON either
/// way); once every name of an entity has been seen, its saves cost a lookup.
enum CodableNameCheck {
  /// Per entity, the names already seen in its JSON, for the life of the process.
  private static let seen = StoreMutex<[String: Set<String>]>([:])

  static func check(_ changes: [PendingChange], schema: Schema) throws {
    var known = seen.withLock { $0 }
    var learned = false
    defer { if learned { seen.withLock { $0.merge(known) { $0.union($1) } } } }
    for change in changes {
      guard let value = change.value, let encoded = change.encoded, let entity = schema.entity(named: change.entity) else { continue }
      let done = known[entity.name] ?? []
      guard !entity.namedProperties.allSatisfy({ done.contains($0.name) }) else { continue }
      let keys = Set(try StoreCoding.makeDecoder().decode([String: RawJSON].self, from: Data(encoded.bytes)).keys)
      for property in entity.namedProperties where !done.contains(property.name) && property.holdsValue(value) {
        guard keys.contains(property.name) else {
          throw StoreError(
            .invalidObject, path: "\(entity.name).\(property.name)",
            "the schema names this property '\(property.name)', but \(entity.name)'s Codable writes no such key (its CodingKeys name it otherwise) — name the stored property as its JSON does, or drop its CodingKeys entry; nothing was saved.")
        }
        known[entity.name, default: []].insert(property.name)
        learned = true
      }
    }
  }
}
