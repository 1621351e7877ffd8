import Foundation

/// The package's `Previews/` folder, found from this file's path.
let packagePreviews = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  .appendingPathComponent("Previews", isDirectory: true)

/// A fresh folder under the system temp folder for one test.
struct TemporaryFolder {
  let url: URL

  init(_ label: String = "BabyDashboardPreviewsTests") throws {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("\(label)-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  func remove() {
    try? FileManager.default.removeItem(at: url)
  }
}
