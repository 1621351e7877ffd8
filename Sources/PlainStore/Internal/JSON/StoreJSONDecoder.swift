import Foundation

/// Decodes store files: JSON with dates as `ISO8601` text and UUIDs as strings, several times
/// faster than Foundation's JSONDecoder on the store's small flat documents.
///
/// Errors have Foundation's shapes, which `StoreCoding.reason(_:)` turns into messages: bad
/// syntax is `dataCorrupted` with an empty coding path; a missing key is `keyNotFound`; a wrong
/// type `typeMismatch`; null where a value is required `valueNotFound`. Errors thrown by an
/// `init(from:)` pass through unchanged.
struct StoreJSONDecoder {
  var userInfo: [CodingUserInfoKey: Any] = [:]

  func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
    let failed = { (error: JSONParser.SyntaxError) -> any Error in
      DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "The given data was not valid JSON.", underlyingError: error))
    }
    return try JSONDocument.reading(data, failed: failed) { document in
      try JSONDecoding(document: document, userInfo: userInfo).unbox(type, at: 0, base: .at(0), key: nil)
    }
  }
}
