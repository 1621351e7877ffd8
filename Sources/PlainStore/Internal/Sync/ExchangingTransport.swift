import Foundation

/// A carrier that exchanges a local `changes/` folder with somewhere else at each sync (CloudKit,
/// a ``MemorySyncSpace``): between syncs the folder is read and written as the plain folder
/// carrier does, so each such carrier only says how it exchanges.
protocol ExchangingTransport: ChangeTransport {}

extension ExchangingTransport {
  private var local: FolderTransport { FolderTransport() }

  func list(_ folder: String) -> ChangeListing { local.list(folder) }
  func read(atPath path: String, displayPath: String) throws -> Data? { try local.read(atPath: path, displayPath: displayPath) }
  func createOnce(_ data: Data, atPath path: String, displayPath: String) throws -> Bool {
    try local.createOnce(data, atPath: path, displayPath: displayPath)
  }
  func coordinateCreating<T>(atPath path: String, _ body: (String) throws -> T) throws -> T { try body(path) }
  func isTaken(atPath path: String) -> Bool { local.isTaken(atPath: path) }
  func isNotDownloaded(atPath path: String) -> Bool { false }
  func remove(atPath path: String) { local.remove(atPath: path) }
  func requestDownload(atPath path: String) {}
  func awaitDownloads(atPaths paths: [String], timeout: Duration) -> [String] { [] }
  func watchArrivals(
    folders: @escaping @Sendable () -> [String], isArrival: @escaping @Sendable (String, String) -> Bool,
    onArrival: @escaping @Sendable () -> Void
  ) -> any ArrivalWatch {
    local.watchArrivals(folders: folders, isArrival: isArrival, onArrival: onArrival)
  }
}
