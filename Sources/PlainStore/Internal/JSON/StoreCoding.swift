import Foundation

/// The JSON coders of every store file: sorted keys and exact ISO 8601 dates (see
/// `StoreJSONEncoder`), so the same state gives the same bytes.
enum StoreCoding {
  static func makeEncoder() -> StoreJSONEncoder {
    StoreJSONEncoder()
  }

  static func makeDecoder(schema: Schema? = nil) -> StoreJSONDecoder {
    var decoder = StoreJSONDecoder()
    if let schema { decoder.userInfo[.plainStoreSchema] = SchemaBox(schema: schema) }
    return decoder
  }

  /// A reason a person can act on, from a decoding error (``DecodingFailure``) or a store error.
  static func reason(_ error: Error) -> String {
    switch error {
    case let error as DecodingError: return DecodingFailure(error).description
    case let error as StoreError: return error.detail
    default: return "\(error)"
    }
  }
}

struct SchemaBox: Sendable { let schema: Schema }

extension CodingUserInfoKey {
  static let plainStoreSchema = CodingUserInfoKey(rawValue: "PlainStore.schema")!
}

/// Any JSON value: how the engine compares and merges entities property by property without
/// knowing their types.
enum JSONValue: Codable, Equatable, Sendable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])

  init(from decoder: Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Double.self) {
      self = .number(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode([JSONValue].self) {
      self = .array(value)
    } else {
      self = .object(try container.decode([String: JSONValue].self))
    }
  }

  func encode(to encoder: Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .null: try container.encodeNil()
    case .bool(let value): try container.encode(value)
    case .number(let value): try container.encode(value)
    case .string(let value): try container.encode(value)
    case .array(let value): try container.encode(value)
    case .object(let value): try container.encode(value)
    }
  }
}

/// Encodes an entity held as an existential.
struct AnyEncodableEntity: Encodable {
  let value: any Entity
  func encode(to encoder: Encoder) throws { try value.encode(to: encoder) }
}
