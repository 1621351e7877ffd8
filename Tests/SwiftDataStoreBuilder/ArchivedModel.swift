import CZlib
import Foundation

/// A Core Data model cache as `Z_MODELCACHE` holds one: an `NSKeyedArchiver` archive of
/// `NSManagedObjectModel` / `NSEntityDescription` / `NSAttributeDescription` /
/// `NSRelationshipDescription` objects (the keys the research saw in a real store), raw-DEFLATEd.
///
/// Core Data's classes do not exist on Linux, so stand-ins encode the same keys under the same
/// class names; the archive itself is written by Foundation's own `NSKeyedArchiver`.
public enum ArchivedModel {
  public struct Property {
    public var name: String
    /// `NSAttributeType`, or `nil` for a relationship.
    public var attributeType: Int?
    public var toOne: Bool
    public var inverse: String?

    public init(name: String, attributeType: Int?, toOne: Bool = true, inverse: String? = nil) {
      self.name = name
      self.attributeType = attributeType
      self.toOne = toOne
      self.inverse = inverse
    }
  }

  /// The archived model of `entities` (name → properties), compressed as Core Data stores it.
  public static func compressedArchive(of entities: [(name: String, properties: [Property])]) throws -> Data {
    try rawDeflate(keyedArchive(of: entities))
  }

  /// The `NSKeyedArchiver` archive, object by object: `$objects[0]` is `$null`, objects refer to
  /// each other by UID, each names its class through a `$classname` object.
  static func keyedArchive(of entities: [(name: String, properties: [Property])]) -> Data {
    var objects: [BinaryPropertyListWriter.Node] = [.string("$null")]
    var classes: [String: Int] = [:]
    func add(_ node: BinaryPropertyListWriter.Node) -> BinaryPropertyListWriter.Node {
      objects.append(node)
      return .uid(objects.count - 1)
    }
    func classReference(_ name: String) -> BinaryPropertyListWriter.Node {
      if let known = classes[name] { return .uid(known) }
      let reference = add(.dictionary([("$classname", .string(name)), ("$classes", .array([.string(name), .string("NSObject")]))]))
      if case .uid(let index) = reference { classes[name] = index }
      return reference
    }
    func object(_ className: String, _ fields: [(String, BinaryPropertyListWriter.Node)]) -> BinaryPropertyListWriter.Node {
      add(.dictionary([("$class", classReference(className))] + fields))
    }
    func dictionary(_ pairs: [(String, () -> BinaryPropertyListWriter.Node)]) -> BinaryPropertyListWriter.Node {
      let keys = pairs.map { add(.string($0.0)) }
      let values = pairs.map { $0.1() }
      return object("NSDictionary", [("NS.keys", .array(keys)), ("NS.objects", .array(values))])
    }

    let root = object("NSManagedObjectModel", [
      ("NSEntities", dictionary(entities.map { entity in
        (entity.name, {
          let name = add(.string(entity.name))
          return object("NSEntityDescription", [
            ("NSEntityName", name), ("NSRenamingIdentifier", name),
            ("NSProperties", dictionary(entity.properties.map { property in
              (property.name, {
                let propertyName = add(.string(property.name))
                if let type = property.attributeType {
                  return object("NSAttributeDescription", [("NSPropertyName", propertyName), ("NSAttributeType", .integer(Int64(type)))])
                }
                var fields: [(String, BinaryPropertyListWriter.Node)] = [
                  ("NSPropertyName", propertyName), ("NSMaxCount", .integer(property.toOne ? 1 : 0)),
                ]
                fields.append(("_NSInverseRelationshipName", property.inverse.map { add(.string($0)) } ?? .uid(0)))
                return object("NSRelationshipDescription", fields)
              })
            })),
          ])
        })
      })),
    ])
    return BinaryPropertyListWriter.data(
      of: .dictionary([
        ("$archiver", .string("NSKeyedArchiver")), ("$version", .integer(100000)),
        ("$top", .dictionary([("root", root)])), ("$objects", .array(objects)),
      ]))
  }

  /// DEFLATE without a zlib header (window bits −15), as Core Data writes `Z_CONTENT`.
  static func rawDeflate(_ data: Data) throws -> Data {
    var stream = z_stream()
    guard deflateInit2_(&stream, 6, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
      throw SQLiteWriter.Failure(description: "zlib could not start deflating")
    }
    defer { deflateEnd(&stream) }
    var input = [UInt8](data)
    var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(input.count))) + 16)
    let status = input.withUnsafeMutableBufferPointer { inputBytes in
      output.withUnsafeMutableBufferPointer { outputBytes in
        stream.next_in = inputBytes.baseAddress
        stream.avail_in = uInt(inputBytes.count)
        stream.next_out = outputBytes.baseAddress
        stream.avail_out = uInt(outputBytes.count)
        return deflate(&stream, Z_FINISH)
      }
    }
    guard status == Z_STREAM_END else { throw SQLiteWriter.Failure(description: "zlib could not deflate: status \(status)") }
    return Data(output.prefix(Int(stream.total_out)))
  }
}

