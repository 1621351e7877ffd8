import Foundation

/// The synced part of a store: `changes/<device-id>/…`, one folder per device, each written by
/// that device alone.
///
/// Writing creates files once and never replaces or removes another device's files. Reading
/// tolerates everything a sync engine leaves: its temporary files and placeholders are skipped,
/// conflict copies are read as the change they copy, and another device's file that is
/// incomplete or damaged is "not arrived yet" — skipped now, read again next time. Only this
/// device's own files are trusted to be whole: a damaged one is an error naming it.
struct ChangeFolder: Sendable {
  let url: URL
  /// How messages name the folder, e.g. "Notes.store/changes".
  let displayName: String
  private let deviceURLs = BuiltURLs<DeviceID>()
  /// The folder's path, for files named as text (see ``filePath(_:_:)``).
  let path: String
  /// What carries the files between devices: a plain folder unless told otherwise.
  let transport: any ChangeTransport
  /// Where this device's change files wait while the carrier is not there.
  let outbox: Outbox
  /// The carrier's account this store syncs with.
  let account: SyncAccount
  /// The newest change-file format this program reads (see ``ChangeFormat``).
  let reads: Int

  /// Without an outbox and an account record, those of a store folder holding this folder.
  init(
    url: URL, displayName: String, transport: any ChangeTransport = FolderTransport(), outbox: Outbox? = nil, account: SyncAccount? = nil,
    reads: Int = ChangeFormat.oldest
  ) {
    self.url = url
    self.reads = reads
    self.path = url.path
    self.displayName = displayName
    self.transport = transport
    let store = url.deletingLastPathComponent()
    self.outbox = outbox ?? Outbox(url: store.appendingPathComponent("outbox"), displayName: store.lastPathComponent + "/outbox")
    self.account = account ?? SyncAccount(url: store.appendingPathComponent("sync-account"), displayPath: store.lastPathComponent + "/sync-account")
  }

  /// Whether change files travel now, and if not, why: the carrier is there, and syncs for the
  /// account this store synced with (recorded the first time the carrier names one). The one
  /// rule that every reader and writer of the sync folder asks: while it is not `.available`,
  /// nothing is read from the sync folder or written to it, and commits wait in the outbox.
  func carrier() -> SyncStatus.Carrier {
    guard transport.isAvailable else { return .unavailable(transport.unavailableReason) }
    guard let identity = transport.accountIdentity else { return .available }  // a carrier without accounts
    guard let recorded = account.recorded else {
      // Unrecorded, the account cannot be told from the next one: no syncing until it is.
      do { try account.record(identity) } catch { return .unavailable(.unknown) }
      return .available
    }
    return recorded == identity ? .available : .accountChanged
  }

  /// `carrier() == .available`.
  var isCarrying: Bool { carrier() == .available }

  /// Where one of this device's files is: in the outbox while it waits there, else in the sync
  /// folder — looked at only while `carrying`: otherwise a file the outbox does not hold goes
  /// there (the journal restores a file a power loss took into the outbox, and it moves).
  func ownFile(_ device: DeviceID, _ name: String, carrying: Bool) -> (path: String, display: String, inOutbox: Bool) {
    if !carrying || outbox.contains(device, name) { return (outbox.filePath(device, name), outbox.display(device, name), true) }
    return (filePath(device, name), display(device, name), false)
  }

  /// A device's folder, its URL built once: a URL costs a parse on Linux, and every commit and
  /// every scan asks for one.
  func deviceURL(_ device: DeviceID) -> URL {
    deviceURLs.url(device) { url.appendingPathComponent(device.text) }
  }
  func display(_ device: DeviceID, _ name: String) -> String { displayName + "/" + device.text + "/" + name }
  /// A file of a device's folder as a path: a catch-up reads another process's change file for
  /// each of its commits, and a URL costs a parse on Linux.
  func filePath(_ device: DeviceID, _ name: String) -> String { path + "/" + device.text + "/" + name }

  /// The folders where other devices' files arrive, as paths: this folder and every device's
  /// folder in it but `own`'s (its files are this device's commits, which reach other
  /// processes through the local log). While the folder is not there yet, the folder it will
  /// appear in.
  /// While the carrier is not there (or is another account's), the folder alone, unlisted.
  func arrivalFolders(except own: DeviceID?) -> [String] {
    guard FileSystem.isFolder(atPath: path) else { return [url.deletingLastPathComponent().path] }
    guard isCarrying else { return [path] }
    return [path] + transport.list(path).arrived.compactMap { name in
      guard let device = DeviceID(name), device != own, FileSystem.isFolder(atPath: path + "/" + name) else { return nil }
      return path + "/" + name
    }
  }

  /// Whether a name that appeared in one of the ``arrivalFolders(except:)`` may be an arrival:
  /// another device's folder, or a file in one that is no sync engine's temporary file.
  /// Everything else the store's own work makes there (this folder, this device's folder at
  /// its first commit, the cache beside this folder) is not.
  func isArrival(_ name: String, in folder: String, own: DeviceID?) -> Bool {
    if folder == path { return DeviceID(name).map { $0 != own } ?? false }
    guard folder.hasPrefix(path + "/") else { return false }
    return !ChangeFileName.isArtefact(name)
  }

  /// Creates one change file of this device, durably. Returns false, writing nothing, when its
  /// name is taken: a commit of this device that a crash kept from being recorded, or another
  /// copy of the store writing under the same device id.
  func create(_ change: ChangeFile) throws -> Bool {
    try makeDeviceFolder(change.device)
    let path = display(change.device, change.fileName)
    return try transport.createOnce(ChangeFileCodec.encode(change), atPath: filePath(change.device, change.fileName), displayPath: path)
  }

  /// Whether a change file's name is taken in a device's folder: in the outbox, by the file,
  /// or by the placeholder that stands for it while it is not downloaded (writing it again
  /// beside its placeholder would make a second item of one name in iCloud Drive). The sync
  /// folder is looked at only while `carrying`.
  func isTaken(_ device: DeviceID, _ name: String, carrying: Bool) -> Bool {
    outbox.contains(device, name) || (carrying && transport.isTaken(atPath: filePath(device, name)))
  }

  /// Whether a placeholder stands for a device's file, and the file itself is not here.
  func isNotDownloaded(_ device: DeviceID, _ name: String) -> Bool {
    transport.isNotDownloaded(atPath: filePath(device, name))
  }

  /// The conflict copies of a name in a device's folder, with their bytes: where a sync engine
  /// keeps one of two different files written under one name (two copies of a store writing
  /// under one device id). A copy not downloaded here is left out.
  func conflictCopies(of name: String, device: DeviceID) throws -> [(data: Data, display: String)] {
    try transport.list(deviceURL(device).path).arrived.compactMap { copy in
      guard ChangeFileName.originalName(ofConflictCopy: copy) == name else { return nil }
      return try transport.read(atPath: filePath(device, copy), displayPath: display(device, copy)).map { ($0, display(device, copy)) }
    }
  }

  /// Every distinct change under a device's id, conflict copies and the outbox's included,
  /// oldest stamp first: what a copy of the store re-publishes when it finds another copy
  /// writing under its id. One that does not read is left out: it was never folded either.
  func changes(of device: DeviceID) throws -> [ChangeFile] {
    let here = transport.list(deviceURL(device).path).arrived.map { (filePath(device, $0), display(device, $0), $0, false) }
    let waiting = outbox.names(of: device).map { (outbox.filePath(device, $0), outbox.display(device, $0), $0, true) }
    var found: [ChangeFile] = []
    for (file, path, name, inOutbox) in here + waiting {
      guard case .change(let sequence) = ChangeFileName.classify(name).kind,
        case .success(let change) = try read(file, path: path, inOutbox: inOutbox),
        change.device == device, change.sequence == sequence, !found.contains(change)
      else { continue }
      found.append(change)
    }
    return found.sorted { $0.stamp < $1.stamp }
  }

  /// Every readable snapshot under a device's id, each version of each number (conflict copies
  /// included): what a copy of the store re-publishes, as one, when it finds another copy
  /// writing under its id.
  func snapshots(of device: DeviceID) throws -> [ChangeSnapshot] {
    var found: [ChangeSnapshot] = []
    for name in transport.list(deviceURL(device).path).arrived {
      guard case .snapshot(let number) = ChangeFileName.classify(name).kind,
        case .success(let snapshot) = try transport.read(atPath: filePath(device, name), displayPath: display(device, name))
          .map({ ChangeFileCodec.decodeSnapshot($0, reads: reads) }) ?? .failure(.incomplete),
        snapshot.device == device, snapshot.number == number, !found.contains(snapshot)
      else { continue }
      found.append(snapshot)
    }
    return found
  }

  /// Like ``create(_:)``, for callers (tests) that know the name is free.
  func write(_ change: ChangeFile) throws {
    guard try create(change) else {
      throw StoreError(.damaged, path: display(change.device, change.fileName), "already exists — nothing was written.")
    }
  }

  func makeDeviceFolder(_ device: DeviceID) throws {
    // Every commit asks, and both are there: looked at by path first (a URL's path costs a
    // parse on Linux); anything else in their place is refused below, as damage.
    if FileSystem.isFolder(atPath: path), FileSystem.isFolder(atPath: path + "/" + device.text) { return }
    try FileSystem.makeFolder(url, displayPath: displayName)
    try FileSystem.makeFolder(deviceURL(device), displayPath: displayName + "/" + device.text)
  }

  /// Writes `device.json` for this device once, into the outbox or the sync folder; an
  /// existing one stays.
  func writeDeviceInfo(_ info: DeviceInfo, of device: DeviceID, toOutbox: Bool) throws {
    let data = try StoreCoding.makeEncoder().encode(info)
    if toOutbox {
      try outbox.makeDeviceFolder(device)
      try FileSystem.createOnce(data, atPath: outbox.filePath(device, "device.json"), displayPath: outbox.display(device, "device.json"))
    } else {
      try makeDeviceFolder(device)
      _ = try transport.createOnce(data, atPath: filePath(device, "device.json"), displayPath: display(device, "device.json"))
    }
  }

  /// A device's `device.json`, if it is there and readable: in the outbox, or in the sync
  /// folder while the carrier is there.
  func deviceInfo(_ device: DeviceID) -> DeviceInfo? {
    let bytes =
      outbox.contains(device, "device.json")
      ? try? FileSystem.read(atPath: outbox.filePath(device, "device.json"), displayPath: outbox.display(device, "device.json"))
      : isCarrying ? try? transport.read(atPath: filePath(device, "device.json"), displayPath: display(device, "device.json")) : nil
    guard let data = bytes else { return nil }
    return try? StoreCoding.makeDecoder().decode(DeviceInfo.self, from: data)
  }

  /// Creates this device's snapshot, durably (`encoded`: its bytes, when the caller made them).
  /// Returns false, writing nothing, when its name is taken.
  func create(_ snapshot: ChangeSnapshot, encoded: Data? = nil) throws -> Bool {
    try makeDeviceFolder(snapshot.device)
    let path = display(snapshot.device, snapshot.fileName)
    let bytes = try encoded ?? ChangeFileCodec.encode(snapshot)
    return try transport.createOnce(bytes, atPath: filePath(snapshot.device, snapshot.fileName), displayPath: path)
  }

  /// Reads every snapshot, and every change file whose (device, sequence) is neither `known`
  /// nor covered by a snapshot, with what was skipped and what is missing. A snapshot of a
  /// newer schema version than `readableSchema` is set aside, and covers nothing.
  /// `known` also skips the snapshots a cache has folded (`FoldedChanges.snapshots`), for the
  /// quick look that decides whether to merge at all.
  ///
  /// The outbox's files are read as their device's own, wherever they are; the sync folder is
  /// read only while the carrier is there (``isCarrying``): otherwise the scan is of the outbox
  /// alone.
  func scan(own: DeviceID?, readableSchema: Int = .max, known: FoldedChanges? = nil) throws -> ChangeScan {
    var scan = ChangeScan()
    var listings: [(device: DeviceID, names: [String], notDownloaded: [String])] = []
    var inOutbox: [DeviceID: Set<String>] = [:]
    for device in outbox.devices() { inOutbox[device] = Set(outbox.names(of: device)) }
    if isCarrying {
      for name in transport.list(path).arrived {
        guard let device = DeviceID(name) else {
          if ChangeFileName.isArtefact(name) { scan.artefactsSkipped += 1 } else { scan.unknown.append(displayName + "/" + name) }
          continue
        }
        guard FileSystem.isFolder(deviceURL(device)) else {
          scan.unknown.append(displayName + "/" + name)  // a link or a file: never followed
          continue
        }
        scan.devices.insert(device)
        let listing = transport.list(path + "/" + name)
        let waiting = inOutbox[device] ?? []
        // A file both here and in the outbox (a move a kill interrupted) is read once, from the outbox.
        guard !waiting.isEmpty else {  // the common case: a folder of thousands, not copied again
          listings.append((device, listing.arrived, listing.notDownloaded))
          continue
        }
        listings.append((device, Set(listing.arrived).union(waiting).sorted(), listing.notDownloaded.filter { !waiting.contains($0) }))
      }
    }
    for (device, names) in inOutbox.sorted(by: { $0.key.text < $1.key.text }) where !scan.devices.contains(device) {
      scan.devices.insert(device)
      listings.append((device, names.sorted(), []))
    }
    // Snapshots first: the changes they cover need not be read again.
    for (device, names, notDownloaded) in listings {
      for name in notDownloaded {
        if ChangeFileName.classify(name).kind == .deviceInfo { transport.requestDownload(atPath: filePath(device, name)) }
        guard case .snapshot(let number) = ChangeFileName.classify(name).kind else { continue }
        scan.notDownloaded.append(display(device, name))  // what it covers is not known until it is read
        scan.notDownloadedSnapshots[device, default: []].insert(number)
        transport.requestDownload(atPath: filePath(device, name))
      }
      // A known number with a conflict copy of other bytes is read in every version: two copies
      // of the store that both compacted wrote one each, and both count (`divergentSnapshots`).
      let copiedNumbers = Set(
        names.compactMap { name -> Int? in
          guard case (.snapshot(let number), true) = ChangeFileName.classify(name) else { return nil }
          return number
        })
      var unread: Set<Int> = []
      for number in copiedNumbers where known?.contains(snapshot: number, of: device) == true {
        let named = names.filter { ChangeFileName.classify($0).kind == .snapshot(number: number) }
        let bytes = try Set(named.map { try transport.read(atPath: filePath(device, $0), displayPath: display(device, $0)) })
        if bytes.count == 1 { unread.insert(number) }  // the same bytes twice (an engine that met the file twice)
      }
      var versions: [Int: [ChangeSnapshot]] = [:]
      for name in names {
        guard case (.snapshot(let number), let isCopy) = ChangeFileName.classify(name) else { continue }
        if known?.contains(snapshot: number, of: device) == true && (!copiedNumbers.contains(number) || unread.contains(number)) { continue }
        let path = display(device, name)
        let result: Result<ChangeSnapshot, ChangeFileCodec.Failure> =
          try transport.read(atPath: filePath(device, name), displayPath: path).map { ChangeFileCodec.decodeSnapshot($0, reads: reads) }
          ?? .failure(.incomplete)
        switch result {
        case .success(let snapshot) where snapshot.device == device && snapshot.number == number:
          if isCopy { scan.conflictCopies += 1 }
          guard snapshot.schemaVersion <= readableSchema else {
            scan.snapshotsAwaitingUpdate.append(path)
            continue
          }
          if versions[number]?.contains(snapshot) != true { versions[number, default: []].append(snapshot) }
        case .success:
          // A conflict copy is the engine's, never this device's own write: damaged, it waits.
          if device == own && !isCopy { throw Self.ownDamaged(path, "its contents belong to another name or device") }
          scan.notArrived.append(path)
        case .failure(.newerFormat(let format)):
          scan.newerFormat.append((path, device, format))  // covers nothing here until this program reads it
        case .failure(let failure):
          if device == own && !isCopy { throw Self.ownDamaged(path, Self.describe(failure)) }
          scan.notArrived.append(path)
        }
      }
      // A device's newest snapshot holds everything its older ones did, so only the newest
      // number counts (each version of it), for every reader alike: an older number that another
      // copy of the store wrote under the same id is left out by a rebuild as by a cache that
      // folded the newer one (the copy that wrote it re-publishes what it holds).
      let newest = max(versions.keys.max() ?? 0, known?.snapshots[device] ?? 0)
      if let read = versions[newest] {
        let divergent = read.count > 1 ? read.map(\.stamp) : []
        scan.divergentSnapshots.formUnion(divergent)
        // Of a known number, a version not folded yet is news, and then every version is folded.
        if known?.contains(snapshot: newest, of: device) != true || !(known?.divergentSnapshots.isSuperset(of: divergent) ?? true) {
          for snapshot in read {
            scan.snapshots.append(snapshot)
            scan.lastActive[device] = max(scan.lastActive[device] ?? 0, snapshot.hlc)
            for (covered, through) in snapshot.covers { scan.covered[covered] = max(scan.covered[covered] ?? 0, through) }
          }
        }
      }
    }
    scan.snapshots.sort { ($0.device, $0.number) < ($1.device, $1.number) }
    for (device, names, notDownloaded) in listings {
      try scanDevice(
        device, names: names, notDownloaded: notDownloaded, inOutbox: inOutbox[device] ?? [], isOwn: device == own,
        known: { known?.contains(device: $0, sequence: $1) ?? false }, into: &scan)
    }
    scan.files.sort { $0.stamp < $1.stamp }
    return scan
  }
}
