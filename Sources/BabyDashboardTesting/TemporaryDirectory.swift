import Foundation

/// A fresh folder under the system temp folder for one test, removed by ``remove()``.
public struct TemporaryDirectory: Sendable {
  public let url: URL

  /// - Parameter label: the start of the folder's name, to tell whose it is.
  public init(_ label: String = "BabyDashboardTests") throws {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("\(label)-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  public func remove() {
    try? FileManager.default.removeItem(at: url)
  }
}
