import Foundation

/// A copy of a SQLite store and its `-wal` / `-shm` companions in a private temporary folder.
///
/// Why a copy: a read-only open of a store whose folder the process cannot write fails once a
/// `-wal` exists without a `-shm`, and even a read-only connection may write the `-shm`. Copying
/// the three files together into a folder of our own (mode 0700, files 0600) means the original
/// is never opened, never locked and never changed, whoever owns its folder.
struct PrivateStoreCopy {
  /// The copied main file.
  let databaseURL: URL
  /// The folder holding the copy; ``remove()`` deletes it.
  let folder: URL
  /// Whether the original had a `-wal` / a `-shm` beside it.
  let hadWAL: Bool
  let hadSHM: Bool

  /// The app (or its widget) wrote to the store during every attempt to copy it.
  struct ChangedWhileCopying: Error, CustomStringConvertible {
    var attempts: Int
    var description: String { "the store changed while it was being copied, \(attempts) times" }
  }

  /// Copies `original` (and its companions, when present) into a new folder under `parent`,
  /// again if the main file or the `-wal` changed meanwhile (a copy taken across a checkpoint
  /// would mix two states), up to `attempts` times.
  ///
  /// - Throws: ``ChangedWhileCopying``, or any file-system error, after removing what it created.
  init(of original: URL, under parent: URL, attempts: Int = 3) throws {
    var attempt = 1
    while true {
      let before = try Self.fingerprint(of: original)
      let copy = try PrivateStoreCopy(copying: original, under: parent)
      if try Self.fingerprint(of: original) == before {
        self = copy
        return
      }
      try copy.remove()
      guard attempt < attempts else { throw ChangedWhileCopying(attempts: attempts) }
      attempt += 1
    }
  }

  /// Size and modification time of the main file and the `-wal` (the `-shm` changes whenever
  /// anyone reads): equal before and after a copy means no writer came in between.
  private static func fingerprint(of original: URL) throws -> [String] {
    try [original, companion(of: original, "-wal")].map { url in
      guard FileManager.default.fileExists(atPath: url.path) else { return "none" }
      let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
      let size = (attributes[.size] as? NSNumber)?.int64Value ?? -1
      let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSinceReferenceDate ?? 0
      return "\(size) \(modified.bitPattern)"
    }
  }

  private init(copying original: URL, under parent: URL) throws {
    let fileManager = FileManager.default
    folder = parent.appendingPathComponent("babydash-swiftdata-\(UUID().uuidString)", isDirectory: true)
    try fileManager.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    do {
      let name = original.lastPathComponent
      databaseURL = folder.appendingPathComponent(name)
      try Self.copy(original, to: databaseURL)
      hadWAL = try Self.copyIfPresent(Self.companion(of: original, "-wal"), to: Self.companion(of: databaseURL, "-wal"))
      hadSHM = try Self.copyIfPresent(Self.companion(of: original, "-shm"), to: Self.companion(of: databaseURL, "-shm"))
    } catch {
      try? fileManager.removeItem(at: folder)  // the copy's own error is the one worth reporting
      throw error
    }
  }

  /// `BabyDashboard.sqlite-wal` for `BabyDashboard.sqlite` and `-wal`.
  static func companion(of url: URL, _ suffix: String) -> URL {
    url.deletingLastPathComponent().appendingPathComponent(url.lastPathComponent + suffix)
  }

  /// Deletes the copy. Called on every path out of the reader.
  func remove() throws {
    try FileManager.default.removeItem(at: folder)
  }

  private static func copyIfPresent(_ source: URL, to destination: URL) throws -> Bool {
    guard FileManager.default.fileExists(atPath: source.path) else { return false }
    try copy(source, to: destination)
    return true
  }

  private static func copy(_ source: URL, to destination: URL) throws {
    let data = try Data(contentsOf: source)
    guard FileManager.default.createFile(atPath: destination.path, contents: data, attributes: [.posixPermissions: 0o600]) else {
      throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: destination.path])
    }
  }
}
