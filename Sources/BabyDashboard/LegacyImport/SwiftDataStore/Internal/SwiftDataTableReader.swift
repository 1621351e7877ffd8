import Foundation

/// Reads the rows of BabyProfile, FeedSession and DiaperChange from an open store into legacy
/// records, in `Z_PK` order, refusing the first value it cannot read with table, row and column.
///
/// Column names come from Core Data's naming rule over the table's real columns; when the model
/// cache decoded, it says which properties the entity has, so a column that should be there and
/// is not is refused rather than read as empty.
struct SwiftDataTableReader {
  let connection: SQLiteConnection
  private(set) var schema: CoreDataSchema
  let model: CoreDataModelCache?
  let source: String
  /// Things the user should know that do not stop the import.
  private(set) var warnings: [String] = []

  init(connection: SQLiteConnection, schema: CoreDataSchema, model: CoreDataModelCache?, source: String) {
    self.connection = connection
    self.schema = schema
    self.model = model
    self.source = source
  }

  /// One entity's table, its columns and the `Z_ENT` values its rows may carry.
  private struct Table {
    var entity: CoreDataSchema.Entity
    var name: String
    var columns: [String]
    var entityNumbers: Set<Int64>
  }

  mutating func readRecords(
    babies babyEntity: CoreDataSchema.Entity, feeds feedEntity: CoreDataSchema.Entity, diapers diaperEntity: CoreDataSchema.Entity
  ) throws -> LegacyExport {
    let babyTable = try table(of: babyEntity)
    let idColumn = try requiredColumn("id", of: babyTable)
    let nameColumn = try requiredColumn("name", of: babyTable)
    let feedTermColumn = try optionalColumn("feedTerm", of: babyTable)
    let lastValueColumn = try optionalColumn("lastFeedAmountValue", of: babyTable)
    let lastUnitColumn = try optionalColumn("lastFeedAmountUnitSymbol", of: babyTable)
    var babies: [LegacyBabyProfile] = []
    var babyIDs: [Int64: UUID] = [:]
    var defaultedFeedTerms = 0
    try forEachRow(of: babyTable) { row in
      guard let id = try row.optionalUUID(idColumn) else {
        throw CoreDataRow.RowRefusal(column: idColumn, detail: "NULL where the baby's id is required")
      }
      guard let name = try row.optionalString(nameColumn) else {
        throw CoreDataRow.RowRefusal(column: nameColumn, detail: "NULL where the baby's name is required")
      }
      var feedTerm = try row.optionalDouble(feedTermColumn)
      if let term = feedTerm, !(term.isFinite && term > 0), let feedTermColumn {
        throw CoreDataRow.RowRefusal(column: feedTermColumn, detail: "\(term) is not a feed term; expected a positive number of seconds")
      }
      if feedTerm == nil {
        defaultedFeedTerms += 1
        feedTerm = BabyProfile.defaultFeedTerm
      }
      let lastValue = try row.optionalDouble(lastValueColumn)
      try Self.checkAmount(lastValue, lastValueColumn)
      if let key = row.primaryKey, babyIDs[key] == nil { babyIDs[key] = id }
      babies.append(
        LegacyBabyProfile(
          id: id, name: name, feedTerm: feedTerm ?? BabyProfile.defaultFeedTerm, lastFeedAmountValue: lastValue,
          lastFeedAmountUnitSymbol: try row.optionalString(lastUnitColumn)))
    }
    if defaultedFeedTerms > 0 {
      warnings.append(
        "\(defaultedFeedTerms) BabyProfile row\(defaultedFeedTerms == 1 ? " has" : "s have") no feedTerm; "
          + "imported with the default of \(Int(BabyProfile.defaultFeedTerm)) seconds")
    }

    let feedTable = try table(of: feedEntity)
    let startColumn = try requiredColumn("startTime", of: feedTable)
    let endColumn = try optionalColumn("endTime", of: feedTable)
    let amountColumn = try optionalColumn("amountValue", of: feedTable)
    let unitColumn = try optionalColumn("amountUnitSymbol", of: feedTable)
    let memoColumn = try optionalColumn("memoText", of: feedTable)
    let feedProfileColumn = try profileColumn(of: feedTable, babies: babyEntity, inverse: "feedSessions")
    var feeds: [LegacyFeedSession] = []
    try forEachRow(of: feedTable) { row in
      let amount = try row.optionalDouble(amountColumn)
      try Self.checkAmount(amount, amountColumn)
      feeds.append(
        LegacyFeedSession(
          profileID: try row.optionalPrimaryKey(feedProfileColumn).flatMap { babyIDs[$0] },
          startTime: try row.date(startColumn), endTime: try row.optionalDate(endColumn), amountValue: amount,
          amountUnitSymbol: try row.optionalString(unitColumn), memoText: try row.optionalString(memoColumn)))
    }

    let diaperTable = try table(of: diaperEntity)
    let timestampColumn = try requiredColumn("timestamp", of: diaperTable)
    let typeStorage: DiaperTypeStorage
    do {
      guard let found = try DiaperTypeStorage.find(among: diaperTable.columns) else {
        throw refusal(missingColumnFor: "type", in: diaperTable)
      }
      typeStorage = found
    } catch let ambiguity as CoreDataSchema.ColumnAmbiguity {
      throw refusal(ambiguity, in: diaperTable)
    }
    let diaperProfileColumn = try profileColumn(of: diaperTable, babies: babyEntity, inverse: "diaperChanges")
    var diapers: [LegacyDiaperChange] = []
    try forEachRow(of: diaperTable) { row in
      diapers.append(
        LegacyDiaperChange(
          profileID: try row.optionalPrimaryKey(diaperProfileColumn).flatMap { babyIDs[$0] },
          timestamp: try row.date(timestampColumn), type: try typeStorage.type(in: row)))
    }

    // The export date is not in the store; nothing downstream reads it, so a fixed one keeps the
    // reader's output a function of the file alone.
    return LegacyExport(
      exportedAt: Date(timeIntervalSinceReferenceDate: 0), babyProfiles: babies, feedSessions: feeds, diaperChanges: diapers)
  }

  private static func checkAmount(_ value: Double?, _ column: String?) throws(CoreDataRow.RowRefusal) {
    if let value, let column, !(value.isFinite && value >= 0) {
      throw CoreDataRow.RowRefusal(column: column, detail: "\(value) is not an amount; expected zero or more")
    }
  }

  private mutating func table(of entity: CoreDataSchema.Entity) throws -> Table {
    let name = schema.tableName(of: entity)
    guard schema.tables.contains(name) else {
      throw refusal(
        "Z_PRIMARYKEY lists the entity \(entity.name) but the file has no table \(name) (tables: \(schema.tables.joined(separator: ", ")))"
          + " — the store is damaged or was not written by Core Data")
    }
    let columns = try schema.columns(of: name, in: connection)
    return Table(entity: entity, name: name, columns: columns, entityNumbers: schema.numbers(of: entity))
  }

  /// The column of a property the entity must have.
  private func requiredColumn(_ property: String, of table: Table) throws -> String {
    guard let column = try optionalColumn(property, of: table, required: true) else {
      throw refusal(missingColumnFor: property, in: table)
    }
    return column
  }

  /// The column of a property the entity may lack (an older model); a missing one reads as NULL,
  /// unless the model cache says the entity has that property.
  private func optionalColumn(_ property: String, of table: Table, required: Bool = false) throws -> String? {
    let column: String?
    do {
      column = try CoreDataSchema.column(for: property, among: table.columns)
    } catch {
      throw refusal(error, in: table)
    }
    if column == nil, !required, model?.entity(table.entity.name)?.properties[property] != nil {
      throw refusal(missingColumnFor: property, in: table, becauseOfModelCache: true)
    }
    return column
  }

  /// The column linking a feed or diaper to its baby: `ZPROFILE` for the to-one `profile`, or,
  /// when BabyProfile declares the to-many without an inverse, `Z<BabyProfile's Z_ENT><NAME>`
  /// (research §1.3). Without either, every row is an orphan: said in a warning.
  private mutating func profileColumn(of table: Table, babies: CoreDataSchema.Entity, inverse: String) throws -> String? {
    if let column = try optionalColumn("profile", of: table) { return column }
    let toManyColumn = "Z\(babies.number)" + CoreDataSchema.generatedName(inverse).dropFirst()
    if table.columns.contains(toManyColumn) { return toManyColumn }
    warnings.append(
      "\(table.name) has no column linking \(table.entity.name) to BabyProfile (no ZPROFILE, no \(toManyColumn)): "
        + "its rows are imported without a baby")
    return nil
  }

  /// Runs `body` on each row of the entity in `Z_PK` order, refusing a row of another entity and
  /// a value `body` cannot read with the table, row and column named.
  private func forEachRow(of table: Table, _ body: (CoreDataRow) throws -> Void) throws {
    let hasEntityColumn = table.columns.contains("Z_ENT")
    var columnIndex: [String: Int] = [:]
    let sql = "SELECT * FROM \(SQLiteConnection.quoted(table.name)) ORDER BY Z_PK"
    do {
      try connection.forEachRow(sql, columns: { names in
        columnIndex = Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
      }) { values in
        let row = CoreDataRow(values: values, columnIndex: columnIndex)
        if hasEntityColumn, case .integer(let number) = row["Z_ENT"], !table.entityNumbers.contains(number) {
          // A row of a sibling sub-entity sharing the root's table is not ours to read.
          return
        }
        do {
          try body(row)
        } catch let refused as CoreDataRow.RowRefusal {
          throw refusal(
            refused.detail,
            path: "table \(table.name), row Z_PK \(row.primaryKey.map(String.init) ?? "?"), column \(refused.column)")
        }
      }
    } catch let failure as SQLiteFailure {
      let damaged = [11, 24, 26].contains(failure.code & 0xFF)
      throw LegacyImportError(
        code: damaged ? .badData : .unreadable, source: source, path: "table \(table.name)",
        detail: "SQLite could not read the rows (\(failure)) — nothing was imported.")
    }
  }

  private func refusal(_ detail: String, path: String = "") -> LegacyImportError {
    LegacyImportError(code: .badData, source: source, path: path, detail: detail + " — nothing was imported.")
  }

  private func refusal(missingColumnFor property: String, in table: Table, becauseOfModelCache: Bool = false) -> LegacyImportError {
    let expected = CoreDataSchema.generatedName(property)
    return refusal(
      "\(table.name) has no column for \(table.entity.name).\(property)"
        + (becauseOfModelCache ? ", which the store's model (Z_MODELCACHE) declares" : "")
        + " (expected \(expected) or \(expected)<n>; it has \(table.columns.joined(separator: ", "))) — "
        + "this is not a store of the BabyDashboard model this importer knows",
      path: "table \(table.name)")
  }

  private func refusal(_ ambiguity: CoreDataSchema.ColumnAmbiguity, in table: Table) -> LegacyImportError {
    refusal(
      "\(table.name) has several columns that could hold \(table.entity.name).\(ambiguity.property) "
        + "(\(ambiguity.candidates.joined(separator: ", "))) and none named \(CoreDataSchema.generatedName(ambiguity.property))",
      path: "table \(table.name)")
  }
}
