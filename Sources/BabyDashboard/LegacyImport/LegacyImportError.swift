/// Why a legacy import failed: what, where (the source and the record), and what to do.
///
/// ``Code/unreadable`` (the file is missing or cannot be read) is told apart from bad data
/// (``Code/badData``, ``Code/newerVersion(_:)``): `babydash import` exits 66 for the first and 65
/// for the others. On those, nothing was written.
///
/// `bad data in 'legacy.json' at feedSessions[3].startTime: "yesterday" is not an ISO 8601 date
/// with a zone (e.g. "2026-01-15T09:30:00Z") — nothing was imported; fix the record or export again.`
public struct LegacyImportError: Error, Equatable, Sendable, CustomStringConvertible {
  public enum Code: Equatable, Sendable {
    /// The source is missing or cannot be read. Nothing was written.
    case unreadable
    /// The source is not a legacy export, or a record in it is invalid. Nothing was written.
    case badData
    /// The source was written in a newer format version than this package reads. Nothing was written.
    case newerVersion(Int)
    /// After the import, the store does not hold what the source does; `migrationCompleted` was
    /// not recorded.
    case verificationFailed
    /// The store refused a read or a write (the `StoreError` is in the detail).
    case store
    /// The key-value store (feature flags, `migrationCompleted`) could not be read or written.
    case keyValueStore
    /// Stopped between two batches, as asked (``LegacyImporter/shouldStop``): the batches saved
    /// stay, and a second run finishes (it skips them).
    case stopped
  }

  /// The kind of failure.
  public var code: Code
  /// The legacy source, as its reader names it (a file path).
  public var source: String
  /// The record and field concerned (`feedSessions[3].startTime`), or empty for the whole source.
  public var path: String
  /// What happened and what to do.
  public var detail: String
  /// For ``Code/verificationFailed``: what the import did before the check failed.
  public var report: LegacyImportReport?

  public init(code: Code, source: String, path: String = "", detail: String, report: LegacyImportReport? = nil) {
    self.code = code
    self.source = source
    self.path = path
    self.detail = detail
    self.report = report
  }

  /// Whether the input is at fault (bad data or a newer version) rather than the file system or
  /// the store: `babydash import` exits 65 for these.
  public var isBadData: Bool {
    switch code {
    case .badData, .newerVersion: return true
    default: return false
    }
  }

  public var description: String {
    let kind: String
    switch code {
    case .unreadable: kind = "cannot read"
    case .badData: kind = "bad data in"
    case .newerVersion(let version): kind = "newer format version \(version) in"
    case .verificationFailed: kind = "verification failed for"
    case .store: kind = "store error importing"
    case .keyValueStore: kind = "key-value store error importing"
    case .stopped: kind = "stopped importing"
    }
    let location = path.isEmpty ? "" : " at \(path)"
    return "\(kind) '\(source)'\(location): \(detail)"
  }
}
