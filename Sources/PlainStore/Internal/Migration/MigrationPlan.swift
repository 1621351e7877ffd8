import Foundation

/// A schema's migrations as the merge applies them: to the properties of one object of a change
/// file written with an older schema version, by property name and exact JSON text. A pure
/// function of (entity, version written, properties), so every device running the same program
/// reads the same old file the same way.
struct MigrationPlan: Sendable {
  /// The migrations in order of version.
  let migrations: [SchemaMigration]
  /// Per entity, the properties migrations added and what they read as where a value lacks them.
  let defaults: [String: [String: RawJSON]]

  init(_ migrations: [SchemaMigration] = []) {
    self.migrations = migrations.sorted { $0.version < $1.version }
    var defaults: [String: [String: RawJSON]] = [:]
    for migration in self.migrations {
      for step in migration.steps {
        switch step.kind {
        case .add(let property, .success(let value)): defaults[step.entity, default: [:]][property] = value
        case .remove(let property): defaults[step.entity]?[property] = nil
        case .rename(let from, let to):
          if let value = defaults[step.entity]?[from] {
            defaults[step.entity]?[from] = nil
            defaults[step.entity]?[to] = value
          }
        case .add, .transform: break
        }
      }
    }
    self.defaults = defaults
  }

  var isEmpty: Bool { migrations.isEmpty }

  /// Checks what can be checked before any file is read: versions in order and within the
  /// schema's, names unique, defaults storable.
  static func validate(_ migrations: [SchemaMigration], schemaVersion: Int) throws(SchemaMigrationError) {
    var names: Set<String> = []
    var previous = Int.min
    for migration in migrations {
      guard names.insert(migration.name).inserted else {
        throw SchemaMigrationError("two migrations are named '\(migration.name)' — give each its own name.")
      }
      guard migration.version > previous else {
        throw SchemaMigrationError("migration '\(migration.name)' leads to version \(migration.version), not above the one before it — list migrations in order, one per version.")
      }
      guard migration.version <= schemaVersion else {
        throw SchemaMigrationError("migration '\(migration.name)' leads to version \(migration.version), above the schema's \(schemaVersion) — raise Schema.version with it.")
      }
      previous = migration.version
      for step in migration.steps {
        if let error = step.nameError { throw error }
        if case .add(_, .failure(let error)) = step.kind { throw error }
      }
    }
  }

  /// A property a migration could not transform: which migration, object and property.
  struct Failure: Equatable, Sendable, CustomStringConvertible {
    var migration: String
    var entity: String
    var id: UUID
    var property: String
    var value: String
    var description: String {
      "migration '\(migration)' cannot transform \(entity) \(id.uuidString) property '\(property)' (\(value))"
    }
  }

  /// Migrates the properties an upsert of a change file carries, written with `version`, to the
  /// current schema; `groups` (the field groups an update sets) follow renamed properties.
  /// Failed transforms keep the old value and are appended to `failures`.
  func migrate(
    _ entity: String, id: UUID, fields: inout [String: RawJSON], groups: inout [String]?, from version: Int, failures: inout [Failure]
  ) {
    for migration in migrations where migration.version > version {
      for step in migration.steps where step.entity == entity {
        switch step.kind {
        case .add:
          break  // filled in when the state is read (see `fillDefaults`): an old file sets nothing
        case .rename(let from, let to):
          if let value = fields.removeValue(forKey: from), fields[to] == nil { fields[to] = value }
          groups = groups?.map { group in
            group.split(separator: "+").map { $0 == from ? to : String($0) }.sorted().joined(separator: "+")
          }
        case .transform(let property, let apply):
          guard let value = fields[property], !value.isNull || apply(value) != nil else { continue }
          if let new = apply(value) {
            fields[property] = new
          } else {
            failures.append(Failure(migration: migration.name, entity: entity, id: id, property: property, value: value.description))
          }
        case .remove(let property):
          fields[property] = nil
        }
      }
    }
  }

  /// Gives an object the properties migrations added that it has no value for.
  func fillDefaults(_ entity: String, _ fields: inout [String: RawJSON]) {
    guard let defaults = defaults[entity] else { return }
    for (property, value) in defaults where fields[property] == nil { fields[property] = value }
  }
}
