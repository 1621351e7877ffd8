import Foundation

/// What a Core Data SQLite file says about its own model: the entities of `Z_PRIMARYKEY`, the
/// tables of `sqlite_master` and each table's columns (`PRAGMA table_info`).
///
/// Nothing here is hard-coded by number: entity numbers (`Z_ENT`) are looked up by name, tables
/// and columns follow Core Data's naming rule (research §1.3: `Z` + the upper-cased root entity or
/// property name, a decimal suffix when the name was taken).
struct CoreDataSchema {
  /// One row of `Z_PRIMARYKEY`.
  struct Entity: Equatable {
    /// `Z_ENT`: the number rows of this entity carry.
    var number: Int64
    /// `Z_NAME`: the entity name as written in the model (the Swift class name for SwiftData).
    var name: String
    /// `Z_SUPER`: the parent entity's number, 0 for none.
    var superNumber: Int64
    /// `Z_MAX`: the last `Z_PK` handed out.
    var maxPrimaryKey: Int64?
  }

  /// Entity numbers from this one up are Core Data's own (history 16001…, CloudKit 17000…).
  static let firstAncillaryEntityNumber: Int64 = 16000

  let entities: [Entity]
  /// Table names, sorted.
  let tables: [String]
  private var columnsByTable: [String: [String]] = [:]

  /// Reads the tables and `Z_PRIMARYKEY`; columns are read lazily by ``columns(of:in:)``.
  ///
  /// - Throws: ``SQLiteFailure`` when the file cannot be read; `nil` entities when there is no
  ///   `Z_PRIMARYKEY` (the caller says what that means).
  init(reading connection: SQLiteConnection) throws {
    tables = try connection.rows("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").rows.compactMap {
      if case .text(let name) = $0.first { return name }
      return nil
    }
    guard tables.contains("Z_PRIMARYKEY") else {
      entities = []
      return
    }
    let result = try connection.rows("SELECT * FROM Z_PRIMARYKEY ORDER BY Z_ENT")
    func index(_ name: String) -> Int? { result.columns.firstIndex(of: name) }
    var entities: [Entity] = []
    if let number = index("Z_ENT"), let name = index("Z_NAME") {
      for row in result.rows {
        guard case .integer(let entityNumber) = row[number], case .text(let entityName) = row[name] else { continue }
        var superNumber: Int64 = 0
        if let column = index("Z_SUPER"), case .integer(let value) = row[column] { superNumber = value }
        var maxKey: Int64?
        if let column = index("Z_MAX"), case .integer(let value) = row[column] { maxKey = value }
        entities.append(Entity(number: entityNumber, name: entityName, superNumber: superNumber, maxPrimaryKey: maxKey))
      }
    }
    self.entities = entities
  }

  /// Whether the file is a Core Data store at all.
  var isCoreDataStore: Bool { tables.contains("Z_PRIMARYKEY") && tables.contains("Z_METADATA") }

  /// The app's own entities (not Core Data's history and CloudKit ones), by name.
  var modelEntities: [Entity] {
    entities.filter { $0.number < Self.firstAncillaryEntityNumber }.sorted { $0.name < $1.name }
  }

  func entity(named name: String) -> Entity? {
    entities.first { $0.name == name }
  }

  func entity(numbered number: Int64) -> Entity? {
    entities.first { $0.number == number }
  }

  /// The entity's number and those of every entity below it: the `Z_ENT` values its table may
  /// hold for it.
  func numbers(of entity: Entity) -> Set<Int64> {
    var numbers: Set<Int64> = [entity.number]
    var grew = true
    while grew {
      let children = entities.filter { numbers.contains($0.superNumber) && !numbers.contains($0.number) }
      grew = !children.isEmpty
      numbers.formUnion(children.map(\.number))
    }
    return numbers
  }

  /// Core Data's table for `entity`: `Z` + the upper-cased name of its root entity (sub-entities
  /// share their root's table).
  func tableName(of entity: Entity) -> String {
    var root = entity
    var seen: Set<Int64> = [root.number]
    while root.superNumber != 0, let parent = self.entity(numbered: root.superNumber), seen.insert(parent.number).inserted {
      root = parent
    }
    return Self.generatedName(root.name)
  }

  /// `Z` + each ASCII letter upper-cased, as `NSSQLStoreMappingGenerator` does.
  static func generatedName(_ name: String) -> String {
    var result = "Z"
    for scalar in name.unicodeScalars {
      // toupper in the C locale: ASCII letters only, everything else as it is.
      let isLowercaseASCII = (0x61...0x7A).contains(scalar.value)
      result.unicodeScalars.append(isLowercaseASCII ? Unicode.Scalar(scalar.value - 0x20)! : scalar)
    }
    return result
  }

  /// The columns of `table`, in table order.
  mutating func columns(of table: String, in connection: SQLiteConnection) throws -> [String] {
    if let known = columnsByTable[table] { return known }
    let info = try connection.rows("PRAGMA table_info(\(SQLiteConnection.quoted(table)))")
    let nameIndex = info.columns.firstIndex(of: "name") ?? 1
    let columns: [String] = info.rows.compactMap {
      if case .text(let name) = $0[nameIndex] { return name }
      return nil
    }
    columnsByTable[table] = columns
    return columns
  }

  /// The column holding `property` among `columns`: `Z<PROPERTY>` itself, else the one
  /// `Z<PROPERTY><digits>` (the suffix Core Data adds when the name was taken), else `nil`.
  ///
  /// - Throws: a description of the ambiguity when several suffixed columns could hold it.
  static func column(for property: String, among columns: [String]) throws(ColumnAmbiguity) -> String? {
    let base = generatedName(property)
    if columns.contains(base) { return base }
    let suffixed = columns.filter { column in
      column.hasPrefix(base) && column.count > base.count && column.dropFirst(base.count).allSatisfy(\.isASCIIDigit)
    }
    guard suffixed.count <= 1 else { throw ColumnAmbiguity(property: property, candidates: suffixed) }
    return suffixed.first
  }

  /// Several columns could hold one property (`ZTYPE1` and `ZTYPE2`, no `ZTYPE`).
  struct ColumnAmbiguity: Error {
    var property: String
    var candidates: [String]
  }
}

extension Character {
  /// `0`…`9` only (not every Unicode digit).
  var isASCIIDigit: Bool { isASCII && isNumber }
}
