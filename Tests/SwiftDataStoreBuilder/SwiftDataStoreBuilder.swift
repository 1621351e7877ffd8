import BabyDashboard
import Foundation

/// Writes a `BabyDashboard.sqlite` the way SwiftData would, from a ``LegacyExport``: our own
/// construction, to the conventions of shared/research/swiftdata-sqlite.md (§1.3–§1.7), with the
/// SQLite C API — not a file made by Apple's framework.
///
/// Tables `ZBABYPROFILE`, `ZFEEDSESSION`, `ZDIAPERCHANGE` with `Z_PK`/`Z_ENT`/`Z_OPT`;
/// `Z_PRIMARYKEY` with entities numbered in name order; `Z_METADATA` with a binary plist;
/// `Z_MODELCACHE` with a raw-DEFLATEd keyed archive; history tables; CloudKit tables when asked.
/// Dates are seconds since 2001, UUIDs 16-byte blobs, `profile` the baby's `Z_PK`.
///
/// ```swift
/// var builder = SwiftDataStoreBuilder()
/// builder.diaperTypeShape = .binaryPropertyList
/// try builder.write(export, to: folder.appendingPathComponent("BabyDashboard.sqlite"))
/// ```
public struct SwiftDataStoreBuilder {
  /// The shapes `DiaperChange.type` might take on disk (the research's open question).
  public enum DiaperTypeShape: String, Sendable, CaseIterable {
    /// `ZTYPE VARCHAR` holding "pee" / "poo".
    case text
    /// `ZTYPE VARCHAR` holding " Pee" / "POO": odd case and spaces.
    case textInOddCase
    /// `ZTYPE BLOB`: a binary property list of the raw value.
    case binaryPropertyList
    /// `ZTYPE BLOB`: a binary property list of a keyed enum encoding, `{"pee": {}}`.
    case keyedBinaryPropertyList
    /// `ZTYPE BLOB`: JSON of the raw value, `"pee"`.
    case json
    /// `ZTYPE BLOB`: the raw value's UTF-8 bytes.
    case utf8Bytes
    /// A composite attribute: `ZTYPE_RAWVALUE VARCHAR`.
    case compositeRawValue
    /// A composite attribute with one column per case: `ZTYPE_PEE`, `ZTYPE_POO`, one set to 1.
    case compositeCaseColumns
  }

  public var diaperTypeShape: DiaperTypeShape = .text
  /// Column names to use instead of the naming rule's, by `Entity.property` (e.g.
  /// `"DiaperChange.type": "ZTYPE1"`, the suffix Core Data adds on a collision).
  public var columnNames: [String: String] = [:]
  /// Leave the rows in the `-wal` (the writer's connection still open when the files are
  /// copied), as a running app does; otherwise checkpoint them into the main file.
  public var rowsOnlyInWAL = true
  public var includesModelCache = true
  /// CloudKit mirroring tables, with these many rows per entity flagged `ZNEEDSUPLOAD` (the
  /// first ones) and these many deleted rows flagged `ZNEEDSCLOUDDELETE`.
  public var cloudKit: (pendingUploads: [String: Int], pendingCloudDeletes: [String: Int])?
  public var storeUUID = UUID(uuidString: "6C1F4E8A-3B2D-4C5E-9F70-8A1B2C3D4E5F")!
  public var frameworkVersion = 1345
  /// Checkpoint the schema into the main file before the rows are written (a store the app has
  /// opened before); otherwise the whole store, `Z_METADATA` included, is in the `-wal`.
  public var checkpointsSchema = true
  /// SQLite's page size, when not its default.
  public var pageSize: Int?
  /// Statements run after the rows are inserted, in the same transaction: to spoil a value.
  public var extraSQL: [String] = []

  public init() {}

  /// Entity numbers as Core Data handed them out in the stores seen: the model's entities in
  /// name order from 1.
  public static let entityNumbers = ["BabyProfile": 1, "DiaperChange": 2, "FeedSession": 3]

  /// Writes the store (and its `-wal` / `-shm` when ``rowsOnlyInWAL``) at `url`.
  public func write(_ export: LegacyExport, to url: URL) throws {
    try StoreFiles.write(to: url, keepingWAL: rowsOnlyInWAL, pageSize: pageSize) { writer, checkpoint in
      try createSchema(in: writer)
      if checkpointsSchema { try checkpoint() }
      try writer.execute("BEGIN")
      try insert(export, into: writer)
      for statement in extraSQL { try writer.execute(statement) }
      try writer.execute("COMMIT")
    }
  }

  /// Writes a SwiftData store of another app's model (`Component`, `CraftingRecipe`, `Item`, as
  /// the real store of the research).
  public static func writeForeignModel(to url: URL) throws {
    try StoreFiles.write(to: url, keepingWAL: false, pageSize: nil) { writer, _ in
      try writer.execute(
        """
        CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
        CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
        CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB);
        CREATE TABLE ZCOMPONENT ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCOUNT INTEGER, ZITEM INTEGER,
          ZNAME VARCHAR, ZID BLOB );
        CREATE TABLE ZCRAFTINGRECIPE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZPRODUCEDITEM INTEGER );
        CREATE TABLE ZITEM ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR, ZID BLOB );
        INSERT INTO Z_PRIMARYKEY VALUES (1, 'Component', 0, 5), (2, 'CraftingRecipe', 0, 1), (3, 'Item', 0, 12),
          (16001, 'CHANGE', 0, 55), (16002, 'TRANSACTION', 0, 38), (16003, 'TRANSACTIONSTRING', 0, 2);
        INSERT INTO ZITEM VALUES (1, 3, 1, 'Stick', NULL);
        """)
      try writer.insert(
        into: "Z_METADATA",
        [
          ("Z_VERSION", .integer(1)), ("Z_UUID", .text(UUID().uuidString)),
          ("Z_PLIST", .blob(try metadataPlist(entities: ["Component", "CraftingRecipe", "Item"], frameworkVersion: 1345))),
        ])
    }
  }

  // MARK: - Schema

  private func column(_ entity: String, _ property: String) -> String {
    columnNames["\(entity).\(property)"] ?? "Z" + property.uppercased()
  }

  private func createSchema(in writer: SQLiteWriter) throws {
    let type = column("DiaperChange", "type")
    let typeColumns: String
    switch diaperTypeShape {
    case .text, .textInOddCase: typeColumns = "\(type) VARCHAR"
    case .binaryPropertyList, .keyedBinaryPropertyList, .json, .utf8Bytes: typeColumns = "\(type) BLOB"
    case .compositeRawValue: typeColumns = "\(type)_RAWVALUE VARCHAR"
    case .compositeCaseColumns: typeColumns = "\(type)_PEE INTEGER, \(type)_POO INTEGER"
    }
    let profileFeed = column("FeedSession", "profile")
    let profileDiaper = column("DiaperChange", "profile")
    try writer.execute(
      """
      CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
      CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
      CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB);
      CREATE TABLE ZBABYPROFILE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER,
        \(column("BabyProfile", "feedTerm")) FLOAT, \(column("BabyProfile", "lastFeedAmountValue")) FLOAT,
        \(column("BabyProfile", "name")) VARCHAR, \(column("BabyProfile", "lastFeedAmountUnitSymbol")) VARCHAR,
        \(column("BabyProfile", "id")) BLOB );
      CREATE TABLE ZFEEDSESSION ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER,
        \(profileFeed) INTEGER, \(column("FeedSession", "amountValue")) FLOAT, \(column("FeedSession", "endTime")) TIMESTAMP,
        \(column("FeedSession", "startTime")) TIMESTAMP, \(column("FeedSession", "amountUnitSymbol")) VARCHAR,
        \(column("FeedSession", "memoText")) VARCHAR );
      CREATE TABLE ZDIAPERCHANGE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER,
        \(profileDiaper) INTEGER, \(column("DiaperChange", "timestamp")) TIMESTAMP, \(typeColumns) );
      CREATE INDEX ZFEEDSESSION_\(profileFeed)_INDEX ON ZFEEDSESSION (\(profileFeed));
      CREATE INDEX ZDIAPERCHANGE_\(profileDiaper)_INDEX ON ZDIAPERCHANGE (\(profileDiaper));
      CREATE TABLE ACHANGE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCHANGETYPE INTEGER,
        ZENTITY INTEGER, ZENTITYPK INTEGER, ZTRANSACTIONID INTEGER, ZCOLUMNS BLOB );
      CREATE TABLE ATRANSACTION ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZAUTHORTS INTEGER,
        ZBUNDLEIDTS INTEGER, ZCONTEXTNAMETS INTEGER, ZPROCESSIDTS INTEGER, ZTIMESTAMP FLOAT, ZAUTHOR VARCHAR,
        ZBUNDLEID VARCHAR, ZCONTEXTNAME VARCHAR, ZPROCESSID VARCHAR, ZQUERYGEN BLOB );
      CREATE TABLE ATRANSACTIONSTRING ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR );
      """)
    if cloudKit != nil {
      try writer.execute(
        """
        CREATE TABLE ANSCKRECORDMETADATA ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZENTITYID INTEGER,
          ZENTITYPK INTEGER, ZLASTEXPORTEDTRANSACTIONNUMBER INTEGER, ZNEEDSCLOUDDELETE INTEGER, ZNEEDSLOCALDELETE INTEGER,
          ZNEEDSUPLOAD INTEGER, ZPENDINGEXPORTCHANGETYPENUMBER INTEGER, ZPENDINGEXPORTTRANSACTIONNUMBER INTEGER,
          ZENCODEDRECORDASSET INTEGER, ZRECORDZONE INTEGER, ZSYSTEMFIELDSASSET INTEGER, ZCKRECORDNAME VARCHAR );
        CREATE UNIQUE INDEX Z_NSCKRecordMetadata_UNIQUE_entityId_entityPK ON ANSCKRECORDMETADATA (ZENTITYID, ZENTITYPK);
        CREATE TABLE ANSCKMETADATAENTRY ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZBOOLVALUENUM INTEGER,
          ZINTEGERVALUE INTEGER, ZDATEVALUE TIMESTAMP, ZKEY VARCHAR, ZSTRINGVALUE VARCHAR, ZTRANSFORMEDVALUE BLOB );
        CREATE TABLE ANSCKRECORDZONEMETADATA ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCKRECORDZONENAME VARCHAR );
        """)
    }

    // Entity numbers exist from the store's creation; Z_MAX grows as rows are inserted.
    var entities = Self.entityNumbers.map { ($0.value, $0.key) } + [(16001, "CHANGE"), (16002, "TRANSACTION"), (16003, "TRANSACTIONSTRING")]
    if cloudKit != nil { entities += [(17009, "NSCKMetadataEntry"), (17012, "NSCKRecordMetadata"), (17013, "NSCKRecordZoneMetadata")] }
    for (number, name) in entities.sorted(by: { $0.0 < $1.0 }) {
      try writer.insert(
        into: "Z_PRIMARYKEY",
        [("Z_ENT", .integer(Int64(number))), ("Z_NAME", .text(name)), ("Z_SUPER", .integer(0)), ("Z_MAX", .integer(0))])
    }
    let metadataEntities = Self.entityNumbers.keys.sorted()
    try writer.insert(
      into: "Z_METADATA",
      [("Z_VERSION", .integer(1)), ("Z_UUID", .text(storeUUID.uuidString)),
       ("Z_PLIST", .blob(try Self.metadataPlist(entities: metadataEntities, frameworkVersion: frameworkVersion)))])
    if includesModelCache {
      try writer.insert(into: "Z_MODELCACHE", [("Z_CONTENT", .blob(try modelCache()))])
    }
  }

  private func modelCache() throws -> Data {
    var typeProperty = ArchivedModel.Property(name: "type", attributeType: 700)
    switch diaperTypeShape {
    case .text, .textInOddCase: break
    case .binaryPropertyList, .keyedBinaryPropertyList, .json, .utf8Bytes: typeProperty.attributeType = 1800  // transformable
    case .compositeRawValue, .compositeCaseColumns: typeProperty.attributeType = 2100  // composite
    }
    return try ArchivedModel.compressedArchive(of: [
      ("BabyProfile", [
        .init(name: "id", attributeType: 1100), .init(name: "name", attributeType: 700), .init(name: "feedTerm", attributeType: 500),
        .init(name: "lastFeedAmountValue", attributeType: 500), .init(name: "lastFeedAmountUnitSymbol", attributeType: 700),
      ]),
      ("DiaperChange", [
        .init(name: "timestamp", attributeType: 900), typeProperty, .init(name: "profile", attributeType: nil),
      ]),
      ("FeedSession", [
        .init(name: "startTime", attributeType: 900), .init(name: "endTime", attributeType: 900),
        .init(name: "amountValue", attributeType: 500), .init(name: "amountUnitSymbol", attributeType: 700),
        .init(name: "memoText", attributeType: 700), .init(name: "profile", attributeType: nil),
      ]),
    ])
  }

  static func metadataPlist(entities: [String], frameworkVersion: Int) throws -> Data {
    var hashes: [String: Data] = [:]
    for entity in entities { hashes[entity] = Data(repeating: UInt8(entity.count), count: 32) }
    let plist: [String: Any] = [
      "NSPersistenceFrameworkVersion": frameworkVersion,
      "NSStoreModelVersionHashes": hashes,
      "NSStoreModelVersionHashesVersion": 3,
      "NSStoreModelVersionIdentifiers": ["1.0.0"],
      "NSStoreType": "SQLite",
      "_NSAutoVacuumLevel": "2",
    ]
    return try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
  }

  // MARK: - Rows

  private func insert(_ export: LegacyExport, into writer: SQLiteWriter) throws {
    let numbers = Self.entityNumbers
    var babyKeys: [UUID: Int64] = [:]
    for (offset, baby) in export.babyProfiles.enumerated() {
      let key = Int64(offset + 1)
      if babyKeys[baby.id] == nil { babyKeys[baby.id] = key }
      try writer.insert(into: "ZBABYPROFILE", [
        ("Z_PK", .integer(key)), ("Z_ENT", .integer(Int64(numbers["BabyProfile"]!))), ("Z_OPT", .integer(1)),
        (column("BabyProfile", "feedTerm"), .real(baby.feedTerm)),
        (column("BabyProfile", "lastFeedAmountValue"), baby.lastFeedAmountValue.map { .real($0) } ?? .null),
        (column("BabyProfile", "name"), .text(baby.name)),
        (column("BabyProfile", "lastFeedAmountUnitSymbol"), baby.lastFeedAmountUnitSymbol.map { .text($0) } ?? .null),
        (column("BabyProfile", "id"), .blob(Self.bytes(of: baby.id))),
      ])
    }
    // An id no baby has becomes a Z_PK no row has: a dangling reference, as a deleted baby leaves.
    func profileKey(_ id: UUID?) -> SQLiteWriter.Value {
      guard let id else { return .null }
      return .integer(babyKeys[id] ?? Int64(1000 + export.babyProfiles.count))
    }
    for (offset, feed) in export.feedSessions.enumerated() {
      try writer.insert(into: "ZFEEDSESSION", [
        ("Z_PK", .integer(Int64(offset + 1))), ("Z_ENT", .integer(Int64(numbers["FeedSession"]!))), ("Z_OPT", .integer(2)),
        (column("FeedSession", "profile"), profileKey(feed.profileID)),
        (column("FeedSession", "amountValue"), feed.amountValue.map { .real($0) } ?? .null),
        (column("FeedSession", "endTime"), feed.endTime.map { .real($0.timeIntervalSinceReferenceDate) } ?? .null),
        (column("FeedSession", "startTime"), .real(feed.startTime.timeIntervalSinceReferenceDate)),
        (column("FeedSession", "amountUnitSymbol"), feed.amountUnitSymbol.map { .text($0) } ?? .null),
        (column("FeedSession", "memoText"), feed.memoText.map { .text($0) } ?? .null),
      ])
    }
    for (offset, diaper) in export.diaperChanges.enumerated() {
      try writer.insert(into: "ZDIAPERCHANGE", [
        ("Z_PK", .integer(Int64(offset + 1))), ("Z_ENT", .integer(Int64(numbers["DiaperChange"]!))), ("Z_OPT", .integer(1)),
        (column("DiaperChange", "profile"), profileKey(diaper.profileID)),
        (column("DiaperChange", "timestamp"), .real(diaper.timestamp.timeIntervalSinceReferenceDate)),
      ] + (try typeValues(diaper.type)))
    }
    for (entity, max) in [
      ("BabyProfile", export.babyProfiles.count), ("DiaperChange", export.diaperChanges.count),
      ("FeedSession", export.feedSessions.count), ("CHANGE", 1), ("TRANSACTION", 1), ("TRANSACTIONSTRING", 1),
    ] {
      try writer.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = \(max) WHERE Z_NAME = '\(entity)'")
    }
    try writer.execute(
      """
      INSERT INTO ATRANSACTION (Z_PK, Z_ENT, Z_OPT, ZTIMESTAMP, ZAUTHOR, ZBUNDLEID, ZPROCESSID)
        VALUES (1, 16002, NULL, 743915993.6, NULL, 'sungdoo.babyDashboard', 'BabyDashboard');
      INSERT INTO ACHANGE (Z_PK, Z_ENT, Z_OPT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID, ZCOLUMNS)
        VALUES (1, 16001, NULL, 0, \(numbers["FeedSession"]!), 1, 1, NULL);
      INSERT INTO ATRANSACTIONSTRING (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (1, 16003, NULL, 'BabyDashboard');
      """)
    if let cloudKit {
      try writer.execute("INSERT INTO ANSCKRECORDZONEMETADATA VALUES (1, 17013, 1, 'com.apple.coredata.cloudkit.zone')")
      var metadataKey: Int64 = 0
      let counts = [
        "BabyProfile": export.babyProfiles.count, "DiaperChange": export.diaperChanges.count, "FeedSession": export.feedSessions.count,
      ]
      for (entity, rows) in counts.sorted(by: { $0.key < $1.key }) {
        let pending = cloudKit.pendingUploads[entity] ?? 0
        for row in 0..<rows {
          metadataKey += 1
          try insertRecordMetadata(
            metadataKey, entity: numbers[entity]!, row: row + 1, needsUpload: row < pending, needsCloudDelete: false, into: writer)
        }
        for deleted in 0..<(cloudKit.pendingCloudDeletes[entity] ?? 0) {
          metadataKey += 1
          // A deleted row's metadata outlives the row until iCloud confirms the deletion.
          try insertRecordMetadata(
            metadataKey, entity: numbers[entity]!, row: rows + 500 + deleted, needsUpload: false, needsCloudDelete: true, into: writer)
        }
      }
    }
  }

  private func insertRecordMetadata(
    _ key: Int64, entity: Int, row: Int, needsUpload: Bool, needsCloudDelete: Bool, into writer: SQLiteWriter
  ) throws {
    try writer.insert(into: "ANSCKRECORDMETADATA", [
      ("Z_PK", .integer(key)), ("Z_ENT", .integer(17012)), ("Z_OPT", .integer(1)), ("ZENTITYID", .integer(Int64(entity))),
      ("ZENTITYPK", .integer(Int64(row))), ("ZNEEDSCLOUDDELETE", .integer(needsCloudDelete ? 1 : 0)),
      ("ZNEEDSUPLOAD", .integer(needsUpload ? 1 : 0)), ("ZRECORDZONE", .integer(1)), ("ZCKRECORDNAME", .text(UUID().uuidString)),
    ])
  }

  private func typeValues(_ type: DiaperType) throws -> [(column: String, value: SQLiteWriter.Value)] {
    let column = column("DiaperChange", "type")
    let raw = type.rawValue
    switch diaperTypeShape {
    case .text: return [(column, .text(raw))]
    case .textInOddCase: return [(column, .text(type == .pee ? " Pee" : "POO"))]
    case .binaryPropertyList:
      return [(column, .blob(try PropertyListSerialization.data(fromPropertyList: raw, format: .binary, options: 0)))]
    case .keyedBinaryPropertyList:
      return [(column, .blob(try PropertyListSerialization.data(fromPropertyList: [raw: [String: Any]()], format: .binary, options: 0)))]
    case .json: return [(column, .blob(Data("\"\(raw)\"".utf8)))]
    case .utf8Bytes: return [(column, .blob(Data(raw.utf8)))]
    case .compositeRawValue: return [("\(column)_RAWVALUE", .text(raw))]
    case .compositeCaseColumns:
      return [("\(column)_PEE", type == .pee ? .integer(1) : .null), ("\(column)_POO", type == .poo ? .integer(1) : .null)]
    }
  }

  static func bytes(of uuid: UUID) -> Data {
    withUnsafeBytes(of: uuid.uuid) { Data($0) }
  }
}
