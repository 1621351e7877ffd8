import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The store's file discipline, for the files an app keeps beside its store (preferences, an
/// extension's cache): the same implementation the store's own files go through.
///
/// - Files are 0600 and folders 0700, whatever the umask.
/// - A symbolic link in place of a file or of its folder is refused, never followed, so that a
///   planted link cannot send a read or a write outside the folder it belongs to.
/// - Only regular files are read, replaced or locked: a FIFO is opened without blocking and
///   refused, as is a folder or a device where a file belongs.
/// - A write goes to a hidden temporary file in the same folder (`.NAME.PID.RANDOM.tmp`), is
///   flushed, renamed over the file and the folder flushed: a crash leaves the old file or the
///   new one, never part of one.
///
/// Foundation's `Data.write(options: .atomic)` on Linux neither flushes the folder nor keeps the
/// mode, and follows links.
///
/// Errors are ``StoreError``s whose `path` is the file's path: `.symbolicLink`; `.damaged` when
/// something other than a regular file (or a folder, for a folder) stands there; `.io` with the
/// system's error; `.locked` when ``withExclusiveLock(_:timeout:_:)`` waited in vain.
///
/// ```swift
/// try DurableFile.write(Data("{}".utf8), to: folder.appendingPathComponent("Preferences/app.json"))
/// let bytes = try DurableFile.read(folder.appendingPathComponent("Preferences/app.json"))
/// ```
public enum DurableFile {
  /// The whole file, or nil when it (or its folder) does not exist.
  public static func read(_ url: URL) throws -> Data? {
    guard try checkFolder(url.deletingLastPathComponent()) else { return nil }
    return try FileSystem.read(url, displayPath: url.path)
  }

  /// Replaces the file with `data`, atomically and durably; creates its missing folders.
  public static func write(_ data: Data, to url: URL) throws {
    try makeFolders(url.deletingLastPathComponent())
    try refuseAnythingButARegularFile(url)
    try FileSystem.writeAtomically(data, to: url, displayPath: url.path)
  }

  /// Creates the file with `data` unless a file has that name; returns whether it did. Durable
  /// once it returns true; a crash leaves no file or the whole file.
  ///
  /// Callers that may race for the name hold a lock (``withExclusiveLock(_:timeout:_:)``).
  @discardableResult
  public static func createOnce(_ data: Data, at url: URL) throws -> Bool {
    try makeFolders(url.deletingLastPathComponent())
    return try FileSystem.createOnce(data, at: url, displayPath: url.path)
  }

  /// Creates the folder and its missing parents, each 0700; refuses a link or a file in the
  /// place of one.
  public static func makeFolders(_ url: URL) throws {
    var missing: [URL] = []
    var current = url.standardizedFileURL
    while !FileSystem.exists(current) {
      missing.append(current)
      let parent = current.deletingLastPathComponent()
      if parent.path == current.path { break }
      current = parent
    }
    if missing.isEmpty { _ = try checkFolder(url) }
    for folder in missing.reversed() { try FileSystem.makeFolder(folder, displayPath: folder.path) }
  }

  /// Runs `body` holding an exclusive `flock` on the file at `lockURL` (created 0600 if
  /// missing, never renamed or removed); waits up to `timeout` for another process to let go.
  ///
  /// The kernel releases the lock at once when its holder exits or is killed. A waiter waits
  /// for it in the kernel at once: the holder's turn (``FileLock/turnDelays``) is for a store's
  /// writers, each of whose handoffs costs the next one a catch-up; a file like this has none,
  /// so a waiter asleep through a holder's turn would only wait the longer.
  public static func withExclusiveLock<T>(_ lockURL: URL, timeout: Duration = .seconds(10), _ body: () throws -> T) throws -> T {
    try makeFolders(lockURL.deletingLastPathComponent())
    try refuseAnythingButARegularFile(lockURL)
    return try FileLock(url: lockURL, displayPath: lockURL.path, turnDelays: []).withLock(timeout: timeout, body)
  }

  /// Removes the temporary files that interrupted writes left in a folder. Call it holding the
  /// lock that orders the folder's writers.
  public static func removeTemporaryFiles(in folder: URL) {
    FileSystem.removeLeftoverTemporaryFiles(in: folder)
  }

  // MARK: Checks

  /// Whether the folder exists (false when it does not); refuses a link or a file in its place.
  private static func checkFolder(_ url: URL) throws -> Bool {
    var info = stat()
    guard lstat(url.path, &info) == 0 else {
      if errno == ENOENT { return false }
      throw FileSystem.error(errno, url.path, "cannot look at the folder")
    }
    switch info.st_mode & S_IFMT {
    case S_IFDIR: return true
    case S_IFLNK: try FileSystem.refuseSymbolicLink(at: url, displayPath: url.path)
    default: break
    }
    throw StoreError(.damaged, path: url.path, "is not a folder — move it aside; nothing was read or written.")
  }

  /// Fails unless nothing or a regular file stands at `url`: a rename over a link or a FIFO
  /// would not follow it, but something nobody here wrote stands there; leave it to a person.
  private static func refuseAnythingButARegularFile(_ url: URL) throws {
    var info = stat()
    guard lstat(url.path, &info) == 0 else {
      if errno == ENOENT { return }
      throw FileSystem.error(errno, url.path, "cannot look at")
    }
    switch info.st_mode & S_IFMT {
    case S_IFREG: return
    case S_IFLNK: try FileSystem.refuseSymbolicLink(at: url, displayPath: url.path)
    default: break
    }
    throw StoreError(
      .damaged, path: url.path,
      "is not a regular file (a FIFO, a socket, a device or a folder) — move it aside; it was not opened and nothing was written.")
  }
}
