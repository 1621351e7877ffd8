import Foundation

/// The iCloud Drive carrier: change files in an app's ubiquity container, as iOS keeps them.
///
/// The rules live here, on every platform; the system calls are a ``UbiquityService``'s (the
/// Apple binding on a device, a simulated container in tests):
/// - An item whose bytes are not here — a `.NAME.icloud` placeholder, or a dataless NAME — is
///   not downloaded: never damage, never lost, never written again beside itself. Reading it
///   gives nothing (a coordinated read would block while iCloud fetches it).
/// - Every file this device lacks is asked for (`requestDownload`), and arrives later as any
///   arrival does; ``awaitDownloads(atPaths:timeout:)`` waits, bounded, for those a rebuild or a
///   compaction cannot do without.
/// - Files are created once, inside a coordinated write, and only when the name is free — by
///   the file or by its placeholder; reads and deletions are coordinated too.
/// - Arrivals are heard through the service's metadata query, whatever folder they land in.
struct UbiquityTransport: ChangeTransport {
  let service: any UbiquityService

  /// Signed in to iCloud with iCloud Drive on.
  var isAvailable: Bool { accountIdentity != nil }
  var unavailableReason: SyncStatus.UnavailableReason {
    if case .unavailable(let reason) = service.identity() { return reason }
    return .unknown  // asked only while unavailable: signed in again since
  }
  /// The signed-in account's identity token: the store records it, and carries nothing while
  /// another account is signed in.
  var accountIdentity: Data? {
    if case .signedIn(let token) = service.identity() { return token }
    return nil
  }
  var canDownload: Bool { true }

  func list(_ folder: String) -> ChangeListing {
    var present: Set<String> = []
    var notDownloaded: Set<String> = []
    for item in service.items(in: URL(fileURLWithPath: folder)) {
      if let original = ChangeFileName.placeholderOriginal(item.name) {
        notDownloaded.insert(original)
      } else if item.status == .notDownloaded {
        notDownloaded.insert(item.name)
      } else {
        present.insert(item.name)
      }
    }
    // A download in progress leaves the file and its placeholder both for a moment: the file counts.
    return ChangeListing(arrived: present.sorted(), notDownloaded: notDownloaded.subtracting(present).sorted())
  }

  func read(atPath path: String, displayPath: String) throws -> Data? {
    let url = URL(fileURLWithPath: path)
    guard service.status(of: url) == .downloaded else { return nil }
    return try service.coordinateReading(url) { try FileSystem.read(atPath: $0.path, displayPath: displayPath) }
  }

  func createOnce(_ data: Data, atPath path: String, displayPath: String) throws -> Bool {
    guard !isTaken(atPath: path) else { return false }
    return try coordinateCreating(atPath: path) { try FileSystem.createOnce(data, atPath: $0, displayPath: displayPath) }
  }

  func coordinateCreating<T>(atPath path: String, _ body: (String) throws -> T) throws -> T {
    try service.coordinateWriting(URL(fileURLWithPath: path), deleting: false) { try body($0.path) }
  }

  func isTaken(atPath path: String) -> Bool {
    service.status(of: URL(fileURLWithPath: path)) != .absent || hasPlaceholder(path)
  }

  func isNotDownloaded(atPath path: String) -> Bool {
    switch service.status(of: URL(fileURLWithPath: path)) {
    case .downloaded: false
    case .notDownloaded: true
    case .absent: hasPlaceholder(path)
    }
  }

  func remove(atPath path: String) {
    // Only a change compaction's cleanup: a deletion that fails is tried again by the next one.
    _ = try? service.coordinateWriting(URL(fileURLWithPath: path), deleting: true) { url in
      FileSystem.remove(url)
      FileSystem.remove(URL(fileURLWithPath: FolderTransport.placeholderPath(of: url.path)))
    }
  }

  func requestDownload(atPath path: String) {
    // A request iCloud refuses (signed out, no network) is made again at the next scan, which
    // lists the file as not downloaded until then.
    try? service.startDownloading(URL(fileURLWithPath: path))
  }

  func awaitDownloads(atPaths paths: [String], timeout: Duration) -> [String] {
    var waiting = paths.filter(isNotDownloaded)
    guard !waiting.isEmpty, timeout > .zero else { return waiting }
    for path in waiting { requestDownload(atPath: path) }
    let changed = DispatchSemaphore(value: 0)
    let watch = service.watch(URL(fileURLWithPath: waiting[0]).deletingLastPathComponent()) { changed.signal() }
    defer { watch.stop() }
    let deadline = ContinuousClock.now + timeout
    while !waiting.isEmpty, ContinuousClock.now < deadline {
      // Woken by the metadata query; looked at again every 50 ms too, as a notification may
      // come before the watch was in place, or be held up behind a store's own arrival handler.
      _ = changed.wait(timeout: .now() + .milliseconds(50))
      waiting = waiting.filter(isNotDownloaded)
    }
    return waiting
  }

  func watchArrivals(
    folders: @escaping @Sendable () -> [String], isArrival: @escaping @Sendable (String, String) -> Bool,
    onArrival: @escaping @Sendable () -> Void
  ) -> any ArrivalWatch {
    // The metadata query covers the whole container: any change may be an arrival, and the
    // merge it starts finds out (a file of this device's own merges as nothing).
    service.watch(URL(fileURLWithPath: folders().first ?? "/"), onChange: onArrival)
  }

  private func hasPlaceholder(_ path: String) -> Bool {
    service.status(of: URL(fileURLWithPath: FolderTransport.placeholderPath(of: path))) != .absent
  }
}

extension UbiquityWatch: ArrivalWatch {}
