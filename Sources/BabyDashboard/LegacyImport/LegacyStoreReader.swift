/// A source of SwiftData-era data for ``LegacyImporter``.
///
/// The importer knows only this protocol, so another legacy source (the SwiftData SQLite file
/// itself) plugs in as one more reader. ``LegacyJSONExportReader`` reads the JSON export.
public protocol LegacyStoreReader: Sendable {
  /// Names the source in reports and errors, e.g. the file path as the user gave it.
  var source: String { get }

  /// Reads every legacy record.
  ///
  /// - Throws: ``LegacyImportError``: ``LegacyImportError/Code/unreadable`` when the source is
  ///   missing or cannot be read, ``LegacyImportError/Code/badData`` or
  ///   ``LegacyImportError/Code/newerVersion(_:)`` when its content is not a valid legacy store.
  func read() throws -> LegacyExport
}
