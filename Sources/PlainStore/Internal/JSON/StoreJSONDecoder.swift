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
    try data.withUnsafeBytes { raw in
      let bytes = raw.bindMemory(to: UInt8.self)
      let nodes: [JSONNode]
      do {
        nodes = try JSONParser.parse(bytes)
      } catch {
        throw DecodingError.dataCorrupted(
          .init(
            codingPath: [], debugDescription: "The given data was not valid JSON.",
            underlyingError: error))
      }
      return try nodes.withUnsafeBufferPointer { nodes in
        let decoding = JSONDecoding(document: JSONDocument(bytes: bytes, nodes: nodes), userInfo: userInfo)
        return try decoding.unbox(type, at: 0, base: .at(0), key: nil)
      }
    }
  }
}
