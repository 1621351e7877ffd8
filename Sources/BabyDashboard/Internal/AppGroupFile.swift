import Foundation
import PlainStore

/// The app group's sibling files (`Preferences/`, `WidgetCache/`) go through PlainStore's
/// ``DurableFile``, the store's own file discipline; their errors are told in this module's
/// terms (``KeyValueStoreError``), except a lock held too long, which stays a `StoreError`
/// (`.locked`), as the store's own is.
enum AppGroupFile {
  static func read(_ url: URL) throws -> Data? {
    try translating { try DurableFile.read(url) }
  }

  static func write(_ data: Data, to url: URL) throws {
    try translating { try DurableFile.write(data, to: url) }
  }

  /// Runs `body` holding the exclusive lock at `lockURL`, after removing the temporary files
  /// an interrupted writer left in the lock's folder; waits up to `timeout` for another writer.
  static func withExclusiveLock<T>(_ lockURL: URL, timeout: Duration = .seconds(10), _ body: () throws -> T) throws -> T {
    try translating {
      try DurableFile.withExclusiveLock(lockURL, timeout: timeout) {
        DurableFile.removeTemporaryFiles(in: lockURL.deletingLastPathComponent())
        return try body()
      }
    }
  }

  private static func translating<T>(_ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let error as StoreError {
      switch error.code {
      case .symbolicLink:
        throw KeyValueStoreError(
          code: .symbolicLink, path: error.path,
          detail: "is a symbolic link; links are not followed, so that nothing is read or written outside the app group — remove the link (or put the real one there)")
      case .damaged: throw KeyValueStoreError(code: .notARegularFile, path: error.path, detail: error.detail)
      case .io: throw KeyValueStoreError(code: .io, path: error.path, detail: error.detail)
      default: throw error
      }
    }
  }
}
