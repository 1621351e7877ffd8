import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Durable file primitives for the app group's sibling files (`Preferences/`, `WidgetCache/`):
/// an atomic replace, a read, and an exclusive lock between processes, with the store's rules.
///
/// - Folders are created 0700 and files 0600 whatever the umask (the mode is set with
///   `fchmod` after creation, which the umask does not filter).
/// - A symbolic link in place of the file's folder or of the file is refused, never followed
///   (`O_NOFOLLOW` on the folder, then every file opened relative to that folder with
///   `O_NOFOLLOW`), so a planted link cannot send a read or a write outside the app group.
/// - Only regular files are read or locked: a file is opened with `O_NONBLOCK` (a FIFO would
///   otherwise block the open until a writer comes) and refused unless `fstat` says regular.
/// - A replace writes a temporary file in the same folder, flushes it, renames it over the
///   target and flushes the folder: a crash leaves the old file or the new one.
///
/// Foundation's `.atomic` write on Linux neither flushes the folder nor keeps permissions, and
/// follows links, so this does not use it.
enum POSIXFile {
  /// The prefix of temporary files; listings and readers skip names that start with it.
  static let temporaryPrefix = ".tmp-"

  /// Replaces the file at `url` with `data`, atomically and durably, with the given mode.
  ///
  /// A crash at any instant leaves the old file or the new one. Creates the folder if needed.
  static func writeAtomically(_ data: Data, to url: URL, mode: mode_t = 0o600) throws {
    let folder = try openFolder(url.deletingLastPathComponent(), creating: true)!
    defer { close(folder) }
    let name = url.lastPathComponent
    // Renaming over a link or a FIFO would not follow it, but something the package did not
    // write stands there: leave it for a person to look at.
    try refuseAnythingButARegularFile(named: name, in: folder, url)
    let temporaryName = "\(temporaryPrefix)\(name)-\(UUID().uuidString)"
    let temporary = url.deletingLastPathComponent().appendingPathComponent(temporaryName)
    let fd = openat(folder, temporaryName, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
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
      guard renameat(folder, temporaryName, folder, name) == 0 else { throw error("cannot rename over the target", url) }
    } catch {
      unlinkat(folder, temporaryName, 0)
      throw error
    }
    guard fsync(folder) == 0 else { throw error("cannot flush the folder", url.deletingLastPathComponent()) }
  }

  /// Runs `body` while holding an exclusive `flock` on the file at `lockURL` (created if needed).
  ///
  /// The lock is between open files, so it also orders threads of one process; the kernel
  /// releases it at once if the holder dies. The lock file is never renamed or removed.
  static func withExclusiveLock<T>(_ lockURL: URL, _ body: () throws -> T) throws -> T {
    let folder = try openFolder(lockURL.deletingLastPathComponent(), creating: true)!
    defer { close(folder) }
    let name = lockURL.lastPathComponent
    var fd = openat(folder, name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
    if fd >= 0 {
      guard fchmod(fd, 0o600) == 0 else {
        let failure = error("cannot set the lock file's mode", lockURL)
        close(fd)
        throw failure
      }
    } else if errno == EEXIST, let existing = try openRegularFile(named: name, in: folder, lockURL, flags: O_RDWR) {
      fd = existing
    } else {
      throw error("cannot open the lock file", lockURL)
    }
    defer { close(fd) }
    while flock(fd, LOCK_EX) != 0 {
      if errno != EINTR { throw error("cannot lock", lockURL) }
    }
    defer { flock(fd, LOCK_UN) }
    return try body()
  }

  /// The file's bytes, or `nil` if it (or its folder) does not exist.
  static func readIfPresent(_ url: URL) throws -> Data? {
    guard let folder = try openFolder(url.deletingLastPathComponent(), creating: false) else { return nil }
    defer { close(folder) }
    guard let fd = try openRegularFile(named: url.lastPathComponent, in: folder, url, flags: O_RDONLY) else { return nil }
    defer { close(fd) }
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw error("cannot read", url)
      }
      if count == 0 { return data }
      data.append(contentsOf: buffer[0..<count])
    }
  }

  /// Removes temporary files a crashed writer left beside `url`. Call it holding the lock.
  ///
  /// Best effort by design: a leftover that cannot be removed costs only disk space, and the
  /// next writer tries again.
  static func removeLeftovers(besides url: URL) {
    guard let folder = try? openFolder(url.deletingLastPathComponent(), creating: false) else { return }
    defer { close(folder) }
    let prefix = "\(temporaryPrefix)\(url.lastPathComponent)-"
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path) else {
      return
    }
    // Relative to the folder opened without following links, and unlinkat never follows one.
    for name in names where name.hasPrefix(prefix) {
      unlinkat(folder, name, 0)
    }
  }

  // MARK: Folders and files, without following links

  /// The folder at `url`, opened without following a link in its place: its descriptor, or
  /// nil when it does not exist and `creating` is false. Creates it and any missing parents
  /// with mode 0700 when `creating`.
  private static func openFolder(_ url: URL, creating: Bool) throws -> Int32? {
    if creating { try createMissingFolders(url) }
    let fd = open(url.path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
    guard fd < 0 else { return fd }
    switch errno {
    case ENOENT where !creating: return nil
    case ELOOP: throw symbolicLink(url, "a folder")
    case ENOTDIR:
      // ENOTDIR is also what O_DIRECTORY on a link to a file gives: tell the two apart.
      if isSymbolicLink(url) { throw symbolicLink(url, "a folder") }
      throw KeyValueStoreError(
        code: .notARegularFile, path: url.path,
        detail: "is not a folder — move it aside; nothing was read or written")
    default: throw error("cannot open the folder", url)
    }
  }

  /// Creates the missing folders down to `url`, each 0700; stops at the first that exists.
  private static func createMissingFolders(_ url: URL) throws {
    var missing: [URL] = []
    var current = url.standardizedFileURL
    var info = stat()
    while lstat(current.path, &info) != 0 {
      guard errno == ENOENT else { throw error("cannot look at", current) }
      missing.append(current)
      let parent = current.deletingLastPathComponent()
      if parent.path == current.path { break }
      current = parent
    }
    for folder in missing.reversed() {
      if mkdir(folder.path, 0o700) != 0 {
        if errno == EEXIST { continue }  // another process made it meanwhile
        throw error("cannot create the folder; check that its parent is writable", folder)
      }
      // The umask filtered mkdir's mode: set it exactly, on the folder just made (not a link).
      let fd = open(folder.path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
      guard fd >= 0 else { throw error("cannot open the folder it created", folder) }
      defer { close(fd) }
      guard fchmod(fd, 0o700) == 0 else { throw error("cannot set the folder's mode", folder) }
    }
  }

  /// Opens `name` in `folder` if it is a regular file, or returns nil when there is nothing
  /// there: never through a link, and without blocking on a FIFO.
  private static func openRegularFile(named name: String, in folder: Int32, _ url: URL, flags: Int32) throws -> Int32? {
    let fd = openat(folder, name, flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else {
      switch errno {
      case ENOENT: return nil
      case ELOOP: throw symbolicLink(url, "a file")
      case ENXIO: throw notRegular(url)  // a socket, or a FIFO opened for writing
      default: throw error("cannot open", url)
      }
    }
    var info = stat()
    guard fstat(fd, &info) == 0 else {
      let failure = error("cannot look at", url)
      close(fd)
      throw failure
    }
    guard (info.st_mode & S_IFMT) == S_IFREG else {
      close(fd)
      throw notRegular(url)
    }
    return fd
  }

  /// Fails unless `name` in `folder` is missing or a regular file.
  private static func refuseAnythingButARegularFile(named name: String, in folder: Int32, _ url: URL) throws {
    var info = stat()
    guard fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
      if errno == ENOENT { return }
      throw error("cannot look at", url)
    }
    switch info.st_mode & S_IFMT {
    case S_IFREG: return
    case S_IFLNK: throw symbolicLink(url, "a file")
    default: throw notRegular(url)
    }
  }

  private static func isSymbolicLink(_ url: URL) -> Bool {
    var info = stat()
    return lstat(url.path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
  }

  // MARK: Errors

  private static func symbolicLink(_ url: URL, _ what: String) -> KeyValueStoreError {
    KeyValueStoreError(
      code: .symbolicLink, path: url.path,
      detail: "is a symbolic link where \(what) should be; links are not followed, so that nothing is read or "
        + "written outside the app group — remove the link (or put the real \(what == "a folder" ? "folder" : "file") there)")
  }

  private static func notRegular(_ url: URL) -> KeyValueStoreError {
    KeyValueStoreError(
      code: .notARegularFile, path: url.path,
      detail: "is not a regular file (a FIFO, a socket, a device or a folder) — move it aside; it was not opened "
        + "and nothing was written")
  }

  private static func error(_ what: String, _ url: URL) -> KeyValueStoreError {
    let reason = String(cString: strerror(errno))
    return KeyValueStoreError(
      code: .io, path: url.path,
      detail: "\(what): \(reason); check that the folder exists, is writable and has space")
  }
}
