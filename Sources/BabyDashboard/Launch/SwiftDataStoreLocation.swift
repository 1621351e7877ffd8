import Foundation

/// Where the app's SwiftData store is in the app group, and what of it is there: the main file
/// `BabyDashboard.sqlite` and its `-wal` and `-shm`.
public struct SwiftDataStoreLocation: Sendable, Hashable {
  /// The main file's name in the app group.
  public static let fileName = "BabyDashboard.sqlite"

  /// The main file.
  public var fileURL: URL
  /// Whether the main file is there.
  public var exists: Bool
  /// The companions found beside it, of `-wal` and `-shm`.
  public var companions: [String]

  /// Looks for the store in `groupDirectory` (a few `stat` calls; nothing is opened).
  public init(inAppGroup groupDirectory: URL) {
    let path = groupDirectory.appendingPathComponent(Self.fileName, isDirectory: false).path
    fileURL = URL(fileURLWithPath: path, isDirectory: false)
    exists = FileManager.default.fileExists(atPath: path)
    companions = exists ? ["-wal", "-shm"].filter { FileManager.default.fileExists(atPath: path + $0) } : []
  }

  /// "BabyDashboard.sqlite with its -wal and -shm", or "none in the app group".
  public var text: String {
    guard exists else { return "none in the app group" }
    return Self.fileName + (companions.isEmpty ? " (no -wal or -shm)" : " with its " + companions.joined(separator: " and "))
  }
}
