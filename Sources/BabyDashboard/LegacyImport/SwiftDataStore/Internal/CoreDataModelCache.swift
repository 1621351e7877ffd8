import Foundation

/// The model Core Data archived into `Z_MODELCACHE` when it wrote the store: each entity's
/// attributes (with their `NSAttributeType` codes) and relationships (with their inverses).
///
/// The blob is raw DEFLATE of an `NSKeyedArchiver` binary property list whose root is an
/// `NSManagedObjectModel` (research §1.3). It is read without `NSKeyedUnarchiver`, which cannot
/// make Core Data classes on Linux: the archive's objects are walked by class name and key.
struct CoreDataModelCache: Equatable {
  struct Entity: Equatable {
    var name: String
    var properties: [String: Property]
  }

  struct Property: Equatable {
    var name: String
    /// The archived class: `NSAttributeDescription`, `NSRelationshipDescription`, …
    var kind: String
    /// `NSAttributeType`: 700 String, 900 Date, 1000 Binary, 1100 UUID, 2100 Composite, …
    var attributeType: Int?
    /// For a relationship: 1 for to-one, 0 for to-many.
    var maxCount: Int?
    /// For a relationship: its inverse's name, `nil` for none.
    var inverseName: String?
  }

  let entities: [String: Entity]

  func entity(_ name: String) -> Entity? { entities[name] }

  /// The store's model cache, or `nil` and why it could not be used (the reader then relies on
  /// the naming rule alone).
  static func load(from connection: SQLiteConnection, tables: [String]) throws -> (cache: CoreDataModelCache?, reason: String) {
    guard tables.contains("Z_MODELCACHE") else { return (nil, "the store has no Z_MODELCACHE table") }
    guard case .blob(let compressed) = try connection.scalar("SELECT Z_CONTENT FROM Z_MODELCACHE LIMIT 1") else {
      return (nil, "Z_MODELCACHE holds no model")
    }
    let archive: BinaryPropertyList.Value
    do {
      archive = try BinaryPropertyList.parse(try RawInflate.inflate(compressed))
    } catch let failure as RawInflate.Failure {
      return (nil, "Z_MODELCACHE does not inflate: \(failure)")
    } catch {
      return (nil, "Z_MODELCACHE is not an archived model: \(error)")
    }
    guard let model = CoreDataModelCache(archive: archive) else {
      return (nil, "Z_MODELCACHE is not an archived NSManagedObjectModel")
    }
    let missing = SwiftDataStoreReader.entityNames.filter { model.entities[$0] == nil }
    guard missing.isEmpty else {
      return (nil, "Z_MODELCACHE does not describe \(missing.sorted().joined(separator: ", "))")
    }
    return (model, "")
  }

  /// Walks a keyed archive: every object of class `NSEntityDescription`, its `NSProperties`.
  init?(archive: BinaryPropertyList.Value) {
    guard case .dictionary(let root) = archive, case .array(let objects)? = root["$objects"] else { return nil }
    func resolve(_ value: BinaryPropertyList.Value?) -> BinaryPropertyList.Value? {
      if case .uid(let index)? = value { return objects.indices.contains(index) ? objects[index] : nil }
      return value
    }
    func fields(_ value: BinaryPropertyList.Value?) -> [String: BinaryPropertyList.Value]? {
      if case .dictionary(let fields)? = resolve(value) { return fields }
      return nil
    }
    func className(_ object: [String: BinaryPropertyList.Value]) -> String? {
      if case .string(let name)? = fields(object["$class"])?["$classname"] { return name }
      return nil
    }
    func string(_ value: BinaryPropertyList.Value?) -> String? {
      switch resolve(value) {
      case .string(let text)?: return text
      case .dictionary(let object)?: return string(object["NS.string"])  // an archived NSMutableString
      default: return nil
      }
    }
    func integer(_ value: BinaryPropertyList.Value?) -> Int? {
      if case .integer(let number)? = resolve(value) { return Int(clamping: number) }
      return nil
    }
    /// The values of an archived NSDictionary / NSArray / NSSet, in archive order.
    func members(_ value: BinaryPropertyList.Value?) -> [BinaryPropertyList.Value] {
      if case .array(let references)? = fields(value)?["NS.objects"] { return references }
      return []
    }

    var entities: [String: Entity] = [:]
    for case .dictionary(let object) in objects where className(object) == "NSEntityDescription" {
      guard let name = string(object["NSEntityName"]) else { continue }
      var properties: [String: Property] = [:]
      for member in members(object["NSProperties"]) {
        guard let property = fields(member), let kind = className(property), let propertyName = string(property["NSPropertyName"]) else {
          continue
        }
        properties[propertyName] = Property(
          name: propertyName, kind: kind, attributeType: integer(property["NSAttributeType"]),
          maxCount: integer(property["NSMaxCount"]), inverseName: string(property["_NSInverseRelationshipName"]))
      }
      entities[name] = Entity(name: name, properties: properties)
    }
    guard !entities.isEmpty else { return nil }
    self.entities = entities
  }
}
