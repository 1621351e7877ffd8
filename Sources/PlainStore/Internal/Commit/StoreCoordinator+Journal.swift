import Foundation

extension StoreCoordinator {
  /// A change file at most this large is committed through the journal (one flush); a larger
  /// one, a bulk save, is flushed as its own file, where the second flush is small beside
  /// writing its data.
  static let journalRecordLimit = 256 * 1024
  /// Once the journal holds this much, its change files are flushed and it is emptied, by the
  /// commit whose record took it past this size (``settleJournalAfterCommit(_:_:)``).
  static let journalSettleSize = 64 * 1024
  /// A journal this large is settled by the commit that finds it so, holding the lock: the
  /// commit that crossed `journalSettleSize` was killed, or failed to settle it.
  static let journalSettleBackstop = 4 * journalSettleSize

  /// Whether a record of the journal names a change file that is not there whole — a power
  /// loss took it — or the journal cannot be read. A look without the lock, at every open.
  func journalNeedsSettling(_ files: StoreFiles) -> Bool {
    let journal = files.journal
    guard let size = FileSystem.size(journal.url) else {
      return FileSystem.exists(journal.url)  // a folder, a FIFO or a link in its place
    }
    guard size > 0 else { return false }
    let carrying = files.changes.isCarrying
    do {
      return try journal.records().contains { record in
        let file = files.changes.ownFile(record.device, record.fileName, carrying: carrying)
        return FileSystem.size(atPath: file.path) != record.bytes.count
          && (file.inOutbox || !files.changes.isNotDownloaded(record.device, record.fileName))
      }
    } catch {
      return true  // settling says what is wrong with it, under the lock
    }
  }

  /// Makes every change file the journal holds whole and durable, then empties the journal.
  /// Runs holding the flock. A record whose file is missing or damaged (a power loss took it)
  /// is written again, flushed; a record whose name holds another whole change is passed
  /// over: a commit killed before its file was created, whose sequence a later commit took.
  /// So is a record whose file a placeholder stands for: iCloud evicted it, so it has it whole,
  /// and a file written again beside its placeholder would be a second item of one name.
  /// Returns the display paths of the change files it wrote again. With `emptying` false the
  /// journal keeps its records, for a caller that empties it later (a rebuild, once the truth
  /// has been read: one that cannot be leaves every file as it was). `flushed`: records whose
  /// files were flushed before the lock was taken (``flushJournaledChangeFiles(_:)``), passed over.
  @discardableResult
  func settleJournal(_ files: StoreFiles, emptying: Bool = true, flushed: [String: Data] = [:]) throws -> [String] {
    let journal = files.journal
    let records: [CommitJournal.Record]
    do {
      records = try journal.records()
    } catch let error as StoreError where error.code == .damaged {
      // Not a regular file (a folder, a FIFO): the cache's own, so it goes; commits start a new one.
      try FileSystem.removeAnything(journal.url, displayPath: journal.displayPath)
      return []
    }
    var unflushed: [String] = []
    var folders: Set<URL> = []
    var restored: [String] = []
    // Each where it is: in the outbox, or in the sync folder (read only while the carrier is
    // there; otherwise a file the outbox lacks is restored into it, and moves from there).
    let carrying = files.changes.isCarrying
    for record in records where flushed[record.name] != record.bytes {
      let (file, path, inOutbox) = files.changes.ownFile(record.device, record.fileName, carrying: carrying)
      if !inOutbox && files.changes.isNotDownloaded(record.device, record.fileName) { continue }
      if let existing = try FileSystem.read(atPath: file, displayPath: path) {
        if existing == record.bytes {
          unflushed.append(file)
          folders.insert(URL(fileURLWithPath: file).deletingLastPathComponent())
          continue
        }
        if case .success = ChangeFileCodec.body(existing) { continue }
        try FileSystem.removeAnything(URL(fileURLWithPath: file), displayPath: path)  // left empty or torn by a power loss
      }
      if inOutbox {
        try files.changes.outbox.makeDeviceFolder(record.device)
        try FileSystem.createOnce(record.bytes, atPath: file, displayPath: path)
      } else {
        try files.changes.makeDeviceFolder(record.device)
        _ = try files.changes.transport.coordinateCreating(atPath: file) { try FileSystem.createOnce(record.bytes, atPath: $0, displayPath: path) }
      }
      restored.append(path)
    }
    if !unflushed.isEmpty {
      try FileSystem.flushToDisk(paths: unflushed, folders: folders.sorted { $0.path < $1.path }, displayPath: journal.displayPath)
    }
    if emptying, journal.size > 0 { try journal.empty() }
    return restored
  }

  /// Settles the journal after the commit whose record took it past `journalSettleSize`, the
  /// store's lock let go meanwhile: the change files it holds are flushed first without the
  /// lock, then, holding it, the few that commits appended meanwhile, and it is emptied. The
  /// flushes (a hundred change files, 5–10 ms on the machine the figures come from) held every
  /// other writer up when they ran under the lock. A failure is housekeeping's: the journal
  /// stays as it is, for `journalSettleBackstop` or the next open.
  func settleJournalAfterCommit(_ files: StoreFiles, _ lock: FileLock) {
    do {
      let flushed = try flushJournaledChangeFiles(files)
      options.phaseObserver?("settle: flushed")
      try lock.withLock(timeout: options.lockTimeout) { _ = try settleJournal(files, flushed: flushed) }
    } catch {
      state.withLock { $0.statistics.housekeepingFailures += 1 }
    }
  }

  /// Flushes the change files the journal's records hold that are there whole, without the
  /// lock: a change file is created once and never changes. Returns their records, by name,
  /// for the settle that follows to pass over. A record being appended meanwhile is torn and
  /// skipped, or whole and flushed; either way the settle under the lock sees it again.
  func flushJournaledChangeFiles(_ files: StoreFiles) throws -> [String: Data] {
    let carrying = files.changes.isCarrying
    var flushed: [String: Data] = [:]
    var paths: [String] = []
    var folders: Set<URL> = []
    for record in try files.journal.records() {
      let (file, path, _) = files.changes.ownFile(record.device, record.fileName, carrying: carrying)
      guard try FileSystem.read(atPath: file, displayPath: path) == record.bytes else { continue }
      flushed[record.name] = record.bytes
      paths.append(file)
      folders.insert(URL(fileURLWithPath: file).deletingLastPathComponent())
    }
    if !paths.isEmpty {
      try FileSystem.flushToDisk(paths: paths, folders: folders.sorted { $0.path < $1.path }, displayPath: files.journal.displayPath)
    }
    return flushed
  }

  /// Settles the journal at open when a power loss took one of its change files, before
  /// anything reads `changes/`.
  func settleJournalIfNeeded(_ files: StoreFiles, _ lock: FileLock) throws {
    guard journalNeedsSettling(files) else { return }
    let restored = try lock.withLock(timeout: options.lockTimeout) { try settleJournal(files) }
    state.withLock { $0.restoredFromJournal = restored }
  }
}
