import Foundation

/// The kinds of legacy source ``LegacyImporter`` reads, told apart by content, not by name: a
/// person passes whatever the app group or an old export held.
public enum LegacySourceFormat: Sendable, Hashable {
  /// The app's SwiftData store (`BabyDashboard.sqlite`): the file starts "SQLite format 3\0".
  case swiftDataStore
  /// A JSON export (``LegacyExport``), and anything else, which its reader then refuses clearly.
  case jsonExport

  /// The format of the file at `url`, from its first bytes.
  ///
  /// - Throws: the file system's error when the file cannot be opened or read.
  public static func detect(fileAt url: URL) throws -> LegacySourceFormat {
    let handle = try FileHandle(forReadingFrom: url)
    defer { try? handle.close() }  // a read-only handle: closing cannot lose anything
    let header = try handle.read(upToCount: SwiftDataStoreReader.sqliteHeader.count) ?? Data()
    return header == SwiftDataStoreReader.sqliteHeader ? .swiftDataStore : .jsonExport
  }

  /// A reader of the file at `url` for its format, named `source` in messages (its path by default).
  public static func reader(forFileAt url: URL, source: String? = nil) throws -> any LegacyStoreReader {
    switch try detect(fileAt: url) {
    case .swiftDataStore: return SwiftDataStoreReader(fileURL: url, source: source)
    case .jsonExport: return LegacyJSONExportReader(fileURL: url, source: source)
    }
  }
}
