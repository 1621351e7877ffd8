import Foundation
import PlainStore

/// The value readers the legacy records share, so that a bad UUID or date fails with a message
/// of ours at the record's coding path (`feedSessions[3].startTime`).
enum LegacyCoding {
  static func uuid<K: CodingKey>(in container: KeyedDecodingContainer<K>, forKey key: K) throws -> UUID {
    let text = try container.decode(String.self, forKey: key)
    guard let value = UUID(uuidString: text) else {
      throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "\(text.debugDescription) is not a UUID")
    }
    return value
  }

  static func optionalUUID<K: CodingKey>(in container: KeyedDecodingContainer<K>, forKey key: K) throws -> UUID? {
    guard container.contains(key), try !container.decodeNil(forKey: key) else { return nil }
    return try uuid(in: container, forKey: key)
  }

  static func date<K: CodingKey>(in container: KeyedDecodingContainer<K>, forKey key: K) throws -> Date {
    let text = try container.decode(String.self, forKey: key)
    guard let value = ISO8601.parse(text) else {
      throw DecodingError.dataCorruptedError(
        forKey: key, in: container,
        debugDescription: "\(text.debugDescription) is not an ISO 8601 date with a zone (e.g. \"2026-01-15T09:30:00Z\")")
    }
    return value
  }

  static func optionalDate<K: CodingKey>(in container: KeyedDecodingContainer<K>, forKey key: K) throws -> Date? {
    guard container.contains(key), try !container.decodeNil(forKey: key) else { return nil }
    return try date(in: container, forKey: key)
  }
}
