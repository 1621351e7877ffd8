import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The platform's floor for a durable commit, on the file system the store uses, measured in the
/// same run as the store: what no engine that keeps the same promise can beat.
///
/// - create-once: the syscalls of one format-2 change file, with nothing else — a temporary file
///   beside the target written and fsync'ed, linked to its final name (which cannot replace a
///   file), the temporary unlinked, the folder fsync'ed. Two flushes: the data, then the name.
/// - append: one record appended to an open file and fdatasync'ed, the floor of a log that is
///   only ever appended to (SQLite's WAL with synchronous=FULL is of this kind).
/// - journal commit: the syscalls of the store's commit protocol, with nothing else — the record
///   appended to the journal and fdatasync'ed (one flush), then the change file created once
///   without a flush (a temporary file written and renamed to its name).
struct DurableFileFloor {
  struct Figures {
    var createOnceP50: Double = .nan
    var appendP50: Double = .nan
    var journalCommitP50: Double = .nan
  }

  /// Where the files go: a folder on the same file system as the store.
  let folder: URL
  /// How many of each to time.
  let samples: Int
  /// The size of one change file holding one feed, about.
  static let recordBytes = 512

  func measure() throws -> Figures {
    try? FileManager.default.removeItem(at: folder)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let record = [UInt8](repeating: UInt8(ascii: "x"), count: Self.recordBytes)
    var createOnce: [Double] = []
    for serial in 0..<samples {
      let name = folder.appendingPathComponent(String(format: "%012d.json", serial)).path
      createOnce.append(try Timing.milliseconds { try Self.createOnce(record, at: name, in: folder.path) })
    }
    let log = folder.appendingPathComponent("append.log").path
    let fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw FloorError(path: log, what: "open", code: errno) }
    defer { close(fd) }
    var append: [Double] = []
    for _ in 0..<samples {
      append.append(
        try Timing.milliseconds {
          try Self.writeAll(record, to: fd, path: log)
          guard Self.dataSync(fd) == 0 else { throw FloorError(path: log, what: "fdatasync", code: errno) }
        })
    }
    var journalCommit: [Double] = []
    for serial in 0..<samples {
      let name = folder.appendingPathComponent(String(format: "j%012d.json", serial)).path
      journalCommit.append(
        try Timing.milliseconds {
          try Self.writeAll(record, to: fd, path: log)
          guard Self.dataSync(fd) == 0 else { throw FloorError(path: log, what: "fdatasync", code: errno) }
          try Self.createUnflushed(record, at: name, in: folder.path)
        })
    }
    return Figures(
      createOnceP50: Timing.percentile(createOnce, 0.5), appendP50: Timing.percentile(append, 0.5),
      journalCommitP50: Timing.percentile(journalCommit, 0.5))
  }

  private static func createUnflushed(_ record: [UInt8], at path: String, in folder: String) throws {
    let temporary = folder + "/.floor.\(getpid()).tmp"
    let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw FloorError(path: temporary, what: "create", code: errno) }
    do {
      defer { close(fd) }
      try writeAll(record, to: fd, path: temporary)
    }
    guard rename(temporary, path) == 0 else { throw FloorError(path: path, what: "rename", code: errno) }
  }

  private static func createOnce(_ record: [UInt8], at path: String, in folder: String) throws {
    let temporary = folder + "/.floor.\(getpid()).tmp"
    let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw FloorError(path: temporary, what: "create", code: errno) }
    defer { unlink(temporary) }
    do {
      defer { close(fd) }
      try writeAll(record, to: fd, path: temporary)
      guard fsync(fd) == 0 else { throw FloorError(path: temporary, what: "fsync", code: errno) }
    }
    guard link(temporary, path) == 0 else { throw FloorError(path: path, what: "link", code: errno) }
    let folderFD = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard folderFD >= 0 else { throw FloorError(path: folder, what: "open folder", code: errno) }
    defer { close(folderFD) }
    guard fsync(folderFD) == 0 else { throw FloorError(path: folder, what: "fsync folder", code: errno) }
  }

  private static func writeAll(_ record: [UInt8], to fd: Int32, path: String) throws {
    try record.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let count = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
        if count < 0 {
          if errno == EINTR { continue }
          throw FloorError(path: path, what: "write", code: errno)
        }
        offset += count
      }
    }
  }

  private static func dataSync(_ fd: Int32) -> Int32 {
    #if canImport(Darwin)
      fsync(fd)  // Darwin has no fdatasync; its fsync is the same kind of flush (F_FULLFSYNC is stronger)
    #else
      fdatasync(fd)
    #endif
  }
}

/// A syscall of the floor measurement failed: which, on what, and errno's text.
struct FloorError: Error, CustomStringConvertible {
  var path: String
  var what: String
  var code: Int32
  var description: String { "cannot \(what) '\(path)': \(String(cString: strerror(code)))" }
}
