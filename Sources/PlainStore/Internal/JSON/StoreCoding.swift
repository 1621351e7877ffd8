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

/// Encodes an entity held as an existential.
struct AnyEncodableEntity: Encodable {
  let value: any Entity
  func encode(to encoder: Encoder) throws { try value.encode(to: encoder) }
}
