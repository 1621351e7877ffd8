import Foundation

/// The plain folder carrier: files a sync engine (Syncthing, Dropbox, a Mac's iCloud Drive
/// folder given as the sync folder) mirrors between devices, read and written with the store's
/// own file operations, watched with inotify or dispatch sources.
///
/// It reads iCloud's placeholders as iOS and a Mac with "Optimize Mac Storage" leave them
/// (`.NAME.icloud` for NAME, see ``ChangeFileName/placeholderOriginal(_:)``): NAME is not
/// downloaded. It cannot ask for a download; the program that made the placeholder does.
struct FolderTransport: ChangeTransport {
  var isAvailable: Bool { true }
  var canDownload: Bool { false }

  func list(_ folder: String) -> ChangeListing {
    let listed = MemoryMedium.holding(folder)?.list(atPath: folder) ?? (try? FileManager.default.contentsOfDirectory(atPath: folder))
    let names = (listed ?? []).sorted()
    let originals = names.compactMap(ChangeFileName.placeholderOriginal)
    guard !originals.isEmpty else { return ChangeListing(arrived: names) }
    // A download in progress leaves the file and its placeholder both for a moment: the file counts.
    let present = Set(names)
    let notDownloaded = Set(originals.filter { !present.contains($0) })
    return ChangeListing(
      arrived: names.filter { ChangeFileName.placeholderOriginal($0).map { !notDownloaded.contains($0) } ?? true },
      notDownloaded: notDownloaded.sorted())
  }

  func read(atPath path: String, displayPath: String) throws -> Data? {
    try FileSystem.read(atPath: path, displayPath: displayPath)
  }

  func createOnce(_ data: Data, atPath path: String, displayPath: String) throws -> Bool {
    guard !isNotDownloaded(atPath: path) else { return false }
    return try FileSystem.createOnce(data, atPath: path, displayPath: displayPath)
  }

  func coordinateCreating<T>(atPath path: String, _ body: (String) throws -> T) throws -> T { try body(path) }

  func isTaken(atPath path: String) -> Bool {
    FileSystem.exists(atPath: path) || isNotDownloaded(atPath: path)
  }

  func isNotDownloaded(atPath path: String) -> Bool {
    FileSystem.exists(atPath: Self.placeholderPath(of: path)) && !FileSystem.exists(atPath: path)
  }

  func remove(atPath path: String) {
    FileSystem.remove(URL(fileURLWithPath: path))
    FileSystem.remove(URL(fileURLWithPath: Self.placeholderPath(of: path)))
  }

  func requestDownload(atPath path: String) {}

  func awaitDownloads(atPaths paths: [String], timeout: Duration) -> [String] { paths.filter(isNotDownloaded) }

  func watchArrivals(
    folders: @escaping @Sendable () -> [String], isArrival: @escaping @Sendable (String, String) -> Bool,
    onArrival: @escaping @Sendable () -> Void
  ) -> any ArrivalWatch {
    let watcher = FolderWatcher(folders: folders, ignoring: { !isArrival($0, $1) }, onChange: onArrival)
    watcher.start()
    return watcher
  }

  /// `.NAME.icloud` beside NAME.
  static func placeholderPath(of path: String) -> String {
    // The slash found among the bytes, not the Characters: a commit asks for its change file's.
    guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return ChangeFileName.placeholderName(of: path) }
    return String(path[...slash]) + ChangeFileName.placeholderName(of: String(path[path.index(after: slash)...]))
  }
}
