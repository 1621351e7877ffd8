import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Durable file primitives: an atomic replace and an exclusive lock between processes.
///
/// The key-value file and the widget snapshots use them. Foundation's `.atomic` write on Linux
/// neither flushes the folder nor keeps permissions, so this does its own: a temporary file in the
/// same folder, fsync, rename over the target, fsync the folder.
enum POSIXFile {
  /// The prefix of temporary files; listings and readers skip names that start with it.
  static let temporaryPrefix = ".tmp-"

  /// Replaces the file at `url` with `data`, atomically and durably, with the given mode.
  ///
  /// A crash at any instant leaves the old file or the new one. Creates the folder if needed.
  static func writeAtomically(_ data: Data, to url: URL, mode: mode_t = 0o600) throws {
    let folder = url.deletingLastPathComponent()
    try createDirectory(folder)
    let temporary = folder.appendingPathComponent("\(temporaryPrefix)\(url.lastPathComponent)-\(UUID().uuidString)")
    let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
    guard fd >= 0 else { throw error("cannot create a temporary file", temporary) }
    var closed = false
    defer {
      if !closed { close(fd) }
    }
    do {
      // An O_CREAT mode is filtered by the umask; set it exactly.
      guard fchmod(fd, mode) == 0 else { throw error("cannot set the file mode", temporary) }
      try data.withUnsafeBytes { buffer in
        var offset = 0
        while offset < buffer.count {
          let written = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
          if written < 0 {
            if errno == EINTR { continue }
            throw error("cannot write", temporary)
          }
          offset += written
        }
      }
      guard fsync(fd) == 0 else { throw error("cannot flush", temporary) }
      closed = true
      guard close(fd) == 0 else { throw error("cannot close", temporary) }
      guard rename(temporary.path, url.path) == 0 else { throw error("cannot rename over the target", url) }
    } catch {
      unlink(temporary.path)
      throw error
    }
    try syncDirectory(folder)
  }

  /// Flushes a folder's entries (a rename in it) to disk.
  static func syncDirectory(_ folder: URL) throws {
    let fd = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else { throw error("cannot open the folder to flush it", folder) }
    defer { close(fd) }
    guard fsync(fd) == 0 else { throw error("cannot flush the folder", folder) }
  }

  /// Creates a folder and its parents if they do not exist.
  static func createDirectory(_ folder: URL) throws {
    do {
      // 0700, like the store: the app group's preferences and caches are no one else's.
      try FileManager.default.createDirectory(
        at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    } catch {
      throw KeyValueStoreError(
        code: .io, path: folder.path,
        detail: "cannot create the folder (\(error.localizedDescription)); check that its parent is writable")
    }
  }

  /// Runs `body` while holding an exclusive `flock` on the file at `lockURL` (created if needed).
  ///
  /// The lock is between open files, so it also orders threads of one process; the kernel
  /// releases it at once if the holder dies. The lock file is never renamed or removed.
  static func withExclusiveLock<T>(_ lockURL: URL, _ body: () throws -> T) throws -> T {
    try createDirectory(lockURL.deletingLastPathComponent())
    let fd = open(lockURL.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw error("cannot open the lock file", lockURL) }
    defer { close(fd) }
    while flock(fd, LOCK_EX) != 0 {
      if errno != EINTR { throw error("cannot lock", lockURL) }
    }
    defer { flock(fd, LOCK_UN) }
    return try body()
  }

  /// The file's bytes, or `nil` if it does not exist.
  static func readIfPresent(_ url: URL) throws -> Data? {
    do {
      return try Data(contentsOf: url)
    } catch let error as CocoaError where error.code == .fileReadNoSuchFile {
      return nil
    } catch {
      if !FileManager.default.fileExists(atPath: url.path) { return nil }
      throw KeyValueStoreError(
        code: .io, path: url.path,
        detail: "cannot read (\(error.localizedDescription)); check the file's permissions")
    }
  }

  /// Removes temporary files a crashed writer left beside `url`. Call it holding the lock.
  static func removeLeftovers(besides url: URL) {
    let folder = url.deletingLastPathComponent()
    let prefix = "\(temporaryPrefix)\(url.lastPathComponent)-"
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
    for name in names where name.hasPrefix(prefix) {
      unlink(folder.appendingPathComponent(name).path)
    }
  }

  private static func error(_ what: String, _ url: URL) -> KeyValueStoreError {
    let reason = String(cString: strerror(errno))
    return KeyValueStoreError(
      code: .io, path: url.path,
      detail: "\(what): \(reason); check that the folder exists, is writable and has space")
  }
}
