import Foundation
import PlainStore

/// The legacy document (format version 1): the SwiftData-era models exactly as they were, one
/// JSON document.
///
/// Build one and encode it to write a legacy file (the benchmark does this for 100k records);
/// ``decode(from:source:)`` reads one with errors that name the record. Dates are ISO 8601 with
/// or without a fraction, "Z" or an offset; optional keys may be absent or null.
///
/// ```swift
/// let mia = LegacyBabyProfile(id: UUID(), name: "Mia")
/// let export = LegacyExport(
///   exportedAt: now, babyProfiles: [mia],
///   feedSessions: [LegacyFeedSession(profileID: mia.id, startTime: now, amountValue: 120, amountUnitSymbol: "ml")])
/// let data = try export.encoded()
/// ```
public struct LegacyExport: Codable, Sendable, Hashable {
  /// The value of `format` in every legacy export.
  public static let formatName = "BabyDashboard.SwiftDataExport"
  /// The newest format version this package reads.
  public static let currentVersion = 1

  /// Always ``formatName``.
  public var format: String
  /// The format version, ``currentVersion`` when built here.
  public var version: Int
  /// When the export was written.
  public var exportedAt: Date
  /// The babies, as SwiftData stored them (with `lastFeedAmount*`, without `createdAt`).
  public var babyProfiles: [LegacyBabyProfile]
  /// The feeds (without `uuid`).
  public var feedSessions: [LegacyFeedSession]
  /// The diaper changes (without `uuid`).
  public var diaperChanges: [LegacyDiaperChange]

  /// A document of the current format and version.
  public init(
    exportedAt: Date,
    babyProfiles: [LegacyBabyProfile] = [],
    feedSessions: [LegacyFeedSession] = [],
    diaperChanges: [LegacyDiaperChange] = []
  ) {
    self.format = Self.formatName
    self.version = Self.currentVersion
    self.exportedAt = exportedAt
    self.babyProfiles = babyProfiles
    self.feedSessions = feedSessions
    self.diaperChanges = diaperChanges
  }

  /// How many records the document holds, all entities together.
  public var recordCount: Int { babyProfiles.count + feedSessions.count + diaperChanges.count }

  enum CodingKeys: String, CodingKey {
    case format, version, exportedAt, babyProfiles, feedSessions, diaperChanges
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    format = try container.decode(String.self, forKey: .format)
    version = try container.decode(Int.self, forKey: .version)
    exportedAt = try LegacyCoding.date(in: container, forKey: .exportedAt)
    babyProfiles = try container.decodeIfPresent([LegacyBabyProfile].self, forKey: .babyProfiles) ?? []
    feedSessions = try container.decodeIfPresent([LegacyFeedSession].self, forKey: .feedSessions) ?? []
    diaperChanges = try container.decodeIfPresent([LegacyDiaperChange].self, forKey: .diaperChanges) ?? []
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(format, forKey: .format)
    try container.encode(version, forKey: .version)
    try container.encode(ISO8601.format(exportedAt), forKey: .exportedAt)
    try container.encode(babyProfiles, forKey: .babyProfiles)
    try container.encode(feedSessions, forKey: .feedSessions)
    try container.encode(diaperChanges, forKey: .diaperChanges)
  }
}
