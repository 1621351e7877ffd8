import Foundation

/// A fresh folder under the system temp folder for one test, removed by `remove()`.
struct TemporaryDirectory: Sendable {
  let url: URL

  init(_ label: String = "BabyDashboardTests") throws {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("\(label)-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  func remove() {
    try? FileManager.default.removeItem(at: url)
  }
}
