import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `local/log/`: the local transactions of this device (its commits and its merges), appended as
/// records to stream files. One file per transaction cost every commit a new file, which on a
/// disk that allocates inodes slowly was a third of the commit; an append is a write.
///
/// A stream is named after the first sequence it holds (`<sequence, 8 digits>.log`). A writer
/// starts a new stream once a compaction has folded part of the current one into the manifest,
/// so that compaction can later remove whole streams no one needs. A record is a header line,
/// the entry's JSON and a newline (``RecordFrame``):
/// `entry <sequence, 12 digits> <length, 16 hex> <FNV-1a 64, 16 hex>\n<JSON>\n`.
/// Nothing is flushed: the log is cache, rebuilt from `changes/` after a power loss.
///
/// Readers take no lock. A record still being appended (shorter than its header or its length)
/// is not there yet; a whole record that fails its checksum or breaks the order is damage. A
/// writer holds the flock, so an unfinished tail it finds is a killed writer's: it is cut.
struct LocalLog: Sendable {
  let folder: URL
  /// The folder as messages name it ("Notes.store/local/log").
  let displayName: String
  /// The folder's path: streams are named as text, a URL costing a parse on Linux (an append
  /// opens the newest stream, a catch-up asks whether the next one exists, every time).
  let folderPath: String

  init(folder: URL, displayName: String) {
    self.folder = folder
    self.folderPath = folder.path
    self.displayName = displayName
  }

  /// Where a reader stopped: the stream, the bytes of it read (whole records), and the sequence
  /// the next record holds. Valid only to read on from `next`.
  struct Cursor: Equatable, Sendable {
    var stream: Int
    var offset: Int
    var next: Int
  }

  struct Record {
    /// The stream that holds it.
    var stream: Int
    var sequence: Int
    var bytes: Data
  }

  static func streamName(_ first: Int) -> String { Digits.decimal(first, width: 8) + ".log" }

  /// The first sequence of a stream, from its name; nil for any other name.
  static func streamFirst(_ name: String) -> Int? {
    guard name.hasSuffix(".log"), name.count >= 12 else { return nil }
    let digits = name.dropLast(4)
    guard digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
    return Int(digits)
  }

  func url(_ stream: Int) -> URL { folder.appendingPathComponent(Self.streamName(stream)) }
  func path(_ stream: Int) -> String { folderPath + "/" + Self.streamName(stream) }
  func displayPath(_ stream: Int) -> String { displayName + "/" + Self.streamName(stream) }

  /// The streams on disk, by their first sequence, oldest first.
  func streams() -> [Int] {
    FileSystem.list(folder).compactMap(Self.streamFirst).sorted()
  }

  // MARK: Reading

  /// The records from `sequence` on, as far as they go without a gap, and where reading
  /// stopped. The records start at `sequence` or there are none (it was pruned, or not written
  /// yet). `cursor` saves finding and scanning the stream again when it stopped at `sequence`.
  func read(from sequence: Int, cursor: Cursor?) throws -> (records: [Record], cursor: Cursor?) {
    var located = false
    var position = cursor?.next == sequence ? cursor : nil
    if position == nil {
      position = locate(sequence)
      located = true
    }
    guard var position else { return ([], nil) }
    var records: [Record] = []
    while true {
      try skip(to: sequence, &position)
      // A stream no longer than what was read holds nothing new: a waiting writer asks about
      // once per commit, and often one look at the size answers (a stream that went, or is no
      // longer a file, is read as before, to say so).
      let unchanged = position.offset > 0 && FileSystem.size(atPath: path(position.stream)) == position.offset
      guard let data = unchanged ? Data() : try FileSystem.read(atPath: path(position.stream), displayPath: displayPath(position.stream), from: position.offset)
      else {
        // The stream went (compaction pruned it, or a rebuild replaced it): find the sequence
        // again, once.
        guard records.isEmpty, !located, let again = locate(sequence) else { return (records, records.isEmpty ? nil : position) }
        position = again
        located = true
        continue
      }
      try parse(data, &position) { record in
        if record.sequence >= sequence { records.append(record) }
      }
      // The next stream starts where this one ends, if a writer has started it.
      guard position.next != position.stream, FileSystem.exists(atPath: path(position.next)) else { break }
      position = Cursor(stream: position.next, offset: 0, next: position.next)
    }
    return (records, position)
  }

  /// The stream that holds `sequence` if any does: the newest one that starts at or before it.
  private func locate(_ sequence: Int) -> Cursor? {
    guard let first = streams().last(where: { $0 <= sequence }) else { return nil }
    return Cursor(stream: first, offset: 0, next: first)
  }

  /// `entry <sequence> <length> <checksum>\n<JSON>\n`, read strictly.
  static let frame = RecordFrame.Layout(tag: "entry", fieldWidths: [ChangeFileName.sequenceWidth], closedByNewline: true)

  /// Reads the whole records in `data` (the stream from `position.offset` on), moving
  /// `position` past each. Stops at an unfinished tail.
  private func parse(_ data: Data, _ position: inout Cursor, _ each: (Record) -> Void) throws {
    let path = displayPath(position.stream)
    try _ByteView.reading(data) { bytes in
      var at = 0
      while true {
        switch Self.frame.look(bytes, at: at) {
        case .unfinished:
          return  // still being appended
        case .noHeader:
          throw StoreError(.damaged, path: path, "holds no record header at byte \(position.offset + at) — \(StoreFiles.untouched)")
        case .damaged(let fields):
          let sequence = ChangeFileName.parseSequence(fields[0]).map(String.init) ?? fields[0]
          throw StoreError(.damaged, path: path, "the record of transaction \(sequence) fails its checksum — \(StoreFiles.untouched)")
        case .record(let fields, let body, let end):
          guard let sequence = ChangeFileName.parseSequence(fields[0]) else {
            throw StoreError(.damaged, path: path, "holds no record header at byte \(position.offset + at) — \(StoreFiles.untouched)")
          }
          guard sequence == position.next else {
            throw StoreError(.damaged, path: path, "holds transaction \(sequence) where \(position.next) belongs — \(StoreFiles.untouched)")
          }
          each(Record(stream: position.stream, sequence: sequence, bytes: bytes.data(body)))
          position.offset += end - at
          position.next += 1
          at = end
        }
      }
    }
  }

  /// The highest sequence a record header on disk names, whole or damaged; 0 when there is
  /// none. A rebuild numbers on from it, so that no process sees the sequence go back.
  func newestSequence() -> Int {
    guard let newest = streams().last else { return 0 }
    let data = (try? FileSystem.read(atPath: path(newest), displayPath: displayPath(newest))) ?? Data()
    var highest = newest - 1
    for line in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true) {
      if let fields = Self.header(line + [UInt8(ascii: "\n")]) { highest = max(highest, fields.sequence) }
    }
    return highest
  }

  /// The sequence, length and checksum of a header line (its newline included); nil if it is
  /// not one.
  private static func header(_ line: some Collection<UInt8>) -> (sequence: Int, length: Int, checksum: UInt64)? {
    guard let header = frame.parseHeader(line), let sequence = ChangeFileName.parseSequence(header.fields[0]) else { return nil }
    return (sequence, header.length, header.checksum)
  }

  /// Moves `position` past the records before `sequence` by their headers alone, reading and
  /// checking none of their JSON: opening reads a stream from its start to find the records
  /// after the manifest, and a bulk save's record can be megabytes. Stops where a header is not
  /// whole or not right, for ``parse`` to say what is wrong there.
  private func skip(to sequence: Int, _ position: inout Cursor) throws {
    guard position.next < sequence else { return }
    let shownPath = displayPath(position.stream)
    if let memory = MemoryMedium.holding(path(position.stream)) {
      guard let bytes = try memory.read(atPath: path(position.stream), displayPath: shownPath, from: 0) else { return }
      return skip(to: sequence, in: bytes, &position)
    }
    let fd = open(path(position.stream), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    if fd < 0 {
      if errno == ENOENT { return }
      throw FileSystem.openError(errno, shownPath)
    }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return }
    var line = [UInt8](repeating: 0, count: Self.frame.headerLength)
    while position.next < sequence {
      let count = _FileBytes.readSome(fd, into: &line, atOffset: position.offset)
      guard count == Self.frame.headerLength, let fields = Self.header(line), fields.sequence == position.next else { return }
      let end = position.offset + Self.frame.headerLength + fields.length + 1
      guard end <= Int(info.st_size) else { return }
      position.offset = end
      position.next += 1
    }
  }

  /// ``skip(to:_:)`` over bytes in memory.
  private func skip(to sequence: Int, in bytes: Data, _ position: inout Cursor) {
    while position.next < sequence, position.offset + Self.frame.headerLength <= bytes.count {
      let start = bytes.startIndex + position.offset
      guard let fields = Self.header(bytes[start..<start + Self.frame.headerLength]), fields.sequence == position.next else { return }
      let end = position.offset + Self.frame.headerLength + fields.length + 1
      guard end <= bytes.count else { return }
      position.offset = end
      position.next += 1
    }
  }

  // MARK: Writing

  /// Appends the record of transaction `sequence`, not flushed, and returns the cursor past it.
  /// `cursor` is where a reader holding the flock stopped, at `sequence`; a new stream starts
  /// when there is none or when the manifest has folded in part of the current one (its first
  /// sequence is at or before `manifestSequence`).
  func append(_ json: Data, sequence: Int, after cursor: Cursor?, manifestSequence: Int) throws -> Cursor {
    try append(record: Self.frame(sequence: sequence, body: json), sequence: sequence, after: cursor, manifestSequence: manifestSequence)
  }

  /// Appends a record as `frame` or `record` made it.
  func append(record: Data, sequence: Int, after cursor: Cursor?, manifestSequence: Int) throws -> Cursor {
    var position = Cursor(stream: sequence, offset: 0, next: sequence)
    if let cursor, cursor.next == sequence, cursor.stream == sequence || cursor.stream > manifestSequence {
      position = cursor
    }
    let path = displayPath(position.stream)
    if let memory = MemoryMedium.holding(self.path(position.stream)) {
      try checkTail(size: memory.size(atPath: self.path(position.stream)) ?? 0, sequence: sequence, at: position)
      _ = try memory.append(record, atPath: self.path(position.stream), displayPath: path, cutTo: position.offset, otherwise: StoreFiles.untouched)
      return Cursor(stream: position.stream, offset: position.offset + record.count, next: sequence + 1)
    }
    let (fd, size, _) = try FileSystem.openForAppending(atPath: self.path(position.stream), displayPath: path, otherwise: StoreFiles.untouched)
    defer { close(fd) }
    try checkTail(size: size, sequence: sequence, at: position)
    if size > position.offset {
      guard ftruncate(fd, off_t(position.offset)) == 0 else { throw FileSystem.error(errno, path, "cannot cut an unfinished record") }
    }
    do {
      try FileSystem.writeAll(record, to: fd, displayPath: path)
    } catch {
      _ = ftruncate(fd, off_t(position.offset))
      throw error
    }
    // Watchers of the folder hear of the append: a write to a file in a folder is no event
    // for the folder on every platform, a change of the folder's times is.
    _ = utimes(folderPath, nil)
    return Cursor(stream: position.stream, offset: position.offset + record.count, next: sequence + 1)
  }

  /// Throws unless the stream of `size` bytes may take transaction `sequence` at `position`:
  /// past the records read, a tail a killed writer left unfinished, or garbage a power loss
  /// left, is to be cut; a whole record means this writer did not catch up, and nothing is cut.
  private func checkTail(size: Int, sequence: Int, at position: Cursor) throws {
    let path = displayPath(position.stream)
    guard size >= position.offset else {
      throw StoreError(.damaged, path: path, "is shorter than the records read from it — \(StoreFiles.untouched)")
    }
    guard size > position.offset else { return }
    var probe = position
    let tail = try FileSystem.read(atPath: self.path(position.stream), displayPath: path, from: position.offset) ?? Data()
    var whole = 0
    _ = try? parse(tail, &probe) { _ in whole += 1 }
    guard whole == 0 else {
      throw StoreError(.damaged, path: path, "holds transaction \(sequence) already — \(StoreFiles.untouched)")
    }
  }

  /// One record as a stream holds it: header line, JSON, newline.
  static func frame(sequence: Int, body: Data) -> Data {
    var record = Data(header(sequence: sequence, body: body))
    record.append(body)
    record.append(UInt8(ascii: "\n"))
    return record
  }

  /// The record of a transaction, encoded straight into its frame.
  static func record(_ entry: LogEntry) throws -> Data {
    try StoreCoding.makeEncoder().encodeFramed(
      entry, capacity: 256 + entry.changes.count * 160, headerSize: frame.headerLength,
      header: { header(sequence: entry.sequence, body: $0) }, trailer: [UInt8(ascii: "\n")])
  }

  /// A record's first line: its sequence, and its body's length and checksum (fixed widths).
  private static func header(sequence: Int, body: some Collection<UInt8>) -> [UInt8] {
    frame.header(fields: [ChangeFileName.sequenceText(sequence)], body: body)
  }

  // MARK: Pruning

  /// Removes every record at or before `sequence`: the streams that hold nothing later, and the
  /// older records of the one that holds `sequence`, whose later ones become a stream of their
  /// own (replaced atomically, so a reader finds one or the other). Runs holding the flock.
  @discardableResult
  func removeRecords(through sequence: Int) throws -> Bool {
    let removed = removeStreams(through: sequence)
    guard let first = streams().first, first <= sequence else { return removed }
    var later = Data()
    for record in try read(from: sequence + 1, cursor: nil).records where record.stream == first {
      later.append(Self.frame(sequence: record.sequence, body: record.bytes))
    }
    try FileSystem.writeAtomically(later, to: url(sequence + 1), displayPath: displayPath(sequence + 1), durable: false)
    FileSystem.remove(url(first))
    return true
  }

  /// Removes the streams whose every record is at or before `sequence` (never the newest, which
  /// the next record goes to). Returns whether it removed any.
  @discardableResult
  func removeStreams(through sequence: Int) -> Bool {
    let all = streams()
    var removed = false
    for (stream, next) in zip(all, all.dropFirst()) where next - 1 <= sequence {
      FileSystem.remove(url(stream))
      removed = true
    }
    return removed
  }
}
