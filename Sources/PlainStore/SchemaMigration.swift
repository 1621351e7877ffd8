import Foundation

/// One named step of a schema's history, as GRDB's `DatabaseMigrator` registers migrations and
/// SwiftData's `SchemaMigrationPlan` lists stages: what turns data written with the schema
/// version before `version` into data of `version`.
///
/// A store never rewrites its change files (they are the truth, and other devices hold copies),
/// so a migration is a pure function of the values a change file carries: each change file
/// records the schema version it was written with, and the steps from that version on are
/// applied whenever it is read. The local cache is rebuilt in the new schema the first time a
/// program of the new version opens the store; store.json records the version once the cache
/// is rebuilt, all or nothing.
///
/// ```swift
/// let schema = Schema(version: 2, [EntitySchema(Note.self)], migrations: [
///   SchemaMigration("notes have a pinned flag and a title", to: 2, [
///     .renameProperty("text", to: \Note.title),
///     .addProperty(\Note.isPinned, default: false),
///   ]),
/// ])
/// ```
public struct SchemaMigration: Sendable {
  /// Unique within the schema: how store.json and errors name the migration.
  public let name: String
  /// The schema version the migration leads to.
  public let version: Int
  public let steps: [Step]

  public init(_ name: String, to version: Int, _ steps: [Step]) {
    self.name = name
    self.version = version
    self.steps = steps
  }

  /// One change to one entity's properties. Every step is idempotent: applied to a value that
  /// has it already (a property present, a rename done), it changes nothing.
  public struct Step: Sendable {
    let entity: String
    let kind: Kind
    /// A key path the step names that names no key of the entity's JSON (see
    /// ``CodableKeyNames``): reported when a container opens, before anything is read.
    var nameError: SchemaMigrationError?

    init(entity: String, kind: Kind, nameError: SchemaMigrationError? = nil) {
      self.entity = entity
      self.kind = kind
      self.nameError = nameError
    }

    /// The name in files of a key path a step names, with the error it makes when it has none.
    static func fileName<E: Entity>(of keyPath: PartialKeyPath<E>, step: String) -> (name: String, error: SchemaMigrationError?) {
      switch CodableKeyNames.names(of: [keyPath], in: E.self, role: step) {
      case .success(let names): return (names[0], nil)
      case .failure(let error): return (displayName(of: keyPath), SchemaMigrationError("\(error.path): \(error.detail)"))
      }
    }

    enum Kind: Sendable {
      /// A property old values lack; it reads as `value` until an object sets it.
      case add(property: String, value: Result<RawJSON, SchemaMigrationError>)
      case rename(from: String, to: String)
      /// A new value from the old one's JSON text; nil when the old one does not read as the
      /// type the transform takes (the value is kept, and reading the object names it).
      case transform(property: String, apply: @Sendable (RawJSON) -> RawJSON?)
      case remove(property: String)
    }

    /// A new property: old values read with `value` where they have none. Give the property a
    /// default in the type too only if it must decode files no migration reads (none here).
    public static func addProperty<E: Entity, V: Encodable & Sendable>(_ keyPath: KeyPath<E, V> & Sendable, default value: V) -> Step {
      let (property, nameError) = Step.fileName(of: keyPath, step: "addProperty")
      let encoded: Result<RawJSON, SchemaMigrationError>
      do {
        encoded = .success(RawJSON(bytes: Array(try StoreCoding.makeEncoder().encode(value))))
      } catch {
        encoded = .failure(SchemaMigrationError("the default of \(E.entityName).\(property) cannot be stored: \(StoreCoding.reason(error)) — give it a value store files can hold."))
      }
      return Step(entity: E.entityName, kind: .add(property: property, value: encoded), nameError: nameError)
    }

    /// A property that had another name: its old values move to the new name.
    public static func renameProperty<E: Entity, V>(_ oldName: String, to keyPath: KeyPath<E, V> & Sendable) -> Step {
      let (property, nameError) = Step.fileName(of: keyPath, step: "renameProperty")
      return Step(entity: E.entityName, kind: .rename(from: oldName, to: property), nameError: nameError)
    }

    /// A property whose values change type or meaning: each old value, read as `Old`, is
    /// replaced by `transform(old)`. The text of a value moves exactly: nothing passes through
    /// a Double on the way.
    public static func transformProperty<E: Entity, Old: Decodable & SendableMetatype, New: Encodable & Sendable>(
      _ keyPath: KeyPath<E, New> & Sendable, from _: Old.Type, _ transform: @escaping @Sendable (Old) -> New
    ) -> Step {
      let (property, nameError) = Step.fileName(of: keyPath, step: "transformProperty")
      return Step(
        entity: E.entityName,
        kind: .transform(property: property) { text in
          guard let old = try? StoreCoding.makeDecoder().decode(Old.self, from: Data(text.bytes)),  // not an Old: kept as it is
            let new = try? StoreCoding.makeEncoder().encode(transform(old))  // unstorable: kept, and reading names it
          else { return nil }
          return RawJSON(bytes: Array(new))
        }, nameError: nameError)
    }

    /// A property the entity no longer has: old values drop it.
    public static func removeProperty<E: Entity>(_ name: String, of _: E.Type) -> Step {
      Step(entity: E.entityName, kind: .remove(property: name))
    }
  }
}

/// A schema whose migrations cannot run: out of order, beyond the schema's version, a name
/// used twice, a default that cannot be stored. Found when a container opens, before anything
/// is read or written.
public struct SchemaMigrationError: Error, Equatable, Sendable, CustomStringConvertible {
  public var description: String
  init(_ description: String) { self.description = description }
}
