import Foundation

/// The package's `Previews/` folder, found from this file's path.
let packagePreviews = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  .appendingPathComponent("Previews", isDirectory: true)
