import Foundation

/// The entities of a store, with their constraints, indexes, references and segmenting.
///
/// ```swift
/// let schema = Schema(version: 1, [
///   EntitySchema(Notebook.self, unique: [[\.id]], indexed: [\.createdAt]),
///   EntitySchema(Note.self, unique: [[\.notebookID, \.createdAt]], indexed: [\.createdAt],
///                references: [Reference(\.notebookID, to: Notebook.self, onDelete: .nullify)],
///                segmentedBy: \.createdAt),
/// ])
/// ```
public struct Schema: Sendable {
  /// Raise it whenever the entities change; a store written by a newer version is refused.
  public var version: Int
  public var entities: [EntitySchema]
  /// How data written with earlier versions reads in this one, oldest first (see
  /// ``SchemaMigration``).
  public var migrations: [SchemaMigration]

  public init(version: Int, _ entities: [EntitySchema], migrations: [SchemaMigration] = []) {
    self.version = version
    self.entities = entities
    self.migrations = migrations
  }

  /// The entity of this schema with that name (``Entity/entityName``), if any.
  public func entity(named name: String) -> EntitySchema? {
    entities.first { $0.name == name }
  }

  /// The first key path an entity names that its Codable writes under no key of its own.
  var nameError: StoreError? {
    entities.lazy.compactMap(\.nameError).first
  }
}

/// One entity of a ``Schema``: its uniqueness constraints, indexed keys, references and the date
/// key that splits its objects into monthly segment files.
public struct EntitySchema: Sendable {
  public let name: String
  public let uniqueKeyNames: [[String]]
  public let indexedKeyNames: [String]
  public let segmentKeyName: String?
  /// Properties that sync as one value: a merge takes all of a group from one writer, never
  /// one property from each (an event's start and end, an amount's value and unit).
  public let fieldGroupNames: [[String]]
  /// Per uniqueness constraint: whether it includes the segment key, so that one month's
  /// objects are all a value can collide with.
  let uniqueIsSegmentWide: [Bool]
  let type: any Entity.Type
  let uniqueKeys: [@Sendable (any Entity) -> UniqueKey]
  let references: [AnyReference]
  let segmentDate: (@Sendable (any Entity) -> Date)?
  /// The segment key itself, for reading bounds on it out of a fetch's predicate.
  let segmentKeyPath: (AnyKeyPath & Sendable)?
  let sortDescriptorOnSegmentKey: @Sendable (Bool) -> AnySortMatcher?
  /// An empty segment of this entity, holding its objects as their own type.
  let makeObjects: @Sendable () -> any SegmentObjects
  /// A key path the schema names (unique keys, indexes, references, the segment key, field
  /// groups) that names no key of the entity's JSON: change files and merges read properties
  /// by those keys (see `CodableKeyNames`). A container refuses to open or save with it.
  let nameError: StoreError?

  /// - Parameters:
  ///   - unique: key sets whose values may occur once; a save that repeats one merges into the
  ///     stored object (see ``StoreContext/save()``). `nil` is a value like any other here.
  ///   - indexed: keys fetches sort on; recorded in `store.json`.
  ///   - references: to-one references to other entities, with their delete rules.
  ///   - segmentedBy: a date key; objects are kept in one file per month of it, and fetches
  ///     bounded in it (``FetchDescriptor/dateRange``) read only their months.
  ///   - fieldGroups: properties that must change together when devices' edits merge (see
  ///     ``fieldGroupNames``); every other property merges on its own.
  public init<E: Entity>(
    _ type: E.Type,
    unique: [[PartialKeyPath<E> & Sendable]] = [],
    indexed: [PartialKeyPath<E> & Sendable] = [],
    references: [Reference<E>] = [],
    segmentedBy: (KeyPath<E, Date> & Sendable)? = nil,
    fieldGroups: [[PartialKeyPath<E> & Sendable]] = []
  ) {
    self.name = E.entityName
    // Every name in files is the key the entity's Codable writes (see `CodableKeyNames`); a
    // key path without one is a schema error, reported when a container opens or saves.
    var nameError: StoreError?
    func names(_ keyPaths: [PartialKeyPath<E>], _ role: String) -> [String] {
      switch CodableKeyNames.names(of: keyPaths, in: E.self, role: role) {
      case .success(let names): return names
      case .failure(let error):
        if nameError == nil { nameError = error }
        return keyPaths.map(displayName(of:))
      }
    }
    self.fieldGroupNames = fieldGroups.enumerated().map { names($1, "fieldGroups[\($0)]") }
    self.type = type
    self.uniqueKeyNames = unique.enumerated().map { names($1, "unique[\($0)]") }
    self.indexedKeyNames = names(indexed, "indexed")
    self.segmentKeyName = segmentedBy.map { names([$0], "segmentedBy")[0] }
    _ = names(references.map(\.key), "references")
    self.nameError = nameError
    self.segmentKeyPath = segmentedBy
    self.uniqueIsSegmentWide = uniqueKeyNames.map { [segmentKeyName] names in segmentKeyName.map(names.contains) ?? false }
    let typedKeys = unique.map { keyPaths in UniqueKey.reader(keyPaths.map(UniqueKeyPart.reader)) }
    self.uniqueKeys = zip(unique, typedKeys).map { keyPaths, keyOf in
      UniqueKey.storedReader(E.self, keyPaths.map(UniqueKeyPart.storedReader)) ?? { keyOf($0 as! E) }
    }
    self.makeObjects = { TypedSegmentObjects<E>(uniqueKeys: typedKeys) }
    self.references = references.map(AnyReference.init)
    if let segmentedBy {
      if let field = StoredField(segmentedBy) {
        self.segmentDate = { field.read(boxed: $0) }
      } else {
        self.segmentDate = { ($0 as! E)[keyPath: segmentedBy] }
      }
      self.sortDescriptorOnSegmentKey = { reverse in
        AnySortMatcher(SortDescriptor(segmentedBy, order: reverse ? .reverse : .forward))
      }
    } else {
      self.segmentDate = nil
      self.sortDescriptorOnSegmentKey = { _ in nil }
    }
  }
}

/// The values of one uniqueness constraint for one object: two objects of an entity share a key
/// set exactly when their keys for it are equal — the rule by which a save merges an insert
/// into a stored object. Nil is a value like any other.
public struct UniqueKey: Hashable, Sendable {
  let values: [UniqueKeyPart]
  /// The values' hash, taken once: a save looks each key up in several indexes, and hashing the
  /// parts again copies each one.
  private let hash: Int

  init(values: [UniqueKeyPart]) {
    self.values = values
    var hasher = Hasher()
    hasher.combine(values)
    hash = hasher.finalize()
  }

  public static func == (lhs: UniqueKey, rhs: UniqueKey) -> Bool {
    lhs.hash == rhs.hash && lhs.values == rhs.values
  }

  public func hash(into hasher: inout Hasher) { hasher.combine(hash) }

  /// A function that reads an object's key from its parts' readers. Keys of up to three parts
  /// are read without a loop: this code runs unspecialized (generic over `E`), where a `map`
  /// over the readers costs more than reading the properties.
  static func reader<E>(_ parts: [@Sendable (E) -> UniqueKeyPart]) -> @Sendable (E) -> UniqueKey {
    switch parts.count {
    case 1:
      let first = parts[0]
      return { UniqueKey(values: [first($0)]) }
    case 2:
      let (first, second) = (parts[0], parts[1])
      return { UniqueKey(values: [first($0), second($0)]) }
    case 3:
      let (first, second, third) = (parts[0], parts[1], parts[2])
      return { UniqueKey(values: [first($0), second($0), third($0)]) }
    default:
      return { object in UniqueKey(values: parts.map { $0(object) }) }
    }
  }

  /// A function that reads an object's key from its bytes, opened once, when every part is a
  /// `StoredField` (see `UniqueKeyPart.storedReader`): a save reads the key of every object it
  /// writes, and the reader above first casts the object to its type (see `StoredField`).
  static func storedReader<E>(_ type: E.Type, _ parts: [StoredPart?]) -> (@Sendable (any Entity) -> UniqueKey)? {
    let stored = parts.compactMap { $0 }
    guard !stored.isEmpty, stored.count == parts.count else { return nil }
    return { object in _EntityBytes.reading(object, as: E.self) { bytes in UniqueKey(values: stored.map { $0(bytes) }) } }
  }

  typealias StoredPart = @Sendable (_EntityBytes) -> UniqueKeyPart
}

extension EntitySchema {
  /// The object's key for each of the entity's unique key sets, in the order of
  /// ``uniqueKeyNames``; `object` must be of this entity's type.
  public func uniqueKeys(of object: any Entity) -> [UniqueKey] {
    uniqueKeys.map { $0(object) }
  }

  /// The object's value of the segment key (``segmentKeyName``); nil when the entity has none.
  public func segmentDate(of object: any Entity) -> Date? {
    segmentDate?(object)
  }
}

/// One property of a unique key. The types entities use are held as themselves, so that
/// computing and hashing a key needs no boxing; any other Hashable type is boxed.
enum UniqueKeyPart: Hashable, @unchecked Sendable {  // `other` holds a Sendable entity property
  case null
  case uuid(UUID)
  case date(Date)
  case string(String)
  case int(Int)
  case double(Double)
  case bool(Bool)
  case other(AnyHashable)

  /// A function that reads one key property, chosen once per key path.
  static func reader<E>(_ keyPath: PartialKeyPath<E>) -> @Sendable (E) -> UniqueKeyPart {
    func typed<V>(_ type: V.Type, _ part: @escaping @Sendable (V) -> UniqueKeyPart) -> (@Sendable (E) -> UniqueKeyPart)? {
      if let path = keyPath as? KeyPath<E, V> {
        if let field = StoredField(path) { return { part(field.read($0)) } }
        return UncheckedReader<E> { part($0[keyPath: path]) }.read
      }
      if let path = keyPath as? KeyPath<E, V?> {
        if let field = StoredField(path) { return { field.read($0).map(part) ?? .null } }
        return UncheckedReader<E> { $0[keyPath: path].map(part) ?? .null }.read
      }
      return nil
    }
    if let read = typed(UUID.self, UniqueKeyPart.uuid) { return read }
    if let read = typed(Date.self, UniqueKeyPart.date) { return read }
    if let read = typed(String.self, UniqueKeyPart.string) { return read }
    if let read = typed(Int.self, UniqueKeyPart.int) { return read }
    if let read = typed(Double.self, UniqueKeyPart.double) { return read }
    if let read = typed(Bool.self, UniqueKeyPart.bool) { return read }
    // Another type (an enum of the app's, say): its type is opened here, once, rather than the
    // value cast to AnyHashable on every read, which looked its conformance up each time.
    let valueType = type(of: keyPath).valueType
    if let optional = valueType as? any OptionalKeyPart.Type { return optional.reader(keyPath) }
    if let hashable = valueType as? any Hashable.Type { return other(hashable, keyPath) }
    return UncheckedReader<E> { object in (object[keyPath: keyPath] as? AnyHashable).map(UniqueKeyPart.other) ?? .null }.read
  }

  /// A function that reads one key property from the bytes of an `E`, when it is a
  /// `StoredField`; nil otherwise. The types the store knows are read by closures made for
  /// each, not generic over the type: there, loading a value and unwrapping an optional each
  /// ask the runtime for the type's metadata.
  static func storedReader<E>(_ keyPath: PartialKeyPath<E>) -> UniqueKey.StoredPart? {
    func offset<V>(_ type: V.Type) -> Int? { (keyPath as? KeyPath<E, V>).flatMap(StoredField.init)?.offset }
    if let at = offset(UUID.self) { return { .uuid($0.load(at: at, as: UUID.self)) } }
    if let at = offset(UUID?.self) { return { $0.load(at: at, as: UUID?.self).map(UniqueKeyPart.uuid) ?? .null } }
    if let at = offset(Date.self) { return { .date($0.load(at: at, as: Date.self)) } }
    if let at = offset(Date?.self) { return { $0.load(at: at, as: Date?.self).map(UniqueKeyPart.date) ?? .null } }
    if let at = offset(Int.self) { return { .int($0.load(at: at, as: Int.self)) } }
    if let at = offset(Int?.self) { return { $0.load(at: at, as: Int?.self).map(UniqueKeyPart.int) ?? .null } }
    if let at = offset(Double.self) { return { .double($0.load(at: at, as: Double.self)) } }
    if let at = offset(Double?.self) { return { $0.load(at: at, as: Double?.self).map(UniqueKeyPart.double) ?? .null } }
    if let at = offset(Bool.self) { return { .bool($0.load(at: at, as: Bool.self)) } }
    if let at = offset(Bool?.self) { return { $0.load(at: at, as: Bool?.self).map(UniqueKeyPart.bool) ?? .null } }
    // Another type of plain bytes (an enum of the app's), as `reader` reads it. An optional one
    // is left to `reader`: nil is `.null` there, not a value.
    let valueType = type(of: keyPath).valueType
    guard !(valueType is any OptionalKeyPart.Type), let hashable = valueType as? any Hashable.Type else { return nil }
    return storedOther(hashable, keyPath)
  }

  private static func storedOther<E, V: Hashable>(_ type: V.Type, _ keyPath: PartialKeyPath<E>) -> UniqueKey.StoredPart? {
    guard let field = StoredField(keyPath as! KeyPath<E, V>) else { return nil }
    return UncheckedReader<_EntityBytes> { .other(AnyHashable(field.read(at: $0))) }.read
  }

  private static func other<E, V: Hashable>(_ type: V.Type, _ keyPath: PartialKeyPath<E>) -> @Sendable (E) -> UniqueKeyPart {
    let path = keyPath as! KeyPath<E, V>
    return UncheckedReader { .other(AnyHashable($0[keyPath: path])) }.read
  }
}

/// A reader of an entity property (from the entity, or from its bytes), which is Sendable as
/// the entity is, built where the compiler cannot see it.
private struct UncheckedReader<E>: @unchecked Sendable {
  let body: (E) -> UniqueKeyPart
  init(_ body: @escaping (E) -> UniqueKeyPart) { self.body = body }
  var read: @Sendable (E) -> UniqueKeyPart { { [self] in body($0) } }
}

/// An optional key property of another type: nil is `.null`, as for the types the store knows,
/// and a value is `.other` of the value itself.
private protocol OptionalKeyPart {
  static func reader<E>(_ keyPath: PartialKeyPath<E>) -> @Sendable (E) -> UniqueKeyPart
}

extension Optional: OptionalKeyPart where Wrapped: Hashable {
  fileprivate static func reader<E>(_ keyPath: PartialKeyPath<E>) -> @Sendable (E) -> UniqueKeyPart {
    let path = keyPath as! KeyPath<E, Wrapped?>
    return UncheckedReader { $0[keyPath: path].map { .other(AnyHashable($0)) } ?? .null }.read
  }
}

/// A reference with its entity type erased, so the engine can follow it on any object.
struct AnyReference: Sendable {
  let keyName: String
  let targetEntity: String
  let deleteRule: DeleteRule
  /// The reference's key path, for reading it without a cast from a table of its entity.
  let key: AnyKeyPath & Sendable
  let target: @Sendable (any Entity) -> UUID?
  /// The object with the reference set to another target (nil: none).
  let pointing: @Sendable (any Entity, UUID?) -> any Entity

  init<E: Entity>(_ reference: Reference<E>) {
    keyName = reference.keyName
    targetEntity = reference.targetEntity
    deleteRule = reference.deleteRule
    let key = reference.key
    self.key = key
    if let field = StoredField(key) {
      target = { field.read(boxed: $0) }
    } else {
      target = { ($0 as! E)[keyPath: key] }
    }
    pointing = { object, target in
      var copy = object as! E
      copy[keyPath: key] = target
      return copy
    }
  }
}

/// Tells whether a fetch's first sort descriptor is the segment key, newest or oldest first.
struct AnySortMatcher: Sendable {
  let matches: @Sendable (Any) -> Bool
  init<E>(_ descriptor: SortDescriptor<E>) {
    matches = { ($0 as? SortDescriptor<E>) == descriptor }
  }
}
