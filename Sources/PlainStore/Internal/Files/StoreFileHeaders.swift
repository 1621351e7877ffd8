import Foundation

/// What is read of a file that failed to decode: its format version, to tell a newer format
/// from damage.
struct FormatProbe: Decodable {
  var formatVersion: Int
}

/// Every store file says which format wrote it.
protocol VersionedStoreFile: Decodable {
  var formatVersion: Int { get }
}

extension StoreHeader: VersionedStoreFile {}
extension Manifest: VersionedStoreFile {}
extension SegmentFile: VersionedStoreFile where Objects: Decodable {}
extension LogEntry: VersionedStoreFile {}

/// store.json
struct StoreHeader: Codable, Equatable {
  var formatVersion: Int
  var schemaVersion: Int
  var entities: [String: EntityHeader]
  /// The names of the schema's migrations up to `schemaVersion`, oldest first (absent when it
  /// has none): what a person reading the file learns of the store's history.
  var migrations: [String]?

  init(schema: Schema) {
    formatVersion = StoreFiles.formatVersion
    schemaVersion = schema.version
    let names = schema.migrations.filter { $0.version <= schema.version }.map(\.name)
    migrations = names.isEmpty ? nil : names
    entities = Dictionary(uniqueKeysWithValues: schema.entities.map { ($0.name, EntityHeader($0)) })
  }
}

struct EntityHeader: Codable, Equatable {
  var unique: [[String]]
  var indexed: [String]
  var segmentedBy: String?
  var references: [String: ReferenceHeader]

  init(_ entity: EntitySchema) {
    unique = entity.uniqueKeyNames
    indexed = entity.indexedKeyNames
    segmentedBy = entity.segmentKeyName
    references = Dictionary(
      uniqueKeysWithValues: entity.references.map {
        ($0.keyName, ReferenceHeader(entity: $0.targetEntity, onDelete: $0.deleteRule))
      })
  }
}

struct ReferenceHeader: Codable, Equatable {
  var entity: String
  var onDelete: DeleteRule
}

/// manifest.json: the commit point of compaction.
struct Manifest: Codable, Equatable {
  var formatVersion = StoreFiles.formatVersion
  /// The state in the segment files includes every transaction up to this one.
  var sequence = 0
  /// Entity name → segment ("2026-01", or "all") → its file.
  var segments: [String: [String: SegmentEntry]] = [:]
  /// History readers (see `HistoryReader`) → the last sequence each has consumed.
  var readers: [String: Int] = [:]
  /// The change files folded into the segments, by device (format 2).
  var folded: FoldedChanges?
  /// This device's newest sequence when its change files were last compacted (format 2): the
  /// next automatic compaction waits for `changeCompactionThreshold` more.
  var changesCompactedThrough: Int?
  /// The schema version the segments' values are in: a cache of another version (a migration
  /// killed before store.json took the new version) is rebuilt, never read as this one's.
  var schemaVersion: Int?
  /// The objects the fold knows but the segments do not show, as of `sequence` (see
  /// ``RetiredObjects``); nil in a manifest written before it was kept.
  var retired: RetiredObjects?
  /// Every delete and unique-key change the segments hold is at or before this clock (see
  /// `StoreState.newestKeyChange`); nil in a manifest written before it was kept, which then
  /// bounds them by the newest change folded.
  var newestKeyChange: UInt64?
  /// The version of the fold's rules the segments were folded by (``MergedState/rulesVersion``);
  /// nil in a manifest written before it was kept (version 1).
  var mergeRules: Int?
  /// The file of the objects' ``WriteStamps`` as of `sequence` (`local/stamps`), with its size
  /// and checksum; nil when the compaction that wrote this manifest did not know them.
  var stamps: SegmentEntry?

  /// How many objects the segment files hold.
  var objectCount: Int { segments.values.reduce(0) { $0 + $1.values.reduce(0) { $0 + $1.count } } }
}

struct SegmentEntry: Codable, Equatable {
  var file: String
  var count: Int
  /// The file's size in bytes: a truncated or emptied segment is noticed before it is parsed.
  var size: Int?
  /// The FNV-1a checksum of the file's bytes (16 hex digits): a segment damaged in place (a
  /// flipped byte, zeros) is noticed when it is read, and the cache rebuilt.
  var checksum: String?
}

/// A compaction writes the manifest under the store's lock, with an entry for each segment
/// file (hundreds at 100k objects): written member by member, as the synthesized `Encodable`
/// would write them.
extension SegmentEntry: JSONRecord {
  func encode(to encoder: Encoder) throws {
    try encodeRecord(to: encoder)
  }

  func encodeMembers(_ members: inout some JSONRecordMembers) throws {
    if let checksum { try members.encode(checksum, forKey: "checksum") }
    try members.encode(count, forKey: "count")
    try members.encode(file, forKey: "file")
    if let size { try members.encode(size, forKey: "size") }
  }
}

/// segments/<entity>.<segment>.<sequence>.json; `Objects` is the array of objects (read as
/// `[E]`, written from the objects or the JSON their commit encoded).
struct SegmentFile<Objects> {
  // In key order, as the file has them: the encoder then copies nothing to sort them.
  var entity: String
  var formatVersion = StoreFiles.formatVersion
  var objects: Objects
  var segment: String
}

extension SegmentFile {
  init(entity: String, segment: String, objects: Objects) {
    self.init(entity: entity, objects: objects, segment: segment)
  }
}

extension SegmentFile: Encodable where Objects: Encodable {}
extension SegmentFile: Decodable where Objects: Decodable {}
