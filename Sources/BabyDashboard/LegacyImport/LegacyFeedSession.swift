import Foundation
import PlainStore

/// A feed as the SwiftData model stored it: no `uuid`; its baby by id, or none.
public struct LegacyFeedSession: Codable, Sendable, Hashable {
  /// The baby's id; `nil` (or an id no profile has) makes it an orphan.
  public var profileID: UUID?
  public var startTime: Date
  public var endTime: Date?
  public var amountValue: Double?
  /// As typed back then: "ml", "mL", "oz", "fl. oz"…; the importer stores canonical symbols.
  public var amountUnitSymbol: String?
  public var memoText: String?

  public init(
    profileID: UUID?, startTime: Date, endTime: Date? = nil, amountValue: Double? = nil,
    amountUnitSymbol: String? = nil, memoText: String? = nil
  ) {
    self.profileID = profileID
    self.startTime = startTime
    self.endTime = endTime
    self.amountValue = amountValue
    self.amountUnitSymbol = amountUnitSymbol
    self.memoText = memoText
  }

  enum CodingKeys: String, CodingKey {
    case profileID, startTime, endTime, amountValue, amountUnitSymbol, memoText
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    profileID = try LegacyCoding.optionalUUID(in: container, forKey: .profileID)
    startTime = try LegacyCoding.date(in: container, forKey: .startTime)
    endTime = try LegacyCoding.optionalDate(in: container, forKey: .endTime)
    amountValue = try container.decodeIfPresent(Double.self, forKey: .amountValue)
    amountUnitSymbol = try container.decodeIfPresent(String.self, forKey: .amountUnitSymbol)
    memoText = try container.decodeIfPresent(String.self, forKey: .memoText)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encodeIfPresent(profileID?.uuidString, forKey: .profileID)
    try container.encode(ISO8601.format(startTime), forKey: .startTime)
    try container.encodeIfPresent(endTime.map(ISO8601.format), forKey: .endTime)
    try container.encodeIfPresent(amountValue, forKey: .amountValue)
    try container.encodeIfPresent(amountUnitSymbol, forKey: .amountUnitSymbol)
    try container.encodeIfPresent(memoText, forKey: .memoText)
  }
}
