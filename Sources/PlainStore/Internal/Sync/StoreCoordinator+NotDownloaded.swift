import Foundation

extension StoreCoordinator {
  /// The bytes of one of this device's change files that the local log refers to: the file, or,
  /// while a placeholder stands for it (iOS evicted it), its record in `local/journal`. Nil when
  /// it is not there at all.
  /// - Throws: ``StoreError`` `.missing`, saying so, when it is evicted
  ///   and the journal no longer holds it: its values are in the cloud only, until downloaded.
  func ownChangeFile(_ origin: ChangeStamp, files: StoreFiles, logPath: String) throws -> Data? {
    let name = ChangeFileName.changeName(sequence: origin.sequence)
    let carrying = files.changes.isCarrying
    // This device's own file, by its exact name, in the outbox or its own folder of the sync
    // folder — even while syncing is off: it holds nothing of another device or account. Read
    // in that order, with no look first: a catch-up does not hold the lock, and another
    // process's drain may move the file between a look and a read; it creates the file in the
    // sync folder before it leaves the outbox, so the second read finds what the first missed.
    let outbox = files.changes.outbox
    if let data = try FileSystem.read(atPath: outbox.filePath(origin.device, name), displayPath: outbox.display(origin.device, name)) {
      return data
    }
    let path = files.changes.display(origin.device, name)
    if let data = try FileSystem.read(atPath: files.changes.filePath(origin.device, name), displayPath: path) { return data }
    guard !carrying || files.changes.isNotDownloaded(origin.device, name) else { return nil }
    if let record = try files.journal.records().last(where: { $0.device == origin.device && $0.sequence == origin.sequence }) {
      return record.bytes
    }
    guard carrying else {
      throw StoreError(
        .missing, path: path,
        "is in the sync folder, which cannot be read while syncing is off (signed out of iCloud, or signed in to another account), and the local log \(logPath) needs its values — nothing is lost: it is read once syncing is on again.")
    }
    throw StoreError(
      .missing, path: path,
      "is not downloaded here (a placeholder stands for it), and the local log \(logPath) needs its values — nothing is lost: it is read once it is downloaded (open the app with iCloud Drive on).")
  }
}

extension StoreCoordinator {
  /// The files of `devices` (nil: of every device) that `scan` found not downloaded, as paths
  /// and as messages name them.
  func notDownloaded(_ scan: ChangeScan, of devices: Set<DeviceID>?, files: StoreFiles) -> [(path: String, display: String)] {
    var names: [(DeviceID, String)] = []
    for (device, numbers) in scan.notDownloadedSnapshots where devices?.contains(device) ?? true {
      names += numbers.map { (device, ChangeFileName.snapshotName(number: $0)) }
    }
    for (device, sequences) in scan.notDownloadedSequences where devices?.contains(device) ?? true {
      names += sequences.map { (device, ChangeFileName.changeName(sequence: $0)) }
    }
    return names.map { (files.changes.filePath($0.0, $0.1), files.changes.display($0.0, $0.1)) }.sorted { $0.path < $1.path }
  }

  /// The files the cache has folded that are not downloaded now (iOS evicted them) and that no
  /// downloaded snapshot holds: a fold of every file without them would take their changes out
  /// of the cache, which still shows them.
  func foldedNotDownloaded(_ scan: ChangeScan, _ folded: FoldedChanges, files: StoreFiles) -> [(path: String, display: String)] {
    var names: [(DeviceID, String)] = []
    for (device, numbers) in scan.notDownloadedSnapshots {
      let newestHere = scan.snapshots.filter { $0.device == device }.map(\.number).max() ?? 0
      names += numbers.filter { folded.contains(snapshot: $0, of: device) && $0 > newestHere }.map { (device, ChangeFileName.snapshotName(number: $0)) }
    }
    for (device, sequences) in scan.notDownloadedSequences {
      names += sequences.filter { folded.contains(device: device, sequence: $0) && $0 > scan.covered[device] ?? 0 }
        .map { (device, ChangeFileName.changeName(sequence: $0)) }
    }
    return names.map { (files.changes.filePath($0.0, $0.1), files.changes.display($0.0, $0.1)) }.sorted { $0.path < $1.path }
  }

  /// A rebuild or a compaction that cannot do without files that are not downloaded asks for
  /// them and waits, up to ``StoreOptions/downloadWait``; returns those still not downloaded,
  /// as messages name them (empty: `scan` is to be made again, as they came).
  func awaitDownloads(_ scan: ChangeScan, of devices: Set<DeviceID>?, files: StoreFiles) -> [String] {
    awaitDownloads(notDownloaded(scan, of: devices, files: files), files: files)
  }

  /// Asks for `needed` and waits for them, bounded; returns those still not downloaded.
  func awaitDownloads(_ needed: [(path: String, display: String)], files: StoreFiles) -> [String] {
    guard !needed.isEmpty else { return [] }
    let displays = Dictionary(needed.map { ($0.path, $0.display) }, uniquingKeysWith: { first, _ in first })
    return files.changes.transport.awaitDownloads(atPaths: needed.map(\.path), timeout: options.downloadWait).compactMap { displays[$0] }
  }
}
