import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The few POSIX file operations the store needs, with its rules built in: files 0600, folders
/// 0700, symbolic links refused, and atomic replacement flushed twice (file, then folder).
///
/// Foundation's `Data.write(options: .atomic)` on Linux neither flushes the folder nor keeps the
/// permissions, so the store does not use it.
///
/// A path under a ``MemoryMedium``'s virtual root goes to that medium instead: the one place
/// where an in-memory store's files part from a disk's, so every caller runs as it does on disk.
enum FileSystem {
  /// Reads a regular file from `start` to its end (the whole file by default); nil if there
  /// is none, or if it is shorter than `start` (not the file that was read before). Refuses a
  /// symbolic link.
  static func read(_ url: URL, displayPath: String, from start: Int = 0) throws -> Data? {
    try read(atPath: url.path, displayPath: displayPath, from: start)
  }

  /// ``read(_:displayPath:from:)`` by path: a catch-up reads files whose names it has just
  /// made, and a URL costs a parse on Linux.
  static func read(atPath path: String, displayPath: String, from start: Int = 0) throws -> Data? {
    if let memory = MemoryMedium.holding(path) { return try memory.read(atPath: path, displayPath: displayPath, from: start) }
    // O_NONBLOCK: a FIFO planted in place of a file must not hang the open; fstat refuses it next.
    let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    if fd < 0 {
      let code = errno
      if code == ENOENT { return nil }
      if code == ELOOP {
        throw linkRefused(displayPath)
      }
      throw error(code, displayPath, "cannot open for reading")
    }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw error(errno, displayPath, "cannot read its size") }
    guard (info.st_mode & S_IFMT) == S_IFREG else {
      throw StoreError(.damaged, path: displayPath, "is not a regular file — move it aside; the store was left untouched.")
    }
    if start > 0 {
      guard Int(info.st_size) >= start else { return nil }
      guard lseek(fd, off_t(start), SEEK_SET) == off_t(start) else { throw error(errno, displayPath, "cannot read") }
    }
    var data = Data(count: max(0, Int(info.st_size) - start))
    var offset = 0
    while true {
      if offset == data.count { data.count += 4096 }  // the file may have grown: read to its end
      let count = _FileBytes.readSome(fd, into: &data, from: offset)
      if count < 0 {
        if errno == EINTR { continue }
        throw error(errno, displayPath, "cannot read")
      }
      if count == 0 { break }
      offset += count
    }
    data.count = offset
    return data
  }

  /// Replaces `url` with `data` so that a crash leaves the old file or the new one: a temporary
  /// file in the same folder, flushed, renamed over the target, then the folder flushed.
  /// Without `durable`, nothing is flushed: a process killed still leaves the old file or the
  /// new one, and only a power loss can lose it — for the cache, which is rebuilt then.
  static func writeAtomically(_ data: Data, to url: URL, displayPath: String, durable: Bool = true) throws {
    let path = url.path
    if let memory = MemoryMedium.holding(path) {
      _ = try memory.write(data, atPath: path, displayPath: displayPath, once: false)
      return
    }
    try refuseSymbolicLink(at: url, displayPath: displayPath)
    let temporary = try writeTemporary(data, beside: path, displayPath: displayPath, flush: durable)
    guard rename(temporary, path) == 0 else {
      let code = errno
      unlink(temporary)
      throw error(code, displayPath, "cannot rename into place")
    }
    if durable { try syncFolder(url.deletingLastPathComponent(), displayPath: displayPath) }
  }

  /// Creates `url` with `data`, never replacing a file already there: a flushed temporary
  /// file renamed to the name if it is free, then the folder flushed. A crash leaves no file or
  /// the whole file, never part of one. Returns false, writing nothing, when `url` exists.
  /// Without `durable` nothing is flushed — for a change file whose bytes the commit journal
  /// holds on disk already: a process killed still leaves no file or the whole file.
  ///
  /// The name is checked, then taken by rename, rather than taken by `link` and the temporary
  /// file unlinked: one change to the folder per file instead of two, which the next flush
  /// would have to write too. Callers hold the store's lock, so no writer of this store comes
  /// between the check and the rename.
  @discardableResult
  static func createOnce(_ data: Data, at url: URL, displayPath: String, durable: Bool = true) throws -> Bool {
    try createOnce(data, atPath: url.path, displayPath: displayPath, durable: durable)
  }

  /// ``createOnce(_:at:displayPath:durable:)`` by path, for a commit's change file: on Linux a
  /// URL costs a parse, and appending a name to one looks the name up on disk. A file that is
  /// not flushed goes into `spare` when there is one that can be used.
  @discardableResult
  static func createOnce(
    _ data: Data, atPath path: String, displayPath: String, durable: Bool = true, spare: SpareFile? = nil
  ) throws -> Bool {
    if let memory = MemoryMedium.holding(path) { return try memory.write(data, atPath: path, displayPath: displayPath, once: true) }
    if exists(atPath: path) { return false }
    if !durable, let spare, try spare.place(data, atPath: path, displayPath: displayPath) { return true }
    let temporary = try writeTemporary(data, beside: path, displayPath: displayPath, flush: durable)
    guard rename(temporary, path) == 0 else {
      let code = errno
      unlink(temporary)
      throw error(code, displayPath, "cannot rename into place")
    }
    guard durable else { return true }
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
    do {
      try syncFolder(folder, displayPath: displayPath)
    } catch {
      // Not known to be durable, so not done: the file goes again, and the caller reports a
      // failure that matches what is on disk.
      unlink(path)
      // No power-loss state needs this flush: it runs only after this folder's flush failed, which no run without a fault reaches; a disk that fails flushes may bring the file back, which is why the failure is reported (IOFaultTests).
      try? syncFolder(folder, displayPath: displayPath)
      throw error
    }
    return true
  }

  /// A hidden temporary file beside the file at `path` holding `data`, mode 0600, flushed to
  /// disk if asked; its path. Built as text: a URL costs a parse on Linux, on every commit.
  private static func writeTemporary(_ data: Data, beside path: String, displayPath: String, flush: Bool) throws -> String {
    let name = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
    let temporary = String(path[..<name]) + "." + path[name...] + ".\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
    let fd = createFile(atPath: temporary, flags: O_WRONLY | O_NOFOLLOW | O_CLOEXEC)
    guard fd >= 0 else { throw error(errno, displayPath, "cannot create a temporary file beside it") }
    do {
      defer { close(fd) }
      fchmod(fd, 0o600)  // whatever the umask
      try writeAll(data, to: fd, displayPath: displayPath)
      guard !flush || self.flush(fd) == 0 else { throw error(errno, displayPath, "cannot flush to disk") }
    } catch {
      unlink(temporary)
      throw error
    }
    return temporary
  }

  /// Opens a private regular file to append to, creating it: its descriptor (the caller closes
  /// it), its size and whether this call created it. Anything else in its place (a folder, a
  /// FIFO) is damage, said with `otherwise`; a link is refused.
  static func openForAppending(atPath path: String, displayPath: String, otherwise: String) throws -> (fd: Int32, size: Int, created: Bool) {
    let (fd, created) = openOrCreateFile(atPath: path, flags: O_WRONLY | O_APPEND | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else { throw openError(errno, displayPath) }
    var info = stat()
    guard fstat(fd, &info) == 0 else {
      let code = errno
      close(fd)
      throw error(code, displayPath, "cannot read its size")
    }
    guard (info.st_mode & S_IFMT) == S_IFREG else {
      close(fd)
      throw StoreError(.damaged, path: displayPath, "is not a regular file — \(otherwise)")
    }
    if info.st_mode & 0o7777 != 0o600 { fchmod(fd, 0o600) }  // whatever the umask made it
    return (fd, Int(info.st_size), created)
  }

  /// Writes all of `data` at the descriptor's position.
  static func writeAll(_ data: Data, to fd: Int32, displayPath: String) throws {
    var offset = 0
    while offset < data.count {
      let count = _FileBytes.writeSome(fd, data, from: offset)
      if count < 0 {
        if errno == EINTR { continue }
        throw error(errno, displayPath, "cannot write")
      }
      offset += count
    }
  }

  /// The one flush every durable write of the store ends with (a change file, the journal's
  /// record that is a commit's commit point, a folder's new name): when it returns 0, what was
  /// written to `fd` survives a power loss. With `dataOnly`, the file's times may stay behind
  /// (its data and the size that reaches it do not): `fdatasync` on Linux.
  ///
  /// On Apple platforms, `F_FULLFSYNC` (``AppleFileCalls/flush(_:)``). Not `F_BARRIERFSYNC`
  /// (Core Data's default): it only keeps writes in order, so a power loss could take commits
  /// whose `save()` had returned.
  static func flush(_ fd: Int32, dataOnly: Bool = false) -> Int32 {
    #if canImport(Darwin)
      return AppleFileCalls.flush(fd)
    #else
      return dataOnly ? fdatasync(fd) : fsync(fd)
    #endif
  }

  /// Puts files written without a flush, and their folders' entries, on disk: each file, then
  /// each folder. (Not `syncfs`: it would wait for every other program's writes to the same
  /// disk too.) A file the kernel has written back already costs little to flush.
  ///
  /// The files are flushed several at a time, on threads of their own: a disk takes flushes
  /// that arrive together as one, so a journal's hundred change files cost about a third of
  /// what they cost one after another. Which error is thrown does not depend on the threads:
  /// the first file's, in the order given.
  static func flushToDisk(paths: [String], folders: [URL], displayPath: String) throws {
    if let first = paths.first ?? folders.first?.path, first.hasPrefix(MemoryMedium.mountPrefix) { return }  // nothing to flush in memory
    let lanes = max(1, min(paths.count, maximumFlushesInFlight))
    let failures = StoreMutex<[Int: StoreError]>([:])
    let flushLane: @Sendable (Int) -> Void = { lane in
      for index in stride(from: lane, to: paths.count, by: lanes) {
        do throws(StoreError) {
          try flushFile(atPath: paths[index], displayPath: displayPath)
        } catch {
          failures.withLock { $0[index] = error }
          return
        }
      }
    }
    if lanes <= 1 {
      flushLane(0)
    } else {
      let done = DispatchGroup()
      for lane in 0..<lanes {
        done.enter()
        ParkedThreads.shared.run {
          flushLane(lane)
          done.leave()
        }
      }
      done.wait()
    }
    if let first = failures.withLock({ $0.min { $0.key < $1.key }?.value }) { throw first }
    for folder in folders { try syncFolder(folder, displayPath: displayPath) }
  }

  /// How many files ``flushToDisk(paths:folders:displayPath:)`` flushes at once: 16 measured
  /// 3.6× faster than one at a time on this project's disk, 8 2.6×, and more threads cost
  /// more to start than they save.
  static let maximumFlushesInFlight = 16

  private static func flushFile(atPath path: String, displayPath: String) throws(StoreError) {
    let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else { throw openError(errno, displayPath) }
    defer { close(fd) }
    guard flush(fd) == 0 else { throw error(errno, displayPath, "cannot flush to disk") }
  }

  /// The error for a failed `open` of a store file: a link is refused, as everywhere.
  static func openError(_ code: Int32, _ displayPath: String) -> StoreError {
    code == ELOOP ? linkRefused(displayPath) : error(code, displayPath, "cannot open")
  }

  /// A symbolic link where a store file or folder should be: never followed, refused.
  static func linkRefused(_ displayPath: String) -> StoreError {
    StoreError(
      .symbolicLink, path: displayPath,
      "is a symbolic link; the store does not follow links — replace it with the real file or remove it.")
  }

  /// Flushes a folder's entries (a rename or unlink in it) to disk.
  static func syncFolder(_ folder: URL, displayPath: String) throws {
    if folder.path.hasPrefix(MemoryMedium.mountPrefix) { return }
    let fd = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else { throw error(errno, displayPath, "cannot open its folder to flush it") }
    defer { close(fd) }
    guard flush(fd) == 0 else { throw error(errno, displayPath, "cannot flush its folder") }
  }

  /// Fails if a symbolic link stands at `url` (a planted link must not redirect a write).
  static func refuseSymbolicLink(at url: URL, displayPath: String) throws {
    var info = stat()
    if lstat(url.path, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK {
      throw linkRefused(displayPath)
    }
  }

  static func error(_ code: Int32, _ path: String, _ what: String) -> StoreError {
    StoreError(.io(code), path: path, "\(what): \(String(cString: strerror(code))) — check the folder's permissions and free space.")
  }
}

struct FileIdentity: Equatable, Sendable {
  var device: UInt64
  var inode: UInt64
  var size: Int64
  var modified: Int64
}
