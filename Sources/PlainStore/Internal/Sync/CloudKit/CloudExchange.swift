import Foundation

/// One sync through CloudKit, as `StoreContainer.sync()` runs it before it merges: the engine's
/// events, then this store's files the server lacks go up, then the zone's changes come down.
///
/// - A file goes up as one record named after it (``CloudRecordName``), in requests of at most
///   ``requestLimit`` records, split on `limitExceeded`.
/// - A fetched record becomes a file of `changes/` exactly as another sync engine would leave
///   it: created once; the same name with other bytes becomes a conflict copy, which the fold
///   reads as the change it copies. Never a merge here.
/// - Each fetched batch's files are flushed before the engine state that follows them is saved:
///   a kill in between fetches the batch again, and create-once writes nothing twice.
/// - Once every file is up, the records of this device's own files that a change compaction
///   deleted here are deleted from the zone (``deleteCompactedAway()``): a joining phone fetches
///   the newest snapshot and what came after, not the history.
/// - Nothing fetched deletes a file: a record deleted on the server (or a zone deleted, or an
///   account signed out) leaves the family's change files where they are.
/// - The zone is this account's own, or the one another account shares with it
///   (`CloudSyncState.zone`): a share accepted or ended switches zones, and the new one is
///   fetched from no token and offered every file (PlainStore.docc/CloudKit.md, "Sharing").
struct CloudExchange {
  let database: any CloudDatabase
  let folder: ChangeFolder
  let own: DeviceID?
  let now: Date
  let stateURL: URL
  var state: CloudSyncState
  /// Told each step: `cloudkit: sent`, `cloudkit: batch N written` (its files durable, its
  /// state not saved), `cloudkit: batch N saved`. The kill suites stop a process at each.
  let phase: (@Sendable (String) -> Void)?

  /// CloudKit's limit of records per modify request.
  static let requestLimit = 400
  /// How often one record is sent again in one sync before its error ends the sync.
  static let resendLimit = 3

  /// How often each record was sent (or deleted) again this sync.
  var resent: [String: Int] = [:]

  init(database: any CloudDatabase, folder: ChangeFolder, own: DeviceID?, now: Date, phase: (@Sendable (String) -> Void)?) {
    self.database = database
    self.phase = phase
    self.folder = folder
    self.own = own
    self.now = now
    stateURL = CloudSyncState.url(beside: folder.url)
    state = CloudSyncState.load(stateURL)
  }

  /// Runs the sync, sending and fetching as its ``SyncTrigger`` says; an engine error ends it
  /// with its condition saved (see ``CloudErrorAction``), a local file's error throws.
  mutating func run(sending: Bool, fetching: Bool) throws {
    for event in database.takeEvents() { apply(event) }
    if state.stopped {
      state.condition = .zonePurged
      return try state.save(stateURL)
    }
    if let until = state.waitUntil, now < until { return try state.save(stateURL) }  // the events' changes kept
    state.waitUntil = nil
    do {
      do {
        try sendAndFetch(sending: sending, fetching: fetching)
      } catch let error as CloudError where CloudErrorAction.action(for: error.code) == .recreateZoneAndResend {
        // A shared zone gone is the share's end (its owner stopped it, or deleted the zone,
        // before the engine said so): back to this account's own zone, every file kept.
        if case .sharedBy(let owner) = state.zone { apply(.shareEnded(owner: owner, .stopped)) } else { forgetServer() }
        try sendAndFetch(sending: sending, fetching: fetching)  // a second zoneNotFound ends the sync, below
      }
      state.condition = nil
    } catch let error as CloudError {
      guard case .wait(let condition) = CloudErrorAction.action(for: error.code) else {
        // An action that did not settle it (a zone gone again, one record too large alone).
        state.condition = .refused
        return try state.save(stateURL)
      }
      state.condition = condition
      state.waitUntil = error.retryAfter.map { now.addingTimeInterval($0) }
      if condition == .zonePurged { state.stopped = true }
    }
    try state.save(stateURL)
  }

  /// What an event means for the state; none deletes a file.
  private mutating func apply(_ event: CloudEvent) {
    switch event {
    case .accountChange(.signIn):
      // The engine starts afresh: fetch from the beginning and offer every file (the server's
      // equal bytes are success). A new sign-in also lifts a purge's stop.
      forgetServer()
      state.stopped = false
    case .accountChange(.signOut), .accountChange(.switchAccounts):
      // The engine cleared its state; the files stay, and `SyncAccount` keeps another
      // account's zone out of this store. Shares were the account's: they go with it.
      forgetServer()
      (state.zone, state.participants) = (.own, [])
    case .zoneDeleted(.deleted), .zoneDeleted(.encryptedDataReset):
      // The zone is empty: made again and sent every file this device holds (Apple's header
      // for encryptedDataReset; PlainStore.docc/CloudKit.md records the page that disagrees).
      forgetServer()
    case .zoneDeleted(.purged):
      // The user deleted the app's data from iCloud: sending it again would undo that.
      forgetServer()
      state.stopped = true
    case .shareAccepted(let owner) where state.zone != .sharedBy(owner: owner):
      // The other parent's zone is the family's now: fetched whole, and every file of this
      // store offered to it (this device's data joins the family; nothing is left behind).
      forgetServer()
      (state.zone, state.shareEnded) = (.sharedBy(owner: owner), nil)
    case .shareEnded(let owner, let reason) where state.zone == .sharedBy(owner: owner):
      // Every file stays here, the other parent's included, and this account's own zone
      // carries them from now on: what was committed and never reached the share is not lost.
      forgetServer()
      (state.zone, state.shareEnded) = (.own, CloudSyncState.SharingEnd(owner: owner, reason: reason))
    case .shareAccepted, .shareEnded:
      break  // the zone this store already syncs, or a share it does not sync through
    case .participantsChanged(let accounts):
      state.participants = accounts
    }
  }

  private mutating func sendAndFetch(sending: Bool, fetching: Bool) throws {
    if state.engineState == nil {
      // Without a token, what this store sent may have gone with a zone since lost (a token of
      // that zone would expire; none can): every file is offered again.
      forgetServer()
      if state.zone == .own { try database.createZone() }  // a shared zone is its owner's to make
    }
    if sending {
      try send()
      phase?("cloudkit: sent")
    }
    // A token too old means the zone may have lost records this store sent: offered again (by a
    // push's fetch, at the next sync that sends).
    if fetching, try fetch(), sending { try send() }
  }

  // MARK: Sending

  private mutating func send() throws {
    var queue = Self.chunks(try unsent(), of: Self.requestLimit)
    while !queue.isEmpty {
      let batch = queue.removeFirst()
      do {
        try database.save(batch, in: state.zone)
        for record in batch { state.onServer.insert(record.name) }
      } catch let error as CloudError {
        queue.insert(contentsOf: try settle(batch, error, by: CloudErrorAction.action, name: \.name) { try $0.settle($1, $2) }, at: 0)
      }
    }
    // Every file is on the server now, the snapshots that supersede the deleted ones included.
    try deleteCompactedAway()
  }

  /// What to send again after a request of `batch` failed, by `table`: halves of a batch too
  /// large, each item by its own error after a partial failure, each by `one` when the error
  /// is every item's; throws the error that ends the sync. Saves and deletes both settle here.
  mutating func settle<Item>(
    _ batch: [Item], _ error: CloudError, by table: (CloudError.Code) -> CloudErrorAction, name: (Item) -> String,
    one: (inout Self, Item, CloudError) throws -> [Item]
  ) throws -> [[Item]] {
    switch table(error.code) {
    case .splitBatch where batch.count > 1:
      let half = batch.count / 2
      return [Array(batch[..<half]), Array(batch[half...])]
    case .perRecord:
      var again: [Item] = []
      var ending: CloudError?
      for item in batch {
        // One not named is not known to be done: sent again, where the same outcome is success.
        let own = error.perRecord[name(item)] ?? CloudError(.batchRequestFailed)
        do { again += try one(&self, item, own) } catch let stop as CloudError { ending = ending ?? stop }
      }
      if let ending { throw ending }
      return again.isEmpty ? [] : Self.chunks(again, of: Self.requestLimit)
    case .resend, .compareWithServer, .settled:
      var again: [Item] = []
      for item in batch { again += try one(&self, item, error) }
      return again.isEmpty ? [] : [again]
    case .splitBatch, .recreateZoneAndResend, .restartFromNoToken, .wait:
      throw error
    }
  }

  /// One record's failure: the records to send again.
  private mutating func settle(_ record: CloudRecord, _ error: CloudError) throws -> [CloudRecord] {
    switch CloudErrorAction.action(for: error.code) {
    case .compareWithServer:
      guard let server = error.serverRecord else { return try resend(record, error) }
      state.onServer.insert(record.name)
      guard server.bytes != record.bytes, let (device, file) = CloudRecordName.parse(record.name) else { return [] }
      // Two copies of the store wrote under one device id: the server's copy lands here as a
      // conflict copy, and this one goes up under its own conflict copy's name.
      _ = try write(server, durable: true)
      let copyName = CloudRecordName.make(device: device.text, file: CloudRecordName.secondCopy(of: file, bytes: record.bytes))
      let copy = CloudRecord(name: copyName, bytes: record.bytes)
      _ = try write(copy, durable: true)
      return state.onServer.contains(copy.name) ? [] : [copy]
    case .resend:
      return try resend(record, error)
    case .perRecord, .splitBatch, .recreateZoneAndResend, .restartFromNoToken, .settled, .wait:
      throw error
    }
  }

  private mutating func resend(_ record: CloudRecord, _ error: CloudError) throws -> [CloudRecord] {
    try countResend(record.name, error)
    return [record]
  }

  /// Counts one more attempt at `name`; throws `error` past ``resendLimit``.
  mutating func countResend(_ name: String, _ error: CloudError) throws {
    resent[name, default: 0] += 1
    guard resent[name]! <= Self.resendLimit else { throw error }
  }

  /// Every file of `changes/` the server is not known to hold, by device and name.
  private func unsent() throws -> [CloudRecord] {
    var records: [CloudRecord] = []
    for name in FileSystem.list(folder.url) {
      guard let device = DeviceID(name), FileSystem.isFolder(atPath: folder.deviceURL(device).path) else { continue }
      for file in FileSystem.list(folder.deviceURL(device)) {
        let recordName = CloudRecordName.make(device: device.text, file: file)
        // A deleted record is not brought back: its owner compacted it away.
        guard !state.onServer.contains(recordName), !state.deleted.contains(recordName), CloudRecordName.parse(recordName) != nil,
          let bytes = try FileSystem.read(atPath: folder.filePath(device, file), displayPath: folder.display(device, file))
        else { continue }
        records.append(CloudRecord(name: recordName, bytes: bytes))
      }
    }
    return records
  }

  // MARK: Fetching

  /// Fetches every batch; returns whether it had to start again from no token.
  private mutating func fetch() throws -> Bool {
    var restarted = false
    var more = true
    var batches = 0
    while more {
      let batch: CloudFetch
      do {
        batch = try database.fetchChanges(in: state.zone, since: state.engineState)
      } catch let error as CloudError where CloudErrorAction.action(for: error.code) == .restartFromNoToken && !restarted {
        restarted = true
        forgetServer()
        continue
      }
      // Deletions first: a name deleted and saved again in one batch is on the server.
      for name in batch.deletedNames { state.forget(name) }
      var written: [String] = []
      for record in batch.records {
        if let path = try write(record, durable: false) { written.append(path) }
        state.onServer.insert(record.name)
        state.deleted.remove(record.name)
      }
      // The files first, durably; then the state that says they were fetched.
      let folders = Set(written.map { URL(fileURLWithPath: $0).deletingLastPathComponent().path }).sorted().map(URL.init(fileURLWithPath:))
      try FileSystem.flushToDisk(paths: written, folders: folders + (folders.isEmpty ? [] : [folder.url]), displayPath: folder.displayName)
      batches += 1
      phase?("cloudkit: batch \(batches) written")
      state.engineState = batch.state
      try state.save(stateURL)
      phase?("cloudkit: batch \(batches) saved")
      more = batch.moreComing
    }
    return restarted
  }

  /// Writes a record as the file it names, once; the same name with other bytes as a conflict
  /// copy beside it, flushed if `durable`. Returns the path written, or nil when nothing was: a
  /// record that names no file of a store, a file here already, or this device's own file that
  /// it has deleted (a change compaction's).
  ///
  /// A file of this device's own id that is not here is its deletion only if this device knew
  /// the record (sent it, or fetched it before); one it never knew is another copy's of this
  /// store (a restored backup, a cloned phone, writing under the same id) and is written, so the
  /// store notices the copy. Skipping those too, as the carrier once did, kept each copy's
  /// changes from the other for good (DifferentialCloudKitTests with copied stores).
  private func write(_ record: CloudRecord, durable: Bool) throws -> String? {
    guard let (device, file) = CloudRecordName.parse(record.name) else { return nil }
    let path = folder.filePath(device, file)
    if device == own && (state.onServer.contains(record.name) || state.deleted.contains(record.name)) && !FileSystem.exists(atPath: path)
      && !ChangeFileName.classify(file).isConflictCopy
    { return nil }
    try folder.makeDeviceFolder(device)
    if try FileSystem.createOnce(record.bytes, atPath: path, displayPath: folder.display(device, file), durable: durable) { return path }
    guard let here = try FileSystem.read(atPath: path, displayPath: folder.display(device, file)), here != record.bytes else { return nil }
    let copy = CloudRecordName.secondCopy(of: file, bytes: record.bytes)
    let copyPath = folder.filePath(device, copy)
    return try FileSystem.createOnce(record.bytes, atPath: copyPath, displayPath: folder.display(device, copy), durable: durable) ? copyPath : nil
  }

  static func chunks<Item>(_ items: [Item], of size: Int) -> [[Item]] {
    stride(from: 0, to: items.count, by: size).map { Array(items[$0..<min($0 + size, items.count)]) }
  }
}
