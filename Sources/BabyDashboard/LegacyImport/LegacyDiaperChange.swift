import Foundation
import PlainStore

/// A diaper change as the SwiftData model stored it: no `uuid`; its baby by id, or none.
public struct LegacyDiaperChange: Codable, Sendable, Hashable {
  /// The baby's id; `nil` (or an id no profile has) makes it an orphan.
  public var profileID: UUID?
  public var timestamp: Date
  public var type: DiaperType

  public init(profileID: UUID?, timestamp: Date, type: DiaperType) {
    self.profileID = profileID
    self.timestamp = timestamp
    self.type = type
  }

  enum CodingKeys: String, CodingKey {
    case profileID, timestamp, type
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    profileID = try LegacyCoding.optionalUUID(in: container, forKey: .profileID)
    timestamp = try LegacyCoding.date(in: container, forKey: .timestamp)
    let raw = try container.decode(String.self, forKey: .type)
    guard let type = DiaperType(rawValue: raw) else {
      throw DecodingError.dataCorruptedError(
        forKey: .type, in: container, debugDescription: "\(raw.debugDescription) is not a diaper type; expected \"pee\" or \"poo\"")
    }
    self.type = type
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encodeIfPresent(profileID?.uuidString, forKey: .profileID)
    try container.encode(ISO8601.format(timestamp), forKey: .timestamp)
    try container.encode(type.rawValue, forKey: .type)
  }
}
