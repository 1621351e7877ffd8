import Foundation

/// The entities of a store, with their constraints, indexes, references and segmenting.
///
/// ```swift
/// let schema = Schema(version: 1, [
///   EntitySchema(BabyProfile.self, unique: [[\.id]], indexed: [\.createdAt]),
///   EntitySchema(FeedSession.self, unique: [[\.profileID, \.startTime]], indexed: [\.startTime],
///                references: [Reference(\.profileID, to: BabyProfile.self, onDelete: .nullify)],
///                segmentedBy: \.startTime),
/// ])
/// ```
public struct Schema: Sendable {
  /// Raise it whenever the entities change; a store written by a newer version is refused.
  public var version: Int
  public var entities: [EntitySchema]

  public init(version: Int, _ entities: [EntitySchema]) {
    self.version = version
    self.entities = entities
  }

  func entity(named name: String) -> EntitySchema? {
    entities.first { $0.name == name }
  }
}

/// One entity of a ``Schema``: its uniqueness constraints, indexed keys, references and the date
/// key that splits its objects into monthly segment files.
public struct EntitySchema: Sendable {
  public let name: String
  public let uniqueKeyNames: [[String]]
  public let indexedKeyNames: [String]
  public let segmentKeyName: String?
  /// Per uniqueness constraint: whether it includes the segment key, so that one month's
  /// objects are all a value can collide with.
  let uniqueIsSegmentWide: [Bool]
  let type: any Entity.Type
  let uniqueKeys: [@Sendable (any Entity) -> UniqueKey]
  let references: [AnyReference]
  let segmentDate: (@Sendable (any Entity) -> Date)?
  let sortDescriptorOnSegmentKey: @Sendable (Bool) -> AnySortMatcher?

  /// - Parameters:
  ///   - unique: key sets whose values may occur once; a save that repeats one merges into the
  ///     stored object (see ``StoreContext/save()``). `nil` is a value like any other here.
  ///   - indexed: keys the app sorts on; recorded in `store.json`.
  ///   - references: to-one references to other entities, with their delete rules.
  ///   - segmentedBy: a date key; objects are kept in one file per month of it, and fetches
  ///     bounded in it (``FetchDescriptor/dateRange``) read only their months.
  public init<E: Entity>(
    _ type: E.Type,
    unique: [[PartialKeyPath<E> & Sendable]] = [],
    indexed: [PartialKeyPath<E> & Sendable] = [],
    references: [Reference<E>] = [],
    segmentedBy: (KeyPath<E, Date> & Sendable)? = nil
  ) {
    self.name = E.entityName
    self.type = type
    self.uniqueKeyNames = unique.map { $0.map(propertyName(of:)) }
    self.indexedKeyNames = indexed.map(propertyName(of:))
    self.segmentKeyName = segmentedBy.map(propertyName(of:))
    self.uniqueIsSegmentWide = uniqueKeyNames.map { [segmentKeyName] names in segmentKeyName.map(names.contains) ?? false }
    self.uniqueKeys = unique.map { keyPaths in
      { object in UniqueKey(values: keyPaths.map { (object as! E)[keyPath: $0] as? AnyHashable }) }
    }
    self.references = references.map(AnyReference.init)
    if let segmentedBy {
      self.segmentDate = { ($0 as! E)[keyPath: segmentedBy] }
      self.sortDescriptorOnSegmentKey = { reverse in
        AnySortMatcher(SortDescriptor(segmentedBy, order: reverse ? .reverse : .forward))
      }
    } else {
      self.segmentDate = nil
      self.sortDescriptorOnSegmentKey = { _ in nil }
    }
  }
}

/// The values of one uniqueness constraint for one object.
struct UniqueKey: Hashable, @unchecked Sendable {  // AnyHashable of Sendable entity properties
  var values: [AnyHashable?]
}

/// A reference with its entity type erased, so the engine can follow it on any object.
struct AnyReference: Sendable {
  let keyName: String
  let targetEntity: String
  let deleteRule: DeleteRule
  let target: @Sendable (any Entity) -> UUID?
  let nullified: @Sendable (any Entity) -> any Entity

  init<E: Entity>(_ reference: Reference<E>) {
    keyName = reference.keyName
    targetEntity = reference.targetEntity
    deleteRule = reference.deleteRule
    let key = reference.key
    target = { ($0 as! E)[keyPath: key] }
    nullified = { object in
      var copy = object as! E
      copy[keyPath: key] = nil
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
