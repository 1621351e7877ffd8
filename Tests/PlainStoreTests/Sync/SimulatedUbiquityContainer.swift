import Foundation
import Synchronization

@testable import PlainStore

/// A sync folder that behaves as an iCloud Drive ubiquity container does on iOS, driven by the
/// test: another device's file arrives as a placeholder (`.NAME.icloud`) and becomes the file
/// only once the store asked for it and the test lets the download finish; any file, this
/// device's own included, can be evicted back to a placeholder; the "metadata query" tells the
/// store of changes only when the test delivers its notifications, late and in one batch; the
/// container can become unavailable. No timers: every step happens when the test says.
final class SimulatedUbiquityContainer: ChangeTransport {
  private struct State {
    /// What the cloud holds of every file that is a placeholder here, by path.
    var cloud: [String: Data] = [:]
    var requested: Set<String> = []
    var handlers: [Int: @Sendable () -> Void] = [:]
    var nextHandler = 0
    var pendingNotifications = 0
    var available = true
    var reason = SyncStatus.UnavailableReason.signedOut
    var account: Data?
    var touches = 0
    var touchLog: [String] = []
  }

  private let state = Mutex(State())
  private let folder = FolderTransport()

  var isAvailable: Bool { state.withLock { $0.available } }
  var unavailableReason: SyncStatus.UnavailableReason { state.withLock { $0.reason } }
  /// nil until the test signs in to an account (``switchAccount(to:)``): a carrier without accounts.
  var accountIdentity: Data? { state.withLock { $0.account } }
  var canDownload: Bool { true }

  func list(_ path: String) -> ChangeListing {
    touch()
    return folder.list(path)
  }
  func read(atPath path: String, displayPath: String) throws -> Data? {
    touch()
    return try folder.read(atPath: path, displayPath: displayPath)
  }
  func createOnce(_ data: Data, atPath path: String, displayPath: String) throws -> Bool {
    touch()
    return try folder.createOnce(data, atPath: path, displayPath: displayPath)
  }
  func isTaken(atPath path: String) -> Bool {
    touch()
    return folder.isTaken(atPath: path)
  }
  func isNotDownloaded(atPath path: String) -> Bool {
    touch()
    return folder.isNotDownloaded(atPath: path)
  }

  func remove(atPath path: String) {
    touch()
    delete(path)
  }

  func requestDownload(atPath path: String) {
    touch()
    state.withLock { _ = $0.requested.insert(path) }
  }

  /// How many times the store looked into the container (listed, read, wrote, asked): a test
  /// reads it before and after what must not touch it (while signed out, another account's).
  var touches: Int { state.withLock { $0.touches } }
  /// What the store asked of the container, oldest first: named in a test's failure.
  var touchLog: [String] { state.withLock { $0.touchLog } }
  private func touch(_ call: String = #function) {
    state.withLock {
      $0.touches += 1
      $0.touchLog.append(call)
    }
  }

  func watchArrivals(
    folders: @escaping @Sendable () -> [String], isArrival: @escaping @Sendable (String, String) -> Bool,
    onArrival: @escaping @Sendable () -> Void
  ) -> any ArrivalWatch {
    let id = state.withLock { state in
      defer { state.nextHandler += 1 }
      state.handlers[state.nextHandler] = onArrival
      return state.nextHandler
    }
    return Watch { [weak self] in self?.state.withLock { _ = $0.handlers.removeValue(forKey: id) } }
  }

  /// One registration of the metadata query.
  struct Watch: ArrivalWatch {
    let end: @Sendable () -> Void
    func stop() { end() }
  }

  // MARK: What the cloud does, when the test says

  /// What the cloud holds of a file that is a placeholder here.
  func cloudBytes(atPath path: String) -> Data? { state.withLock { $0.cloud[path] } }

  /// Files the store asked to download and has not got yet.
  var requested: Set<String> { state.withLock { $0.requested } }

  /// Another device's file reaches this device: as a placeholder, its bytes in the cloud.
  func arrive(_ data: Data, at path: String) throws {
    let url = URL(fileURLWithPath: path)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data("placeholder".utf8).write(to: URL(fileURLWithPath: FolderTransport.placeholderPath(of: path)))
    state.withLock {
      $0.cloud[path] = data
      $0.pendingNotifications += 1
    }
  }

  /// iOS frees space: the file becomes a placeholder again (never lost: the cloud keeps it).
  func evict(_ path: String) throws {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    try FileManager.default.removeItem(atPath: path)
    try Data("placeholder".utf8).write(to: URL(fileURLWithPath: FolderTransport.placeholderPath(of: path)))
    state.withLock { $0.cloud[path] = data }
  }

  /// The file's owner deleted it (its change compaction): it goes here too, file or placeholder.
  func delete(_ path: String) {
    try? FileManager.default.removeItem(atPath: path)
    try? FileManager.default.removeItem(atPath: FolderTransport.placeholderPath(of: path))
    state.withLock {
      $0.cloud[path] = nil
      $0.requested.remove(path)
    }
  }

  /// Finishes every download asked for: the file replaces its placeholder. Returns how many.
  @discardableResult
  func finishDownloads() throws -> Int {
    let due = state.withLock { state in
      let due = state.requested.compactMap { path in state.cloud[path].map { (path, $0) } }
      for (path, _) in due {
        state.cloud[path] = nil
        state.requested.remove(path)
      }
      state.pendingNotifications += due.count
      return due
    }
    for (path, data) in due.sorted(by: { $0.0 < $1.0 }) {
      try data.write(to: URL(fileURLWithPath: path))
      try FileManager.default.removeItem(atPath: FolderTransport.placeholderPath(of: path))
    }
    return due.count
  }

  /// The metadata query reports what changed since it last did, as one batch: each watching
  /// store hears of it once, on this thread. Returns whether there was anything to report.
  @discardableResult
  func deliverNotifications() -> Bool {
    let handlers = state.withLock { state -> [@Sendable () -> Void] in
      guard state.pendingNotifications > 0 else { return [] }
      state.pendingNotifications = 0
      return state.handlers.sorted { $0.key < $1.key }.map(\.value)
    }
    for handler in handlers { handler() }
    return !handlers.isEmpty
  }

  /// Signs out (false, for `reason`) or back in (true). The store hears of it as iOS tells an
  /// app (`NSUbiquityIdentityDidChange`, the metadata query), at the next delivery.
  func setAvailable(_ available: Bool, reason: SyncStatus.UnavailableReason = .signedOut) {
    state.withLock {
      $0.available = available
      $0.reason = reason
      $0.pendingNotifications += 1
    }
  }

  /// Signs in to another account (the same container path, as iOS gives it): the identity
  /// changes; the store hears of it at the next delivery.
  func switchAccount(to identity: Data?) {
    state.withLock {
      $0.account = identity
      $0.pendingNotifications += 1
    }
  }
}
