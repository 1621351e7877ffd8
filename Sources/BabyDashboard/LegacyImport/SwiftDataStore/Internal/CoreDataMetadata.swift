import Foundation

/// The store's `Z_METADATA` row: its UUID and the property list Core Data keeps there.
struct CoreDataMetadata {
  /// `Z_UUID`: the store's identity (the host of its `x-coredata://` object URIs).
  var storeUUID: String?
  /// `NSPersistenceFrameworkVersion`: the Core Data build that wrote the store (1345 on the
  /// iOS 17-era SDK).
  var frameworkVersion: Int?
  /// `NSStoreType`: "SQLite" for every store this reader understands.
  var storeType: String?
  /// `NSStoreModelVersionIdentifiers`: SwiftData's `Schema.Version`, e.g. "1.0.0".
  var modelVersionIdentifiers: [String] = []
  /// The entity names of `NSStoreModelVersionHashes`.
  var hashedEntityNames: [String] = []

  /// Reads `Z_METADATA`; a property list that does not parse leaves the fields it would give `nil`
  /// and is reported through `problem`.
  init(reading connection: SQLiteConnection) throws {
    let result = try connection.rows("SELECT * FROM Z_METADATA ORDER BY Z_VERSION LIMIT 1")
    guard let row = result.rows.first else { return }
    if let index = result.columns.firstIndex(of: "Z_UUID"), case .text(let uuid) = row[index] { storeUUID = uuid }
    guard let index = result.columns.firstIndex(of: "Z_PLIST"), case .blob(let data) = row[index] else { return }
    let plist: Any
    do {
      plist = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
    } catch {
      problem = "its Z_METADATA property list does not parse (\(error.localizedDescription))"
      return
    }
    guard let dictionary = plist as? [String: Any] else { return }
    frameworkVersion = (dictionary["NSPersistenceFrameworkVersion"] as? NSNumber)?.intValue
    storeType = dictionary["NSStoreType"] as? String
    modelVersionIdentifiers = (dictionary["NSStoreModelVersionIdentifiers"] as? [Any])?.compactMap { $0 as? String } ?? []
    hashedEntityNames = (dictionary["NSStoreModelVersionHashes"] as? [String: Any])?.keys.sorted() ?? []
  }

  /// Why the property list could not be read, for a warning.
  var problem: String?
}
