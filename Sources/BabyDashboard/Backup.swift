import Foundation
import PlainStore

/// Everything needed to restore a store: `babydash export` writes it, `babydash import`
/// recognises it by its content and restores it (``Tracker/restore(_:)``).
///
/// Format (JSON, sorted keys, stable order, versioned):
/// ```json
/// { "format": "babydash-backup", "formatVersion": 2,
///   "babyProfiles":  [{"createdAt": "2026-01-15T06:00:00Z", "feedTerm": 10800, "id": "…", "name": "Mia"}],
///   "feedSessions":  [{"amountUnitSymbol": "mL", "amountValue": 120, "endTime": "…", "memoText": "…",
///                      "profileID": "…", "startTime": "…", "uuid": "…"}],
///   "diaperChanges": [{"profileID": "…", "timestamp": "…", "type": "pee", "uuid": "…"}],
///   "lastFeedAmounts": [{"amountUnitSymbol": "mL", "amountValue": 120, "babyID": "…"}] }
/// ```
/// Dates are UTC with as many fraction digits as they need to come back exactly; absent values
/// are omitted; babies are in dashboard order, feeds and diapers oldest first, ties by id. So
/// restoring a backup into an empty store and exporting again gives the same bytes.
public struct Backup: Codable, Sendable, Hashable {
  /// The value of `format` that marks a backup.
  public static let formatName = "babydash-backup"
  /// The version this code writes and reads (1 was the export without the cache and the marker).
  public static let currentVersion = 2

  public var format: String
  public var formatVersion: Int
  public var babyProfiles: [Baby]
  public var feedSessions: [Feed]
  public var diaperChanges: [Diaper]
  public var lastFeedAmounts: [CachedAmount]

  public struct Baby: Codable, Sendable, Hashable {
    public var id: UUID
    public var name: String
    public var feedTerm: Double
    public var createdAt: String
  }

  public struct Feed: Codable, Sendable, Hashable {
    public var uuid: UUID
    public var profileID: UUID?
    public var startTime: String
    public var endTime: String?
    public var amountValue: Double?
    public var amountUnitSymbol: String?
    public var memoText: String?
  }

  public struct Diaper: Codable, Sendable, Hashable {
    public var uuid: UUID
    public var profileID: UUID?
    public var timestamp: String
    public var type: String
  }

  public struct CachedAmount: Codable, Sendable, Hashable {
    public var babyID: UUID
    public var amountValue: Double
    public var amountUnitSymbol: String
  }

  /// The backup of everything in `context`, and the cached amounts of its babies.
  public init(context: StoreContext, cache: LastFeedAmountCache?) throws {
    // Microseconds are more than any clock a parent reads; the double's last digits are noise.
    let time = ISO8601.formatMicroseconds
    format = Self.formatName
    formatVersion = Self.currentVersion
    let babies = try context.babies()
    babyProfiles = babies.map { Baby(id: $0.id, name: $0.name, feedTerm: $0.feedTerm, createdAt: time($0.createdAt)) }
    feedSessions = try context.fetch(FetchDescriptor<FeedSession>())
      .sorted { ($0.startTime, $0.uuid.uuidString) < ($1.startTime, $1.uuid.uuidString) }
      .map {
        Feed(
          uuid: $0.uuid, profileID: $0.profileID, startTime: time($0.startTime), endTime: $0.endTime.map(time),
          amountValue: $0.amountValue, amountUnitSymbol: $0.amountUnitSymbol, memoText: $0.memoText)
      }
    diaperChanges = try context.fetch(FetchDescriptor<DiaperChange>())
      .sorted { ($0.timestamp, $0.uuid.uuidString) < ($1.timestamp, $1.uuid.uuidString) }
      .map { Diaper(uuid: $0.uuid, profileID: $0.profileID, timestamp: time($0.timestamp), type: $0.type.rawValue) }
    // Reading moves an entry still under a name to its baby's id, so each baby's is found.
    lastFeedAmounts = try babies.compactMap { baby in
      try cache?.amount(for: baby, among: babies).map {
        CachedAmount(babyID: baby.id, amountValue: $0.amountValue, amountUnitSymbol: $0.amountUnitSymbol)
      }
    }
  }

  /// The document's bytes: pretty JSON with sorted keys.
  public func encoded() throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return try encoder.encode(self)
  }

  /// The backup in `data`, or nil when `data` is not a backup (so another reader may try it).
  ///
  /// - Throws: ``BackupError`` when it is marked as a backup but cannot be read.
  public static func recognise(_ data: Data, source: String) throws -> Backup? {
    struct Marker: Decodable {
      var format: String?
      var formatVersion: Int?
    }
    // Anything without the marker is some other document (a legacy export): not an error here,
    // the next reader says what is wrong with it.
    guard let marker = try? JSONDecoder().decode(Marker.self, from: data), marker.format == formatName else { return nil }
    guard let version = marker.formatVersion, version <= currentVersion else {
      throw BackupError(
        source: source,
        detail: "written by a newer babydash (format version \(marker.formatVersion.map(String.init) ?? "none"), "
          + "this one reads up to \(currentVersion)): update babydash")
    }
    do {
      return try JSONDecoder().decode(Backup.self, from: data)
    } catch {
      throw BackupError(source: source, detail: "not a complete backup (\(FileKeyValueStore.reason(error)))")
    }
  }
}

/// A backup that cannot be restored: where, what, and what to do.
public struct BackupError: Error, Sendable, Hashable, CustomStringConvertible {
  public var source: String
  public var detail: String

  public init(source: String, detail: String) {
    self.source = source
    self.detail = detail
  }

  public var description: String { "cannot restore '\(source)': \(detail) — nothing was written" }
}
