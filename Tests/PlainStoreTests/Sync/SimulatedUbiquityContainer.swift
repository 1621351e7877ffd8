import Foundation
import Synchronization

@testable import PlainStore

/// A ubiquity container that behaves as iCloud Drive does on iOS, driven by the test, behind the
/// same ``UbiquityService`` seam as the Apple binding: the store talks to it through the real
/// ``UbiquityTransport`` (``transport``). Another device's file arrives as a placeholder
/// (`.NAME.icloud`) and becomes the file only once the store asked for it and the download
/// finishes; any file, this device's own included, can be evicted — back to a placeholder, or
/// (`evictInPlace`) to a dataless file that keeps its name, as File Provider does; the "metadata
/// query" tells of changes only when the test delivers its notifications, late and in one batch;
/// the account can sign out (for a reason the status names), and sign in to another account
/// (the same container path, another identity token, as iOS gives it); every call into the
/// container is counted (``touches``), so a test can tell that a store on another account
/// never looked in. No timers: every step happens when the test says — but with
/// `downloadsFinishOnTheirOwn`, a download asked for finishes a moment later on another thread,
/// its notification delivered there, as on a phone with a network.
final class SimulatedUbiquityContainer: UbiquityService {
  private struct State {
    /// What the cloud holds of every file that is not downloaded here, by path.
    var cloud: [String: Data] = [:]
    /// Of those, the ones whose name stays as an empty dataless file (no placeholder).
    var dataless: Set<String> = []
    var requested: Set<String> = []
    var handlers: [Int: @Sendable () -> Void] = [:]
    var nextHandler = 0
    var pendingNotifications = 0
    var available = true
    var reason = SyncStatus.UnavailableReason.signedOut
    var account = SimulatedUbiquityContainer.defaultAccount
    /// Paths read or written inside a coordinated access, in order.
    var coordinated: [String] = []
    var touches = 0
    var touchLog: [String] = []
  }

  /// The account signed in until the test switches it.
  static let defaultAccount = Data("account-1".utf8)

  private let state = StoreMutex(State())
  /// Downloads finish on their own, on another thread, soon after they are asked for.
  let downloadsFinishOnTheirOwn: Bool

  init(downloadsFinishOnTheirOwn: Bool = false) {
    self.downloadsFinishOnTheirOwn = downloadsFinishOnTheirOwn
  }

  /// The carrier a store is given: the engine's own transport over this container.
  var transport: UbiquityTransport { UbiquityTransport(service: self) }

  // MARK: UbiquityService

  func containerURL() -> URL? { nil }

  func identity() -> UbiquityIdentity { state.withLock { $0.available ? .signedIn($0.account) : .unavailable($0.reason) } }

  func items(in folder: URL) -> [UbiquityItem] {
    touch()
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.sorted().map { UbiquityItem(name: $0, status: status(of: folder.appendingPathComponent($0))) }
  }

  func status(of url: URL) -> UbiquityItem.Status {
    touch()
    let path = url.path
    guard FileSystem.exists(atPath: path) || FileSystem.isFolder(atPath: path) else { return .absent }
    return state.withLock { $0.dataless.contains(path) } ? .notDownloaded : .downloaded
  }

  func startDownloading(_ url: URL) throws {
    touch()
    state.withLock { _ = $0.requested.insert(url.path) }
    guard downloadsFinishOnTheirOwn else { return }
    Thread.detachNewThread { [self] in
      _ = try? finishDownloads()
      deliverNotifications(separately: true)
    }
  }

  func coordinateReading<T>(_ url: URL, _ body: (URL) throws -> T) throws -> T {
    touch()
    state.withLock { $0.coordinated.append(url.path) }
    return try body(url)
  }

  func coordinateWriting<T>(_ url: URL, deleting: Bool, _ body: (URL) throws -> T) throws -> T {
    touch()
    state.withLock { $0.coordinated.append(url.path) }
    defer {
      // The owner's deletion (its change compaction) reaches the cloud too.
      if deleting {
        state.withLock {
          $0.cloud[url.path] = nil
          $0.dataless.remove(url.path)
          $0.requested.remove(url.path)
        }
      }
    }
    return try body(url)
  }

  func watch(_ container: URL, onChange: @escaping @Sendable () -> Void) -> UbiquityWatch {
    let id = state.withLock { state in
      defer { state.nextHandler += 1 }
      state.handlers[state.nextHandler] = onChange
      return state.nextHandler
    }
    return UbiquityWatch { [weak self] in self?.state.withLock { _ = $0.handlers.removeValue(forKey: id) } }
  }

  // MARK: What the cloud does, when the test says

  /// What the cloud holds of a file that is not downloaded here.
  func cloudBytes(atPath path: String) -> Data? { state.withLock { $0.cloud[path] } }

  /// Files the store asked to download and has not got yet.
  var requested: Set<String> { state.withLock { $0.requested } }

  /// Paths accessed through the coordinator, in order.
  var coordinated: [String] { state.withLock { $0.coordinated } }

  /// How many times the store looked into the container (listed, looked at an item, read,
  /// wrote, asked for a download): a test reads it before and after what must not touch it
  /// (while signed out, another account's). Asking who is signed in is no touch.
  var touches: Int { state.withLock { $0.touches } }
  /// What the store asked of the container, oldest first: named in a test's failure.
  var touchLog: [String] { state.withLock { $0.touchLog } }
  private func touch(_ call: String = #function) {
    state.withLock {
      $0.touches += 1
      $0.touchLog.append(call)
    }
  }

  /// Whether someone is signed in, with iCloud Drive on.
  var isAvailable: Bool { state.withLock { $0.available } }
  /// The account signed in (or last signed in, while signed out).
  var accountIdentity: Data { state.withLock { $0.account } }

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

  /// iOS frees space as File Provider does: the file keeps its name, without its bytes.
  func evictInPlace(_ path: String) throws {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    try Data().write(to: URL(fileURLWithPath: path))
    state.withLock {
      $0.cloud[path] = data
      $0.dataless.insert(path)
    }
  }

  /// The file's owner deleted it (its change compaction): it goes here too, file or placeholder.
  func delete(_ path: String) {
    try? FileManager.default.removeItem(atPath: path)
    try? FileManager.default.removeItem(atPath: FolderTransport.placeholderPath(of: path))
    state.withLock {
      $0.cloud[path] = nil
      $0.dataless.remove(path)
      $0.requested.remove(path)
    }
  }

  /// Finishes every download asked for: the file replaces its placeholder. Returns how many.
  @discardableResult
  func finishDownloads() throws -> Int {
    let due = state.withLock { state in
      let due = state.requested.compactMap { path in state.cloud[path].map { (path, $0, state.dataless.contains(path)) } }
      for (path, _, _) in due {
        state.cloud[path] = nil
        state.requested.remove(path)
      }
      state.pendingNotifications += due.count
      return due
    }
    for (path, data, inPlace) in due.sorted(by: { $0.0 < $1.0 }) {
      try data.write(to: URL(fileURLWithPath: path))
      if inPlace {
        state.withLock { _ = $0.dataless.remove(path) }
      } else {
        try FileManager.default.removeItem(atPath: FolderTransport.placeholderPath(of: path))
      }
    }
    return due.count
  }

  /// The metadata query reports what changed since it last did, as one batch: each watcher hears
  /// of it once — on this thread, or (`separately`) each on a thread of its own, as each
  /// NSMetadataQuery has its own queue. Returns whether there was anything to report.
  @discardableResult
  func deliverNotifications(separately: Bool = false) -> Bool {
    let handlers = state.withLock { state -> [@Sendable () -> Void] in
      guard state.pendingNotifications > 0 else { return [] }
      state.pendingNotifications = 0
      return state.handlers.sorted { $0.key < $1.key }.map(\.value)
    }
    for handler in handlers {
      if separately { Thread.detachNewThread(handler) } else { handler() }
    }
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
  /// token changes; the store hears of it at the next delivery.
  func switchAccount(to identity: Data) {
    state.withLock {
      $0.account = identity
      $0.pendingNotifications += 1
    }
  }
}
