import Foundation

/// Encodes store files: the bytes Foundation's JSONEncoder writes with `.sortedKeys` and
/// `.withoutEscapingSlashes`, dates as `ISO8601.format` text and UUIDs as uppercase
/// `uuidString`, several times faster on the store's small flat documents.
///
/// Deterministic: the same value always gives the same bytes. A non-finite Double throws
/// `EncodingError.invalidValue`, as JSONEncoder does.
struct StoreJSONEncoder {
  var userInfo: [CodingUserInfoKey: Any] = [:]

  func encode<T: Encodable>(_ value: T) throws -> Data {
    let encoding = JSONEncoding(userInfo: userInfo)
    try encoding.encodeValue(value, key: nil)
    return encoding.writer.data
  }

  /// Encodes `value` into one buffer after a header and before a trailer, the header made from
  /// the body once it is written (its length, its checksum: `header` is always `headerSize`
  /// bytes long), and hands the whole over without a copy: a bulk save's change file and log
  /// record are tens of megabytes, and every copy costs fresh pages.
  func encodeFramed<T: Encodable>(
    _ value: T, capacity: Int, headerSize: Int, header: (_ByteView) -> [UInt8], trailer: [UInt8]
  ) throws -> Data {
    let encoding = JSONEncoding(userInfo: userInfo, capacity: capacity + headerSize + trailer.count)
    let writer = encoding.writer
    writer.count = headerSize
    try encoding.encodeValue(value, key: nil)
    writer.fillHeader(headerSize, header)
    trailer.withUnsafeBytes(writer.append)
    return writer.takeData()
  }

  /// An encoder of many small documents one after another, each into the buffers of the one
  /// before: a bulk save encodes tens of thousands of objects, and setting up an encoder costs
  /// about as much as encoding one of them.
  func reusing() -> Reusing { Reusing(encoding: JSONEncoding(userInfo: userInfo)) }

  final class Reusing {
    private let encoding: JSONEncoding

    fileprivate init(encoding: JSONEncoding) { self.encoding = encoding }

    /// The value's bytes, as `StoreJSONEncoder.encode` writes them.
    func encodeBytes<T: Encodable>(_ value: T) throws -> [UInt8] {
      encoding.reset()  // also after a value that threw halfway
      try encoding.encodeValue(value, key: nil)
      return encoding.writer.copy(from: 0)
    }
  }
}
