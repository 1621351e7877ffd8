import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension FileSystem {
  /// Whether a real folder (not a link to one) stands at `url`.
  static func isFolder(_ url: URL) -> Bool { isFolder(atPath: url.path) }

  static func isFolder(atPath path: String) -> Bool {
    if let memory = MemoryMedium.holding(path) { return memory.isFolder(atPath: path) }
    var info = stat()
    return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
  }

  /// Creates a folder with mode 0700 if it is not there, its name flushed into its parent;
  /// refuses a symbolic link in its place.
  static func makeFolder(_ url: URL, displayPath: String) throws {
    if let memory = MemoryMedium.holding(url.path) { return try memory.makeFolder(atPath: url.path, displayPath: displayPath) }
    var info = stat()
    if lstat(url.path, &info) == 0 {
      switch info.st_mode & S_IFMT {
      case S_IFDIR: return
      case S_IFLNK: try refuseSymbolicLink(at: url, displayPath: displayPath)
      default: throw StoreError(.damaged, path: displayPath, "is a file where a folder should be — move it aside.")
      }
    }
    if mkdir(url.path, 0o700) != 0 {
      guard errno == EEXIST else { throw error(errno, displayPath, "cannot create the folder") }
      return  // another process made it, and flushes its parent
    }
    DataProtection.apply(toItemAtPath: url.path)
    chmod(url.path, 0o700)
    // A new folder's name is durable once its parent is flushed, like a file's: without it a
    // power loss may take the folder with every file flushed into it since (the format-1
    // migration's change file, a device's first commits). Once per folder, when it is made.
    try syncFolder(url.deletingLastPathComponent(), displayPath: displayPath)
  }

  /// Creates a file (mode 0600 before the umask), failing when the name is taken: the
  /// descriptor, or -1 with `errno` set. One of the only places the store creates anything: the
  /// file gets the store's data-protection class (``DataProtection``).
  static func createFile(atPath path: String, flags: Int32) -> Int32 {
    let fd = open(path, flags | O_CREAT | O_EXCL, 0o600)
    if fd >= 0 { DataProtection.apply(toItemAtPath: path) }
    return fd
  }

  /// Opens a file, creating it (as ``createFile(atPath:flags:)`` does) when it is not there: the
  /// descriptor, or -1 with `errno` set, and whether this call created the file.
  static func openOrCreateFile(atPath path: String, flags: Int32) -> (fd: Int32, created: Bool) {
    while true {
      let fd = open(path, flags)
      guard fd < 0, errno == ENOENT else { return (fd, false) }
      let created = createFile(atPath: path, flags: flags)
      guard created < 0, errno == EEXIST else { return (created, created >= 0) }  // else made meanwhile: open it
    }
  }

  /// The size of the regular file at `url`; nil if there is none.
  static func size(_ url: URL) -> Int? { size(atPath: url.path) }

  static func size(atPath path: String) -> Int? {
    if let memory = MemoryMedium.holding(path) { return memory.size(atPath: path) }
    var info = stat()
    guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
    return Int(info.st_size)
  }

  /// Whether anything (file, folder or link) is at `url`.
  static func exists(_ url: URL) -> Bool { exists(atPath: url.path) }

  static func exists(atPath path: String) -> Bool {
    if let memory = MemoryMedium.holding(path) { return memory.exists(atPath: path) }
    var info = stat()
    return lstat(path, &info) == 0
  }

  /// The identity of a file, to notice that an atomic rename replaced it.
  static func identity(_ url: URL) -> FileIdentity? { identity(atPath: url.path) }

  static func identity(atPath path: String) -> FileIdentity? {
    if let memory = MemoryMedium.holding(path) { return memory.identity(atPath: path) }
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    #if canImport(Darwin)
      let modified = AppleFileCalls.modified(info)
    #else
      let modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
    #endif
    return FileIdentity(
      device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size), modified: modified)
  }

  /// The names in a folder, skipping hidden entries (the temporary files of atomic writes).
  static func list(_ folder: URL) -> [String] {
    unsortedList(folder).sorted()
  }

  /// ``list(_:)`` in the folder's order, for a caller that visits every name whatever the order:
  /// a compaction lists the hundreds of segment files under the store's lock, and sorting them
  /// cost more than reading them. Read with `readdir`: FileManager's listing cost 2k
  /// instructions a name.
  static func unsortedList(_ folder: URL) -> [String] { unsortedList(atPath: folder.path) }

  static func unsortedList(atPath folder: String) -> [String] {
    if let memory = MemoryMedium.holding(folder) { return memory.list(atPath: folder) }
    guard let directory = opendir(folder) else { return [] }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
      let name = _FileBytes.name(of: entry)
      if !name.hasPrefix(".") { names.append(name) }
    }
    return names
  }

  /// Removes the temporary files that interrupted atomic writes left in a folder.
  static func removeLeftoverTemporaryFiles(in folder: URL) {
    if folder.path.hasPrefix(MemoryMedium.mountPrefix) { return }  // a write in memory leaves none
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
    for name in names where name.hasPrefix(".") && name.hasSuffix(".tmp") {
      unlink(folder.appendingPathComponent(name).path)
    }
  }

  static func remove(_ url: URL) { remove(atPath: url.path) }

  static func remove(atPath path: String) {
    if let memory = MemoryMedium.holding(path) { return memory.remove(atPath: path) }
    unlink(path)
  }

  /// Removes whatever stands at `url` in the cache: a file, a link (not what it points to), a
  /// FIFO, or a folder someone put where a file of the cache belongs, with its contents.
  /// Nothing there is fine; anything left is an error.
  static func removeAnything(_ url: URL, displayPath: String) throws {
    if let memory = MemoryMedium.holding(url.path) { return memory.remove(atPath: url.path) }
    guard unlink(url.path) != 0 else { return }
    let code = errno
    switch code {
    case ENOENT: return
    case EISDIR, EPERM:
      var info = stat()
      guard lstat(url.path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { break }
      do {
        try FileManager.default.removeItem(at: url)
        return
      } catch {
        throw StoreError(.io(EIO), path: displayPath, "cannot remove the folder in its place: \(error)")
      }
    default: break
    }
    throw Self.error(code, displayPath, "cannot remove")
  }

  /// Removes everything directly in a folder of the cache (folders in it with their contents),
  /// keeping `keeping`; fails at the first entry that stays.
  static func removeFiles(in folder: URL, displayPath: String, keeping: Set<String> = []) throws {
    let names: [String]
    if let memory = MemoryMedium.holding(folder.path) {
      names = memory.list(atPath: folder.path)
    } else {
      guard let listed = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
      names = listed
    }
    for name in names.sorted() where !keeping.contains(name) {
      try removeAnything(folder.appendingPathComponent(name), displayPath: displayPath + "/" + name)
    }
  }
}
