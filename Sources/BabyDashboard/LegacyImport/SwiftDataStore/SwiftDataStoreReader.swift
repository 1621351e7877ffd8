import Foundation

/// Reads the app's SwiftData store, `BabyDashboard.sqlite` with its `-wal` and `-shm`, as a
/// ``LegacyExport`` for ``LegacyImporter``.
///
/// The store is a Core Data SQLite file (research: shared/research/swiftdata-sqlite.md). The
/// reader copies it and its companions into a private temporary folder and reads the copy
/// read-only through the system's SQLite, so the original is never opened, locked or changed;
/// the copy is removed before ``load()`` returns, whatever happened. It checks the file's
/// integrity and that the `-wal` belongs to it, learns the entities from `Z_PRIMARYKEY` (never by
/// fixed `Z_ENT` numbers), the columns from the tables and `Z_MODELCACHE` with Core Data's naming
/// rule, and decodes Core Data's values (dates as seconds since 2001, UUIDs as 16-byte blobs,
/// to-one relationships as `Z_PK`s).
///
/// ```swift
/// let reader = SwiftDataStoreReader(fileURL: appGroup.appendingPathComponent("BabyDashboard.sqlite"))
/// let contents = try reader.load()      // or hand the reader to LegacyImporter.run(_:)
/// print(contents.summary)               // framework version, entities and row counts, warnings
/// ```
public struct SwiftDataStoreReader: LegacyStoreReader {
  /// The first 16 bytes of every SQLite database file.
  public static let sqliteHeader = Data("SQLite format 3\u{0}".utf8)

  /// The store's main file (`BabyDashboard.sqlite`).
  public let fileURL: URL
  public let source: String
  /// Where the private copy is made (the system's temporary folder by default).
  public let temporaryDirectory: URL

  /// A reader of the store at `fileURL`, named `source` in messages (its path by default).
  public init(fileURL: URL, source: String? = nil, temporaryDirectory: URL = FileManager.default.temporaryDirectory) {
    self.fileURL = fileURL
    self.source = source ?? fileURL.path
    self.temporaryDirectory = temporaryDirectory
  }

  public func read() throws -> LegacyExport {
    try load().export
  }

  /// Reads the store: its records as a legacy export, and a summary of what the file holds.
  ///
  /// - Throws: ``LegacyImportError``: ``LegacyImportError/Code/unreadable`` when the file is
  ///   missing or cannot be copied; ``LegacyImportError/Code/badData`` when it is not SQLite, is
  ///   damaged, has a `-wal` of another database, is a store of another model (naming the entities
  ///   it holds), or has a row that cannot be read (naming table, row and column).
  public func load() throws -> SwiftDataStoreContents {
    try checkIsSQLite()
    let copy: PrivateStoreCopy
    do {
      copy = try PrivateStoreCopy(of: fileURL, under: temporaryDirectory)
    } catch let changing as PrivateStoreCopy.ChangedWhileCopying {
      throw LegacyImportError(
        code: .unreadable, source: source,
        detail: "\(changing) — close the app and its widget (or copy the three files elsewhere first), then import again.")
    } catch {
      throw LegacyImportError(
        code: .unreadable, source: source,
        detail: "the store could not be copied aside for reading (\(error.localizedDescription)) — "
          + "check its permissions and the free space in \(temporaryDirectory.path).")
    }
    let result = Result { () throws -> SwiftDataStoreContents in try read(copy) }
    var removalProblem: String?
    do { try copy.remove() } catch {
      removalProblem = "the temporary copy at \(copy.folder.path) could not be removed (\(error.localizedDescription)); delete it by hand"
    }
    var contents = try result.get()
    if let removalProblem { contents.summary.warnings.append(removalProblem) }
    return contents
  }

  /// Refuses a missing file, a folder, and a file that does not start as SQLite files do.
  private func checkIsSQLite() throws {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: fileURL.path, isDirectory: &isDirectory) else {
      throw LegacyImportError(code: .unreadable, source: source, detail: "no such file — check the path.")
    }
    guard !isDirectory.boolValue else {
      throw LegacyImportError(code: .unreadable, source: source, detail: "is a folder; expected the store file BabyDashboard.sqlite.")
    }
    let header: Data
    do {
      let handle = try FileHandle(forReadingFrom: fileURL)
      defer { try? handle.close() }  // a read-only handle: closing cannot lose anything
      header = try handle.read(upToCount: Self.sqliteHeader.count) ?? Data()
    } catch {
      throw LegacyImportError(
        code: .unreadable, source: source, detail: "the file cannot be read (\(error.localizedDescription)) — check its permissions.")
    }
    guard header == Self.sqliteHeader else {
      throw refusal("is not an SQLite database (it does not start with \"SQLite format 3\"); expected the app's BabyDashboard.sqlite")
    }
  }

  private func read(_ copy: PrivateStoreCopy) throws -> SwiftDataStoreContents {
    if copy.hadWAL { try checkWALHeader(of: copy) }
    let connection = try sqlite("open") { try SQLiteConnection(readOnly: copy.databaseURL) }
    try checkIntegrity(connection)
    var schema = try sqlite("read its tables") { try CoreDataSchema(reading: connection) }
    guard schema.isCoreDataStore else {
      throw refusal(
        "is an SQLite database but not a Core Data / SwiftData store (no Z_PRIMARYKEY and Z_METADATA tables; "
          + "its tables: \(Self.list(schema.tables))); expected the app's BabyDashboard.sqlite")
    }
    let metadata = try sqlite("read Z_METADATA") { try CoreDataMetadata(reading: connection) }
    var warnings: [String] = []
    if copy.hadWAL { try checkWALBelongs(copy, to: metadata, warnings: &warnings) }
    let entities = try requiredEntities(in: schema)
    if let problem = metadata.problem { warnings.append(problem) }
    if let type = metadata.storeType, type != "SQLite" {
      warnings.append("Z_METADATA says NSStoreType \(type.debugDescription), not \"SQLite\"")
    }
    for other in schema.modelEntities where !Self.entityNames.contains(other.name) {
      warnings.append("the store also holds entity \(other.name), which this importer does not read")
    }

    let model = try sqlite("read Z_MODELCACHE") { try CoreDataModelCache.load(from: connection, tables: schema.tables) }
    var tableReader = SwiftDataTableReader(
      connection: connection, schema: schema, model: model.cache, source: source)
    let export = try tableReader.readRecords(babies: entities.babies, feeds: entities.feeds, diapers: entities.diapers)
    schema = tableReader.schema
    warnings += tableReader.warnings

    let pending = try sqlite("read \(CloudKitPendingChanges.table)") {
      try CloudKitPendingChanges(reading: connection, schema: &schema, entities: schema.entities)
    }
    warnings += pending.warnings

    let summary = SwiftDataStoreSummary(
      source: source, hadWAL: copy.hadWAL, hadSHM: copy.hadSHM, frameworkVersion: metadata.frameworkVersion,
      modelVersionIdentifiers: metadata.modelVersionIdentifiers, storeUUID: metadata.storeUUID,
      modelSource: model.cache == nil ? .namingRule(model.reason) : .modelCache,
      entities: [
        .init(name: "BabyProfile", table: schema.tableName(of: entities.babies), rows: export.babyProfiles.count),
        .init(name: "DiaperChange", table: schema.tableName(of: entities.diapers), rows: export.diaperChanges.count),
        .init(name: "FeedSession", table: schema.tableName(of: entities.feeds), rows: export.feedSessions.count),
      ],
      otherEntities: schema.entities.map(\.name).filter { !Self.entityNames.contains($0) }.sorted(),
      warnings: warnings)
    return SwiftDataStoreContents(export: export, summary: summary)
  }

  static let entityNames: Set<String> = ["BabyProfile", "FeedSession", "DiaperChange"]

  /// The app's three entities, or a refusal naming those the store holds instead.
  private func requiredEntities(in schema: CoreDataSchema) throws -> (
    babies: CoreDataSchema.Entity, feeds: CoreDataSchema.Entity, diapers: CoreDataSchema.Entity
  ) {
    guard let babies = schema.entity(named: "BabyProfile"), let feeds = schema.entity(named: "FeedSession"),
      let diapers = schema.entity(named: "DiaperChange")
    else {
      let missing = ["BabyProfile", "FeedSession", "DiaperChange"].filter { schema.entity(named: $0) == nil }
      let held = schema.modelEntities.map(\.name)
      throw refusal(
        "is a SwiftData store of another model: it holds the entities \(held.isEmpty ? "(none)" : Self.list(held)), "
          + "not \(Self.list(missing)); expected the BabyDashboard app's store (BabyProfile, FeedSession, DiaperChange)")
    }
    return (babies, feeds, diapers)
  }

  /// `PRAGMA quick_check`: a damaged file is refused before any row is read.
  private func checkIntegrity(_ connection: SQLiteConnection) throws {
    let result = try sqlite("check its integrity") { try connection.rows("PRAGMA quick_check") }
    let messages = result.rows.compactMap { row -> String? in
      if case .text(let text) = row.first { return text }
      return nil
    }
    guard messages == ["ok"] else {
      let shown = messages.prefix(3).joined(separator: "; ")
      throw refusal(
        "is damaged (SQLite's quick_check: \(shown)\(messages.count > 3 ? "; …" : "")) — "
          + "copy the store again from the device, with its -wal and -shm, while the app is closed")
    }
  }

  /// SQLite silently ignores a `-wal` whose header it does not accept, which would drop the most
  /// recent rows without a word: refuse one that is not a write-ahead log, or is one for pages of
  /// another size than the store's.
  private func checkWALHeader(of copy: PrivateStoreCopy) throws {
    let wal: Data
    let main: Data
    let walSize: Int
    do {
      let walURL = PrivateStoreCopy.companion(of: copy.databaseURL, "-wal")
      walSize = (try FileManager.default.attributesOfItem(atPath: walURL.path)[.size] as? NSNumber)?.intValue ?? 0
      wal = try Self.prefix(32, of: walURL)
      main = try Self.prefix(100, of: copy.databaseURL)
    } catch {
      throw LegacyImportError(code: .unreadable, source: source, detail: "its copy cannot be read (\(error.localizedDescription)).")
    }
    guard !wal.isEmpty else { return }  // an empty -wal is what SQLite leaves after a checkpoint
    func bigEndian(_ data: Data, _ offset: Int, _ count: Int) -> Int {
      data.dropFirst(offset).prefix(count).reduce(0) { $0 << 8 | Int($1) }
    }
    let magic = wal.count >= 32 ? bigEndian(wal, 0, 4) : 0
    guard magic == 0x377F_0682 || magic == 0x377F_0683 else {
      throw refusal(
        "its -wal file is not an SQLite write-ahead log (\(walSize) bytes, no WAL header); "
          + "it does not belong to this store — copy the three files again together")
    }
    let walPageSize = bigEndian(wal, 8, 4)
    let rawMainPageSize = main.count >= 100 ? bigEndian(main, 16, 2) : 0
    let mainPageSize = rawMainPageSize == 1 ? 65536 : rawMainPageSize
    if mainPageSize != 0, walPageSize != mainPageSize {
      throw refusal(
        "its -wal file holds pages of \(walPageSize) bytes but the store's pages are \(mainPageSize) bytes: "
          + "the -wal belongs to another database — copy the three files again together")
    }
  }

  /// The main file read alone must be the same store (`Z_METADATA.Z_UUID`) as the main file with
  /// its `-wal` applied; otherwise the `-wal` came from another copy of a store.
  private func checkWALBelongs(_ copy: PrivateStoreCopy, to metadata: CoreDataMetadata, warnings: inout [String]) throws {
    let mainOnly: CoreDataMetadata?
    do {
      let connection = try SQLiteConnection(readOnly: copy.databaseURL, ignoringWAL: true)
      let hasMetadata = try connection.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'Z_METADATA'") != .integer(0)
      mainOnly = hasMetadata ? try CoreDataMetadata(reading: connection) : nil
    } catch {
      warnings.append("the main file could not be read without its -wal to check that they belong together (\(error))")
      return
    }
    guard let before = mainOnly?.storeUUID, let after = metadata.storeUUID, before != after else { return }
    throw refusal(
      "its -wal file belongs to another store: the main file is store \(before), with the -wal applied it reads as store \(after) — "
        + "copy BabyDashboard.sqlite, -wal and -shm again together from the same app group")
  }

  /// The first `count` bytes of the file (fewer when it is shorter).
  private static func prefix(_ count: Int, of url: URL) throws -> Data {
    let handle = try FileHandle(forReadingFrom: url)
    defer { try? handle.close() }  // a read-only handle: closing cannot lose anything
    return try handle.read(upToCount: count) ?? Data()
  }

  /// Runs one SQLite step, turning a library failure into a message about this file.
  private func sqlite<T>(_ what: String, _ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let failure as SQLiteFailure {
      // SQLITE_CORRUPT 11, SQLITE_FORMAT 24, SQLITE_NOTADB 26: the bytes are at fault.
      if [11, 24, 26].contains(failure.code & 0xFF) {
        throw refusal("is damaged: SQLite could not \(what) (\(failure)) — copy the store again from the device, with its -wal and -shm")
      }
      throw LegacyImportError(
        code: .unreadable, source: source,
        detail: "SQLite could not \(what) in the private copy (\(failure)) — check the free space and try again.")
    }
  }

  func refusal(_ detail: String, path: String = "") -> LegacyImportError {
    LegacyImportError(code: .badData, source: source, path: path, detail: detail + " — nothing was imported.")
  }

  static func list(_ names: [String]) -> String {
    names.joined(separator: ", ")
  }
}

/// What ``SwiftDataStoreReader/load()`` returns: the records, and what the file held.
public struct SwiftDataStoreContents: Sendable {
  /// The store's records, in `Z_PK` order, as the JSON export would carry them.
  public var export: LegacyExport
  /// The framework version, entities, row counts and warnings.
  public var summary: SwiftDataStoreSummary
}
