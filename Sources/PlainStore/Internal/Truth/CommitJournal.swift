import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `local/journal`: the bytes of this device's newest change files, appended and flushed once
/// each — the one flush a commit waits for.
///
/// A change file made durable on its own costs two flushes: its data, then its folder's new
/// name. A commit instead appends the file's bytes here and flushes this one file (it exists
/// already, so only its data and size go to disk), then creates the change file without a
/// flush. A process that is killed loses nothing the kernel took, so the journal matters only
/// after a power loss, which may take a change file or leave it empty: the next open writes
/// it again, durably, from its record (``StoreCoordinator/settleJournal(_:)``). Once the change
/// files are on disk the journal is emptied, so it holds a few dozen records at most.
///
/// A record is a header line and the change file's bytes (``RecordFrame``):
/// `journal <device> <sequence, 12 digits> <length, 16 hex> <FNV-1a 64, 16 hex>\n<bytes>`.
/// A torn tail (a power loss during an append) or a damaged record fails its length or its
/// checksum and is skipped; reading goes on at the next header.
struct CommitJournal: Sendable {
  let url: URL
  let displayPath: String

  struct Record: Equatable, Sendable {
    var device: DeviceID
    var sequence: Int
    var bytes: Data

    var fileName: String { ChangeFileName.changeName(sequence: sequence) }
    /// The change file it holds, by device: two records of one name are one commit's place.
    var name: String { device.text + "/" + fileName }
  }

  /// `journal <device> <sequence> <length> <checksum>\n<bytes>`, read in salvage mode.
  static let frame = RecordFrame.Layout(tag: "journal", fieldWidths: [32, ChangeFileName.sequenceWidth], closedByNewline: false)

  /// Appends one record and flushes it: when this returns, the record survives a power loss.
  /// On failure the journal is cut back to where it was, so no failed commit comes back later.
  /// Returns the journal's size before and after the append.
  ///
  /// A journal this append created (at the store's first commit) has its folder flushed too,
  /// since POSIX does not promise that a data flush puts a new file's name on disk (ext4 does;
  /// a file system need not). One a settle emptied is the same file, its name on disk already:
  /// the commit after a settle (one in a hundred) flushes only its data.
  @discardableResult
  func append(_ record: Record) throws -> (before: Int, after: Int) {
    if let memory = MemoryMedium.holding(url.path) {
      var frame = Data(Self.header(record))
      frame.append(record.bytes)
      let before = try memory.append(frame, atPath: url.path, displayPath: displayPath, cutTo: nil, otherwise: "it is rebuilt the next time the store opens.")
      return (before, before + frame.count)
    }
    let (fd, size, created) = try FileSystem.openForAppending(
      atPath: url.path, displayPath: displayPath, otherwise: "it is rebuilt the next time the store opens.")
    defer { close(fd) }
    let before = off_t(size)
    var frame = Data(Self.header(record))
    frame.append(record.bytes)
    do {
      try FileSystem.writeAll(frame, to: fd, displayPath: displayPath)
      guard FileSystem.flush(fd, dataOnly: true) == 0 else { throw FileSystem.error(errno, displayPath, "cannot flush to disk") }
      if created { try FileSystem.syncFolder(url.deletingLastPathComponent(), displayPath: displayPath) }
    } catch {
      try cutBack(fd, to: before, after: error)
      throw error
    }
    return (Int(before), Int(before) + frame.count)
  }

  /// Takes a failed append's record back out, so that no open writes its commit's change file.
  /// When the journal cannot be cut, the record's tag is spoiled in place (a record without its
  /// tag is skipped); when that fails too, the error says the commit may come back.
  private func cutBack(_ fd: Int32, to size: off_t, after failure: Error) throws {
    guard ftruncate(fd, size) != 0 else { return }
    let code = errno
    // Not through `fd`: it appends, and on Linux a pwrite to a file opened to append appends.
    let spoiler = open(url.path, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    if spoiler >= 0 {
      defer { close(spoiler) }
      var mark = UInt8(ascii: "x")
      if pwrite(spoiler, &mark, 1, size) == 1 { return }
    }
    throw StoreError(
      .io(code), path: displayPath,
      "\(failure) — and the record of this failed commit cannot be taken back out (\(String(cString: strerror(code)))): "
        + "the next open may save it after all; check the disk, then move local/journal aside before opening the store again.")
  }

  /// The journal's size in bytes; 0 when it is empty or not there.
  var size: Int { FileSystem.size(url) ?? 0 }

  /// Every whole record, oldest first; of two with the same device and sequence, the later
  /// only: the earlier one's commit was killed before the cache recorded it, and the later
  /// commit took its sequence. Damaged stretches are skipped.
  func records() throws -> [Record] {
    guard let data = try FileSystem.read(url, displayPath: displayPath) else { return [] }
    let all = Self.parse([UInt8](data))
    var last: [String: Int] = [:]
    for (index, record) in all.enumerated() { last[record.name] = index }
    return all.enumerated().filter { last[$0.element.name] == $0.offset }.map(\.element)
  }

  /// Empties the journal once every change file it holds is on disk. Not flushed: records
  /// that come back after a power loss name files that are there, and are passed over.
  func empty() throws {
    if let memory = MemoryMedium.holding(url.path) { return memory.truncate(atPath: url.path, to: 0) }
    let fd = open(url.path, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    if fd < 0 {
      if errno == ENOENT { return }
      throw FileSystem.openError(errno, displayPath)
    }
    defer { close(fd) }
    guard ftruncate(fd, 0) == 0 else { throw FileSystem.error(errno, displayPath, "cannot empty") }
  }

  static func header(_ record: Record) -> [UInt8] {
    frame.header(fields: [record.device.text, ChangeFileName.sequenceText(record.sequence)], body: record.bytes)
  }

  static func parse(_ bytes: [UInt8]) -> [Record] {
    _ByteView.reading(bytes) { buffer in
      frame.salvage(buffer).compactMap { found in
        guard let device = DeviceID(found.fields[0]), let sequence = ChangeFileName.parseSequence(found.fields[1]) else { return nil }
        return Record(device: device, sequence: sequence, bytes: buffer.data(found.body))
      }
    }
  }
}
