import Foundation

/// The value a decoder stands at.
struct JSONSingleValueDecodingContainer: SingleValueDecodingContainer {
  let decoder: JSONDecoding
  let node: Int
  let base: JSONDecoding.Base

  var codingPath: [any CodingKey] { decoder.codingPath(base) }

  func decodeNil() -> Bool { decoder.isNull(node) }

  func decode(_ type: Bool.Type) throws -> Bool { try decoder.bool(node, base, nil) }
  func decode(_ type: String.Type) throws -> String { try decoder.string(node, base, nil) }
  func decode(_ type: Double.Type) throws -> Double { try decoder.double(node, base, nil) }
  func decode(_ type: Float.Type) throws -> Float { try decoder.float(node, base, nil) }
  func decode(_ type: Int.Type) throws -> Int { try decoder.integer(node, type, base, nil) }
  func decode(_ type: Int8.Type) throws -> Int8 { try decoder.integer(node, type, base, nil) }
  func decode(_ type: Int16.Type) throws -> Int16 { try decoder.integer(node, type, base, nil) }
  func decode(_ type: Int32.Type) throws -> Int32 { try decoder.integer(node, type, base, nil) }
  func decode(_ type: Int64.Type) throws -> Int64 { try decoder.integer(node, type, base, nil) }
  func decode(_ type: UInt.Type) throws -> UInt { try decoder.integer(node, type, base, nil) }
  func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.integer(node, type, base, nil) }
  func decode(_ type: UInt16.Type) throws -> UInt16 { try decoder.integer(node, type, base, nil) }
  func decode(_ type: UInt32.Type) throws -> UInt32 { try decoder.integer(node, type, base, nil) }
  func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.integer(node, type, base, nil) }
  func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.unbox(type, at: node, base: base, key: nil) }
}
