import Foundation

/// A baby as the SwiftData model stored it: no `createdAt`, and the last feed amount still on
/// the profile (it lives in ``LastFeedAmountCache`` now).
public struct LegacyBabyProfile: Codable, Sendable, Hashable {
  public var id: UUID
  public var name: String
  /// Seconds between feeds.
  public var feedTerm: TimeInterval
  public var lastFeedAmountValue: Double?
  public var lastFeedAmountUnitSymbol: String?

  public init(
    id: UUID, name: String, feedTerm: TimeInterval = BabyProfile.defaultFeedTerm,
    lastFeedAmountValue: Double? = nil, lastFeedAmountUnitSymbol: String? = nil
  ) {
    self.id = id
    self.name = name
    self.feedTerm = feedTerm
    self.lastFeedAmountValue = lastFeedAmountValue
    self.lastFeedAmountUnitSymbol = lastFeedAmountUnitSymbol
  }

  enum CodingKeys: String, CodingKey {
    case id, name, feedTerm, lastFeedAmountValue, lastFeedAmountUnitSymbol
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try LegacyCoding.uuid(in: container, forKey: .id)
    name = try container.decode(String.self, forKey: .name)
    feedTerm = try container.decode(Double.self, forKey: .feedTerm)
    lastFeedAmountValue = try container.decodeIfPresent(Double.self, forKey: .lastFeedAmountValue)
    lastFeedAmountUnitSymbol = try container.decodeIfPresent(String.self, forKey: .lastFeedAmountUnitSymbol)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id.uuidString, forKey: .id)
    try container.encode(name, forKey: .name)
    try container.encode(feedTerm, forKey: .feedTerm)
    try container.encodeIfPresent(lastFeedAmountValue, forKey: .lastFeedAmountValue)
    try container.encodeIfPresent(lastFeedAmountUnitSymbol, forKey: .lastFeedAmountUnitSymbol)
  }
}
