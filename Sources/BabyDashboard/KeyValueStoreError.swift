import PlainStore

/// A key-value store could not read or write its data.
///
/// Says what went wrong, at which file, and what to do:
/// `damaged at '/…/Preferences/group.sungdoo.babyDashboard.json': not JSON (…) — the file was
/// left untouched; restore it, or move it away to start with empty preferences.`
public struct KeyValueStoreError: LocatedError, Equatable, Sendable {
  /// The kind of failure.
  public enum Code: Equatable, Sendable {
    /// The file exists but cannot be read as a key-value file.
    case damaged
    /// The file was written by a newer version of this package.
    case newerFormat(Int)
    /// The operating system refused a read, write or lock.
    case io
    /// A symbolic link stands where a file or folder should be; links are never followed, so
    /// that a planted one cannot send a write outside the app group.
    case symbolicLink
    /// Something other than a regular file (a FIFO, a device, a folder) stands where a file
    /// should be; it is never opened for its contents, so that a FIFO cannot hang the reader.
    case notARegularFile
  }

  /// The kind of failure.
  public var code: Code
  /// The file (or suite) concerned.
  public var path: String
  /// What happened and what to do.
  public var detail: String

  public init(code: Code, path: String, detail: String) {
    self.code = code
    self.path = path
    self.detail = detail
  }

  /// The code in words: "damaged", "I/O error".
  public var kind: String {
    switch code {
    case .damaged: return "damaged"
    case .newerFormat(let version): return "newer format (\(version))"
    case .io: return "I/O error"
    case .symbolicLink: return "symbolic link"
    case .notARegularFile: return "not a regular file"
    }
  }
}
