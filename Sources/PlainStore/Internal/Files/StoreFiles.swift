import Foundation

/// The store's folder and the formats of its files (format 2):
/// ```
/// Notes.store/
///   store.json               format version, schema version, entities
///   changes/<device>/        THE TRUTH: create-once change files, the only part that syncs
///     device.json            who the device is
///     <sequence>.json        one committed transaction of that device
///   outbox/<device>/         truth too: this device's files made while the carrier was not
///                            there, waiting to move into changes/ (see ``Outbox``)
///   sync-account             the carrier's account this store syncs with (see ``SyncAccount``)
///   device-id                this copy's device id: an identity, not a cache, so a rebuild keeps it
///   local/                   a cache of this device, rebuilt from changes/ whenever it is lost
///     device-id              the same id, for programs that read it here (before 2026-12)
///     journal                the newest change files' bytes, flushed: what a power loss may take from changes/
///     lock                   flock'ed by writers; never renamed
///     manifest.json          which segment files hold the state as of local transaction <sequence>
///     segments/<entity>.<segment>.<sequence>.json   one entity, one month of its segment key
///     log/<sequence>.log     local transactions (commits of this device, merges) from <sequence> on
/// ```
/// Format 1 kept manifest.json, segments/, log/ and lock at the top; `format1` reads that
/// layout, to migrate it.
struct StoreFiles: Sendable {
  static let formatVersion = 2

  enum Layout: Sendable { case format1, format2 }

  /// Every name a version of the store writes at the top of its folder (format 2's, and format
  /// 1's cache files there): anything else there was left by hand or by another program.
  static let topLevelNames: Set<String> = [
    "store.json", "device-id", "changes", "outbox", "sync-account", "local", "manifest.json", "segments", "log", "lock",
  ]

  let root: URL
  /// How messages name files: the store folder's name and the path inside it.
  let rootName: String
  /// Where the manifest, segments, log and lock are.
  let cacheURL: URL
  /// The cache's folder as messages name it inside the store ("local/", or "" in format 1).
  let cachePrefix: String
  let changes: ChangeFolder
  let layout: Layout
  // Built once: a URL costs a parse on Linux, and a commit reads these every time.
  let headerURL: URL
  let manifestURL: URL
  /// `manifestURL`'s path: a catch-up asks for the manifest's identity at each look, and a
  /// waiting writer looks about once per commit (`FileLock.waitingSlice`).
  let manifestFilePath: String
  /// Each segment file's id filter (``SegmentIDFilter``), by file name: read only by a merge
  /// that must find an object by its id, never by an open.
  let segmentIDsURL: URL
  let stampsURL: URL
  let segmentsURL: URL
  let logURL: URL
  /// The local transactions (format 2): see ``LocalLog``.
  let log: LocalLog
  let lockURL: URL
  /// Where a writer that has waited long claims the lock: see ``LockClaim``.
  var lockClaimURL: URL { lockURL.appendingPathExtension("claim") }
  /// This copy's device id, beside `changes/` (`local/device-id` before: see `legacyDeviceIDURL`).
  let deviceIDURL: URL
  /// Where programs before this one kept the device id, in the cache: written too, read when
  /// the store's own is not there yet.
  let legacyDeviceIDURL: URL
  /// This device's newest commits, each flushed once: see ``CommitJournal``.
  let journal: CommitJournal
  /// Left by a process that found a cache file damaged: the next open rebuilds the cache.
  let rebuildMarkerURL: URL

  init(
    root: URL, syncFolder: URL? = nil, transport: any ChangeTransport = FolderTransport(), layout: Layout = .format2,
    reads: Int = ChangeFormat.oldest
  ) {
    self.root = root.standardizedFileURL
    self.layout = layout
    self.rootName = self.root.lastPathComponent
    switch layout {
    case .format1:
      cacheURL = self.root
      cachePrefix = ""
    case .format2:
      cacheURL = self.root.appendingPathComponent("local")
      cachePrefix = "local/"
    }
    let outbox = Outbox(url: self.root.appendingPathComponent("outbox"), displayName: rootName + "/outbox")
    let account = SyncAccount(url: self.root.appendingPathComponent("sync-account"), displayPath: rootName + "/sync-account")
    if let syncFolder {
      let folder = syncFolder.standardizedFileURL
      changes = ChangeFolder(
        url: folder, displayName: folder.lastPathComponent, transport: transport, outbox: outbox, account: account, reads: reads)
    } else {
      changes = ChangeFolder(
        url: self.root.appendingPathComponent("changes"), displayName: rootName + "/changes", transport: transport, outbox: outbox,
        account: account, reads: reads)
    }
    headerURL = self.root.appendingPathComponent("store.json")
    manifestURL = cacheURL.appendingPathComponent("manifest.json")
    manifestFilePath = manifestURL.path
    segmentsURL = cacheURL.appendingPathComponent("segments")
    logURL = cacheURL.appendingPathComponent("log")
    log = LocalLog(folder: logURL, displayName: Self.display(rootName, cachePrefix + "log"))
    lockURL = cacheURL.appendingPathComponent("lock")
    deviceIDURL = self.root.appendingPathComponent("device-id")
    legacyDeviceIDURL = cacheURL.appendingPathComponent("device-id")
    journal = CommitJournal(url: cacheURL.appendingPathComponent("journal"), displayPath: Self.display(rootName, cachePrefix + "journal"))
    rebuildMarkerURL = cacheURL.appendingPathComponent("rebuild")
    segmentIDsURL = cacheURL.appendingPathComponent("segment-ids")
    stampsURL = cacheURL.appendingPathComponent("stamps")
  }

  /// This copy's device id as its file records it (`device-id`, else the one programs before
  /// this one kept in `local/`), read without the store's locks (for the watcher of arrivals,
  /// which must never hold the store); nil when there is none yet or it is damaged.
  var recordedDevice: DeviceID? {
    for url in [deviceIDURL, legacyDeviceIDURL] {
      guard let data = try? FileSystem.read(url, displayPath: url.path) else { continue }
      return DeviceID(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
    return nil
  }

  var manifestPath: String { cachePrefix + "manifest.json" }

  /// The manifest's identity now: a catch-up reads it again when it changed.
  var manifestIdentity: FileIdentity? { FileSystem.identity(atPath: manifestFilePath) }
  func segmentPath(_ file: String) -> String { cachePrefix + "segments/" + file }

  func display(_ relative: String) -> String { Self.display(rootName, relative) }
  private static func display(_ rootName: String, _ relative: String) -> String { rootName + "/" + relative }

  /// Format 1 kept one file per local transaction: `log/<sequence>.json`.
  func format1LogPath(_ sequence: Int) -> String { cachePrefix + "log/" + Self.format1LogName(sequence) }
  func format1LogURL(_ sequence: Int) -> URL { logURL.appendingPathComponent(Self.format1LogName(sequence)) }
  private static func format1LogName(_ sequence: Int) -> String { Digits.decimal(sequence, width: 8) + ".json" }

  // MARK: Reading, with the errors that name the file

  /// Decodes one file; nil when it does not exist. A damaged file or a newer format is an error,
  /// and so is a file whose size or checksum is not the one `expected` (its manifest entry) says.
  func decode<T: VersionedStoreFile>(
    _ type: T.Type, at url: URL, relative: String, decoder: StoreJSONDecoder, expected: SegmentEntry? = nil
  ) throws -> T? {
    let path = display(relative)
    guard let data = try FileSystem.read(url, displayPath: path) else { return nil }
    if let size = expected?.size, data.count != size {
      throw StoreError(.damaged, path: path, "holds \(data.count) bytes where manifest.json says \(size) — \(Self.untouched)")
    }
    if let checksum = expected?.checksum, Self.checksum(data) != checksum {
      throw StoreError(.damaged, path: path, "its bytes do not match the checksum manifest.json holds — \(Self.untouched)")
    }
    return try decode(type, from: data, path: path, decoder: decoder)
  }

  /// Decodes the bytes of a store file (or of a record in one) that messages name `path`.
  func decode<T: VersionedStoreFile>(_ type: T.Type, from data: Data, path: String, decoder: StoreJSONDecoder) throws -> T {
    // One parse in the common case; the format version is probed only to explain a failure.
    let decoded: T
    do {
      decoded = try decoder.decode(T.self, from: data)
    } catch {
      if let probe = try? decoder.decode(FormatProbe.self, from: data), probe.formatVersion > Self.formatVersion {
        throw newerFormat(probe.formatVersion, path: path)
      }
      if let error = error as? StoreError { throw StoreError(error.code, path: path, error.detail) }
      throw StoreError(.damaged, path: path, "\(StoreCoding.reason(error)) — \(Self.untouched)")
    }
    guard decoded.formatVersion <= Self.formatVersion else { throw newerFormat(decoded.formatVersion, path: path) }
    guard decoded.formatVersion >= 1 else {
      throw StoreError(.damaged, path: path, "says format \(decoded.formatVersion), which no PlainStore writes — \(Self.untouched)")
    }
    return decoded
  }

  private func newerFormat(_ version: Int, path: String) -> StoreError {
    StoreError(
      .newerFormat(version), path: path,
      "written by a newer PlainStore (format \(version); this one reads up to \(Self.formatVersion)) — open it with a newer version of the program; the store was left untouched.")
  }

  /// A cache file's checksum as manifest.json holds it.
  static func checksum(_ data: Data) -> String { HybridLogicalClock.text(ChangeFileCodec.checksum(data)) }

  static let untouched = "the store was left untouched; restore the file from a backup or move the store aside."

  func write<T: Encodable>(_ value: T, to url: URL, relative: String, encoder: StoreJSONEncoder, durable: Bool = true) throws {
    let data = try encoder.encode(value)
    try FileSystem.writeAtomically(data, to: url, displayPath: display(relative), durable: durable)
  }
}
