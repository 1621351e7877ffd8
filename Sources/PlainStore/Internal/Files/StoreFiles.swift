import Foundation

/// The store's folder and the formats of its files (format 2):
/// ```
/// Notes.store/
///   store.json               format version, schema version, entities
///   changes/<device>/        THE TRUTH: create-once change files, the only part that syncs
///     device.json            who the device is
///     <sequence>.json        one committed transaction of that device
///   outbox/<device>/         truth too: this device's files made while the carrier was not
///                            there, waiting to move into changes/ (see ``Outbox``)
///   sync-account             the carrier's account this store syncs with (see ``SyncAccount``)
///   local/                   a cache of this device, rebuilt from changes/ whenever it is lost
///     device-id              this copy's device id
///     journal                the newest change files' bytes, flushed: what a power loss may take from changes/
///     lock                   flock'ed by writers; never renamed
///     manifest.json          which segment files hold the state as of local transaction <sequence>
///     segments/<entity>.<segment>.<sequence>.json   one entity, one month of its segment key
///     log/<sequence>.log     local transactions (commits of this device, merges) from <sequence> on
/// ```
/// Format 1 kept manifest.json, segments/, log/ and lock at the top; `format1` reads that
/// layout, to migrate it.
struct StoreFiles: Sendable {
  static let formatVersion = 2

  enum Layout: Sendable { case format1, format2 }

  let root: URL
  /// How messages name files: the store folder's name and the path inside it.
  let rootName: String
  /// Where the manifest, segments, log and lock are.
  let cacheURL: URL
  /// The cache's folder as messages name it inside the store ("local/", or "" in format 1).
  let cachePrefix: String
  let changes: ChangeFolder
  let layout: Layout
  // Built once: a URL costs a parse on Linux, and a commit reads these every time.
  let headerURL: URL
  let manifestURL: URL
  /// `manifestURL`'s path: a catch-up asks for the manifest's identity at each look, and a
  /// waiting writer looks about once per commit (`FileLock.waitingSlice`).
  let manifestFilePath: String
  /// Each segment file's id filter (``SegmentIDFilter``), by file name: read only by a merge
  /// that must find an object by its id, never by an open.
  let segmentIDsURL: URL
  let segmentsURL: URL
  let logURL: URL
  /// The local transactions (format 2): see ``LocalLog``.
  let log: LocalLog
  let lockURL: URL
  /// Where a writer that has waited long claims the lock: see ``LockClaim``.
  var lockClaimURL: URL { lockURL.appendingPathExtension("claim") }
  let deviceIDURL: URL
  /// This device's newest commits, each flushed once: see ``CommitJournal``.
  let journal: CommitJournal
  /// Left by a process that found a cache file damaged: the next open rebuilds the cache.
  let rebuildMarkerURL: URL

  init(root: URL, syncFolder: URL? = nil, transport: any ChangeTransport = FolderTransport(), layout: Layout = .format2) {
    self.root = root.standardizedFileURL
    self.layout = layout
    self.rootName = self.root.lastPathComponent
    switch layout {
    case .format1:
      cacheURL = self.root
      cachePrefix = ""
    case .format2:
      cacheURL = self.root.appendingPathComponent("local")
      cachePrefix = "local/"
    }
    let outbox = Outbox(url: self.root.appendingPathComponent("outbox"), displayName: rootName + "/outbox")
    let account = SyncAccount(url: self.root.appendingPathComponent("sync-account"), displayPath: rootName + "/sync-account")
    if let syncFolder {
      let folder = syncFolder.standardizedFileURL
      changes = ChangeFolder(url: folder, displayName: folder.lastPathComponent, transport: transport, outbox: outbox, account: account)
    } else {
      changes = ChangeFolder(
        url: self.root.appendingPathComponent("changes"), displayName: rootName + "/changes", transport: transport, outbox: outbox,
        account: account)
    }
    headerURL = self.root.appendingPathComponent("store.json")
    manifestURL = cacheURL.appendingPathComponent("manifest.json")
    manifestFilePath = manifestURL.path
    segmentsURL = cacheURL.appendingPathComponent("segments")
    logURL = cacheURL.appendingPathComponent("log")
    log = LocalLog(folder: logURL, displayName: Self.display(rootName, cachePrefix + "log"))
    lockURL = cacheURL.appendingPathComponent("lock")
    deviceIDURL = cacheURL.appendingPathComponent("device-id")
    journal = CommitJournal(url: cacheURL.appendingPathComponent("journal"), displayPath: Self.display(rootName, cachePrefix + "journal"))
    rebuildMarkerURL = cacheURL.appendingPathComponent("rebuild")
    segmentIDsURL = cacheURL.appendingPathComponent("segment-ids")
  }

  /// This copy's device id as `local/device-id` records it, read without the store's locks
  /// (for the watcher of arrivals, which must never hold the store); nil when there is none
  /// yet. A damaged file is nil here too: the store itself names it at its next read.
  var recordedDevice: DeviceID? {
    guard let data = try? FileSystem.read(deviceIDURL, displayPath: deviceIDURL.path) else { return nil }
    return DeviceID(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
  }

  var manifestPath: String { cachePrefix + "manifest.json" }

  /// The manifest's identity now: a catch-up reads it again when it changed.
  var manifestIdentity: FileIdentity? { FileSystem.identity(atPath: manifestFilePath) }
  func segmentPath(_ file: String) -> String { cachePrefix + "segments/" + file }

  func display(_ relative: String) -> String { Self.display(rootName, relative) }
  private static func display(_ rootName: String, _ relative: String) -> String { rootName + "/" + relative }

  /// Format 1 kept one file per local transaction: `log/<sequence>.json`.
  func format1LogPath(_ sequence: Int) -> String { cachePrefix + "log/" + Self.format1LogName(sequence) }
  func format1LogURL(_ sequence: Int) -> URL { logURL.appendingPathComponent(Self.format1LogName(sequence)) }
  private static func format1LogName(_ sequence: Int) -> String { Digits.decimal(sequence, width: 8) + ".json" }

  // MARK: Reading, with the errors that name the file

  /// Decodes one file; nil when it does not exist. A damaged file or a newer format is an error,
  /// and so is a file whose size or checksum is not the one `expected` (its manifest entry) says.
  func decode<T: VersionedStoreFile>(
    _ type: T.Type, at url: URL, relative: String, decoder: StoreJSONDecoder, expected: SegmentEntry? = nil
  ) throws -> T? {
    let path = display(relative)
    guard let data = try FileSystem.read(url, displayPath: path) else { return nil }
    if let size = expected?.size, data.count != size {
      throw StoreError(.damaged, path: path, "holds \(data.count) bytes where manifest.json says \(size) — \(Self.untouched)")
    }
    if let checksum = expected?.checksum, Self.checksum(data) != checksum {
      throw StoreError(.damaged, path: path, "its bytes do not match the checksum manifest.json holds — \(Self.untouched)")
    }
    return try decode(type, from: data, path: path, decoder: decoder)
  }

  /// Decodes the bytes of a store file (or of a record in one) that messages name `path`.
  func decode<T: VersionedStoreFile>(_ type: T.Type, from data: Data, path: String, decoder: StoreJSONDecoder) throws -> T {
    // One parse in the common case; the format version is probed only to explain a failure.
    let decoded: T
    do {
      decoded = try decoder.decode(T.self, from: data)
    } catch {
      if let probe = try? decoder.decode(FormatProbe.self, from: data), probe.formatVersion > Self.formatVersion {
        throw newerFormat(probe.formatVersion, path: path)
      }
      if let error = error as? StoreError { throw StoreError(error.code, path: path, error.detail) }
      throw StoreError(.damaged, path: path, "\(StoreCoding.reason(error)) — \(Self.untouched)")
    }
    guard decoded.formatVersion <= Self.formatVersion else { throw newerFormat(decoded.formatVersion, path: path) }
    guard decoded.formatVersion >= 1 else {
      throw StoreError(.damaged, path: path, "says format \(decoded.formatVersion), which no PlainStore writes — \(Self.untouched)")
    }
    return decoded
  }

  private func newerFormat(_ version: Int, path: String) -> StoreError {
    StoreError(
      .newerFormat(version), path: path,
      "written by a newer PlainStore (format \(version); this one reads up to \(Self.formatVersion)) — open it with a newer version of the program; the store was left untouched.")
  }

  /// A cache file's checksum as manifest.json holds it.
  static func checksum(_ data: Data) -> String { HybridLogicalClock.text(ChangeFileCodec.checksum(data)) }

  static let untouched = "the store was left untouched; restore the file from a backup or move the store aside."

  func write<T: Encodable>(_ value: T, to url: URL, relative: String, encoder: StoreJSONEncoder, durable: Bool = true) throws {
    let data = try encoder.encode(value)
    try FileSystem.writeAtomically(data, to: url, displayPath: display(relative), durable: durable)
  }
}

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
  /// When the objects were last written, as of `sequence` (see ``RecentWrites``); nil in a
  /// manifest written before it was kept.
  var recent: RecentWrites?
  /// The version of the fold's rules the segments were folded by (``MergedState/rulesVersion``);
  /// nil in a manifest written before it was kept (version 1).
  var mergeRules: Int?

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

/// A record of log/<sequence>.log (a file of its own in format 1): one local transaction, with
/// the full value of every object it puts — or, for a commit of this device, with the values
/// left in its change file (`origin`), which holds them already.
struct LogEntry: Codable {
  var formatVersion = StoreFiles.formatVersion
  var sequence: Int
  var author: String
  var timestamp: Date
  var changes: [LogChange]
  /// The change files this transaction folds in (format 2).
  var folded: [ChangeStamp]?
  /// Per device, the changes up to a sequence that it folds in through snapshots; the stamp's
  /// clock is the snapshot's.
  var foldedThrough: [ChangeStamp]?
  /// Folded changes that share their device and sequence with another.
  var foldedDivergent: [ChangeStamp]?
  /// Snapshots folded in, as "<device>" → its number.
  var foldedSnapshots: [String: Int]?
  /// Folded snapshots that share their device and number with another.
  var foldedDivergentSnapshots: [ChangeStamp]?
  /// The change file that holds the values of the objects this transaction puts.
  var origin: ChangeStamp?
  /// Written by a merge that folded every file: every object the fold knows but does not show,
  /// as of this entry (see ``RetiredObjects``).
  var retired: RetiredObjects?
  /// A merge of arrivals alone: the newest clock among the files it folded, the time its
  /// changes are recorded at in ``RecentWrites`` (a commit's is its `origin`'s).
  var written: UInt64?
  /// A merge of arrivals alone: the objects whose arrived writes left them as they were, by
  /// entity (ids in UUID order). Written all the same: ``RecentWrites`` records them too.
  var writtenUnchanged: [String: [UUID]]?
  /// Whether the entry deletes an object or changes a unique key of one that existed (see
  /// ``RecentWrites/reshapes(_:existed:_:)``); nil: it does not.
  var reshapes: Bool?

  /// Whether the entry changes an object. One that does not only records what a merge folded
  /// (a snapshot that held nothing new): it keeps its place in the log, so that every process
  /// folds the same, but it is no transaction to history readers or observers.
  var changesObjects: Bool { changes.contains { $0.kind != .retire } }

  var transaction: Transaction {
    var byEntity: [String: EntityChanges] = [:]
    // One entity's run of changes is gathered before it goes into the table (a log entry holds
    // them entity by entity): one lookup per run, not per change. Each change is read in place.
    var run = EntityChanges()
    var runEntity: String?
    func endRun() {
      guard let runEntity else { return }
      if let earlier = byEntity.removeValue(forKey: runEntity) {
        run.inserted = earlier.inserted + run.inserted
        run.updated = earlier.updated + run.updated
        run.deleted = earlier.deleted + run.deleted
      }
      byEntity[runEntity] = run
      run = EntityChanges()
    }
    for index in changes.indices where changes[index].kind != .retire {
      if changes[index].entity != runEntity {
        endRun()
        runEntity = changes[index].entity
      }
      switch changes[index].kind {
      case .insert: run.inserted.append(changes[index].id)
      case .update: run.updated.append(changes[index].id)
      case .delete: run.deleted.append(changes[index].id)
      case .retire: break  // left out above
      }
    }
    endRun()
    return Transaction(sequence: sequence, author: author, timestamp: timestamp, changes: byEntity)
  }
}

/// A commit writes one log record, under the store's lock: its members straight into the
/// encoder's buffer, not through Codable's keyed container (63k instructions a one-feed
/// record, a sixth of a commit). The same members, keys and order as the synthesized
/// `Encodable` would write; `encode(to:)` writes them through any other encoder.
extension LogEntry: JSONRecord {
  func encode(to encoder: Encoder) throws {
    try encodeRecord(to: encoder)
  }

  func encodeMembers(_ members: inout some JSONRecordMembers) throws {
    try members.encode(author, forKey: "author")
    try members.encode(changes, forKey: "changes")
    if let folded { try members.encode(folded.map(\.description), forKey: "folded") }
    if let foldedDivergent { try members.encode(foldedDivergent.map(\.description), forKey: "foldedDivergent") }
    if let foldedDivergentSnapshots {
      try members.encode(foldedDivergentSnapshots.map(\.description), forKey: "foldedDivergentSnapshots")
    }
    if let foldedSnapshots { try members.encode(foldedSnapshots, forKey: "foldedSnapshots") }
    if let foldedThrough { try members.encode(foldedThrough.map(\.description), forKey: "foldedThrough") }
    try members.encode(formatVersion, forKey: "formatVersion")
    if let origin { try members.encode(origin.description, forKey: "origin") }
    if let reshapes { try members.encode(reshapes, forKey: "reshapes") }
    if let retired { try members.encode(retired, forKey: "retired") }
    try members.encode(sequence, forKey: "sequence")
    try members.encode(timestamp, forKey: "timestamp")
    if let written { try members.encode(written, forKey: "written") }
    if let writtenUnchanged { try members.encode(writtenUnchanged, forKey: "writtenUnchanged") }
  }
}

/// The order a log entry holds its changes in: by entity, then by id.
enum LogOrder {
  /// The positions `0..<count` in log order, given each one's entity and id. Sorts keys of a
  /// few words, not the changes: a bulk save orders tens of thousands.
  static func positions(count: Int, entity: (Int) -> String, id: (Int) -> UUID) -> [Int] {
    var names: [String] = []  // a schema's few names, compared rather than hashed
    var keys: [(rank: Int, order: UUIDOrder, position: Int)] = []
    keys.reserveCapacity(count)
    for position in 0..<count {
      let name = entity(position)
      let rank: Int
      if let known = names.firstIndex(of: name) {
        rank = known
      } else {
        rank = names.count
        names.append(name)
      }
      keys.append((rank, uuidOrder(id(position)), position))
    }
    // Ranked in the order the names came; each takes its name's place among them sorted.
    let sorted = names.sorted()
    let rankInLog = names.map { sorted.firstIndex(of: $0)! }
    for index in keys.indices { keys[index].rank = rankInLog[keys[index].rank] }
    keys.sort { $0.rank != $1.rank ? $0.rank < $1.rank : $0.order < $1.order }
    return keys.map(\.position)
  }
}

extension [LogChange] {
  /// Puts the changes in log order (`LogOrder`), swapping each change into its place, never
  /// copying one.
  mutating func sortInLogOrder() {
    // Read in place: `self[i].id` copies the whole change first.
    var source = withUnsafeBufferPointer { changes in
      LogOrder.positions(count: changes.count, entity: { changes[$0].entity }, id: { changes[$0].id })
    }  // the change that goes at each position
    // Each cycle of the permutation in turn: a swap puts one change in place and carries the
    // cycle's first change on, until it reaches the position that takes it.
    withUnsafeMutableBufferPointer { changes in  // whose swap moves, where Array's copies
      for start in changes.indices where source[start] != start {
        var position = start
        while source[position] != start {
          let from = source[position]
          changes.swapAt(position, from)
          source[position] = position
          position = from
        }
        source[position] = position
      }
    }
  }
}

struct LogChange: Codable, JSONRecord {
  /// `retire`: an id the cache keeps as an alias of another object without ever having held
  /// it — an insert that merged into a stored object, an edit or a delete addressed to an
  /// alias. No object changes: history and observers are not told of it.
  enum Kind: String, Codable { case insert, update, delete, retire }

  /// Whether the change puts a value into the tables.
  var isPut: Bool { kind == .insert || kind == .update }
  var entity: String
  var id: UUID
  var kind: Kind
  /// The segment the object is in after the change (for a delete: the one it was in).
  var segment: String
  /// The segment it was in before, when an update moved it.
  var from: String?
  var value: (any Entity)?
  /// The value's JSON as the commit's change file writes it, when the commit encoded it already:
  /// the segment and the local log record write it as it is. Not read from a record.
  var encoded: RawJSON?
  /// The value's unique keys, in the order of its entity's constraints, as the plan computed
  /// them: the tables' indexes take them instead of reading the value again. Not part of the
  /// log record.
  var uniqueKeys: [UniqueKey]?
  /// The field groups an update of a commit sets, as its change file names them (nil: every
  /// group, as for an insert, a delete, a merge's change, or a record written before groups
  /// were kept): what ``RecentWrites`` lists it under.
  var groups: [String]?
  /// For a delete of a commit: the object it merged into on a unique key, which the cache keeps
  /// as its survivor (see ``RetiredObjects``); its change file carries the insert or the edit
  /// that took it there, as given (`encoded`).
  var mergedInto: UUID?
  /// Whether the commit's context gave this change; one it did not (a delete rule's, a holder's
  /// that another object met) is in no change file: every device's fold derives it. Not part of
  /// the log record.
  var isGiven = true
  /// For a given change whose object merged away, or that was addressed to an alias: the field
  /// groups it set (nil: an insert, which sets what it carries). Not part of the log record.
  var givenGroups: [String]?

  enum CodingKeys: String, CodingKey { case entity, id, kind, segment, from, groups, mergedInto, value }

  init(entity: String, id: UUID, kind: Kind, segment: String, from: String?, value: (any Entity)?) {
    self.entity = entity
    self.id = id
    self.kind = kind
    self.segment = segment
    self.from = from
    self.value = value
  }

  init(from decoder: Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    entity = try container.decode(String.self, forKey: .entity)
    id = try container.decode(UUID.self, forKey: .id)
    kind = try container.decode(Kind.self, forKey: .kind)
    segment = try container.decode(String.self, forKey: .segment)
    from = try container.decodeIfPresent(String.self, forKey: .from)
    groups = try container.decodeIfPresent([String].self, forKey: .groups)
    mergedInto = try container.decodeIfPresent(UUID.self, forKey: .mergedInto)
    for name in [segment] + (from.map { [$0] } ?? []) where !SegmentKey.isValid(name) {
      throw DecodingError.dataCorruptedError(
        forKey: .segment, in: container, debugDescription: "'\(name)' is not a segment name (all or YYYY-MM)")
    }
    if kind == .delete || !container.contains(.value) {
      value = nil  // a put without a value takes it from the entry's change file
    } else {
      guard let schema = (decoder.userInfo[.plainStoreSchema] as? SchemaBox)?.schema,
        let entitySchema = schema.entity(named: entity)
      else {
        throw StoreError(.damaged, path: "", "entity '\(entity)' is not in this program's schema — open the store with a newer version of the program.")
      }
      value = try Self.decodeValue(entitySchema.type, container)
    }
  }

  private static func decodeValue<E: Entity>(_ type: E.Type, _ container: KeyedDecodingContainer<CodingKeys>) throws -> any Entity {
    try container.decode(E.self, forKey: .value)
  }

  func encode(to encoder: Encoder) throws {
    try encodeRecord(to: encoder)
  }

  func encodeMembers(_ members: inout some JSONRecordMembers) throws {
    try members.encode(entity, forKey: "entity")
    if let from { try members.encode(from, forKey: "from") }
    if let groups { try members.encode(groups, forKey: "groups") }
    try members.encode(id, forKey: "id")
    try members.encode(kind.rawValue, forKey: "kind")
    if let mergedInto { try members.encode(mergedInto, forKey: "mergedInto") }
    try members.encode(segment, forKey: "segment")
    if let encoded, value != nil {
      try members.encode(encoded, forKey: "value")
    } else if let value {
      try members.encode(AnyEncodableEntity(value: value), forKey: "value")
    }
  }
}
