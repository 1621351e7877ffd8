import Foundation
import PlainStore

/// The handback as JSON, for an app that applies it in another process and for `babydash backout`:
///
/// ```json
/// {"changes":[{"feedSession":{"profileID":"…","startTime":"…"},"id":"…"},{"deleted":"DiaperChange","id":"…"}],
///  "deletionsKnown":true,"format":2,"rowIDs":{"<id>":"<row id>"},"through":42}
/// ```
/// Format 2 added `rowIDs` and `deletionsKnown`; format 1 had neither (none, and known).
extension BackoutHandback: Codable {
  /// The format this code writes.
  public static let formatVersion = 2

  private enum CodingKeys: String, CodingKey { case format, through, changes, rowIDs, deletionsKnown }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let format = try container.decode(Int.self, forKey: .format)
    guard format <= Self.formatVersion else {
      throw DecodingError.dataCorruptedError(
        forKey: .format, in: container, debugDescription: "format \(format) is newer than the \(Self.formatVersion) this version reads")
    }
    through = HistoryToken(sequence: try container.decode(Int.self, forKey: .through))
    changes = try container.decode([Change].self, forKey: .changes)
    // By the ids' text: JSONEncoder writes a dictionary with UUID keys as an array of pairs.
    var rowIDs: [UUID: UUID] = [:]
    for (id, row) in try container.decodeIfPresent([String: UUID].self, forKey: .rowIDs) ?? [:] {
      guard let id = UUID(uuidString: id) else {
        throw DecodingError.dataCorruptedError(forKey: .rowIDs, in: container, debugDescription: "'\(id)' is not an id")
      }
      rowIDs[id] = row
    }
    self.rowIDs = rowIDs
    deletionsKnown = try container.decodeIfPresent(Bool.self, forKey: .deletionsKnown) ?? true
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(Self.formatVersion, forKey: .format)
    try container.encode(through.sequence, forKey: .through)
    try container.encode(changes, forKey: .changes)
    try container.encode(Dictionary(uniqueKeysWithValues: rowIDs.map { ($0.key.uuidString, $0.value) }), forKey: .rowIDs)
    try container.encode(deletionsKnown, forKey: .deletionsKnown)
  }

  /// The JSON: sorted keys, ISO 8601 dates, one line unless `pretty`.
  public func encoded(pretty: Bool = false) throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
    return try encoder.encode(self)
  }
}

extension BackoutHandback.Change: Codable {
  private enum CodingKeys: String, CodingKey { case id, babyProfile, feedSession, diaperChange, deleted }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let id = try container.decode(UUID.self, forKey: .id)
    if let baby = try container.decodeIfPresent(LegacyBabyProfile.self, forKey: .babyProfile) {
      self = .babyProfile(id: id, baby)
    } else if let feed = try container.decodeIfPresent(LegacyFeedSession.self, forKey: .feedSession) {
      self = .feedSession(id: id, feed)
    } else if let diaper = try container.decodeIfPresent(LegacyDiaperChange.self, forKey: .diaperChange) {
      self = .diaperChange(id: id, diaper)
    } else if let entity = try container.decodeIfPresent(String.self, forKey: .deleted) {
      self = .deleted(entity: entity, id: id)
    } else {
      throw DecodingError.dataCorruptedError(
        forKey: .id, in: container, debugDescription: "a change has babyProfile, feedSession, diaperChange or deleted")
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    switch self {
    case .babyProfile(let id, let baby):
      try container.encode(id, forKey: .id)
      try container.encode(baby, forKey: .babyProfile)
    case .feedSession(let id, let feed):
      try container.encode(id, forKey: .id)
      try container.encode(feed, forKey: .feedSession)
    case .diaperChange(let id, let diaper):
      try container.encode(id, forKey: .id)
      try container.encode(diaper, forKey: .diaperChange)
    case .deleted(let entity, let id):
      try container.encode(id, forKey: .id)
      try container.encode(entity, forKey: .deleted)
    }
  }
}
