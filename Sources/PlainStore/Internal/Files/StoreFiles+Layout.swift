import Foundation

extension StoreFiles {
  /// Whether a folder without store.json may become a store: it is empty, or holds only what a
  /// creation killed before writing store.json leaves (the cache folder with nothing committed
  /// in it, empty segments and log folders of format 1, temporary files), or a `changes/`
  /// folder that a sync engine brought from another device. A cache that holds commits is a
  /// store that lost its store.json: refused, not created again over it.
  var isNewOrInterruptedCreation: Bool {
    FileSystem.list(root).allSatisfy { name in
      switch name {
      case "lock", "changes", "sync-account": true  // the account is recorded as the layout is made
      case "local": !FileSystem.exists(manifestURL) && FileSystem.list(logURL).isEmpty && FileSystem.list(segmentsURL).isEmpty
      case "segments", "log": FileSystem.list(root.appendingPathComponent(name)).isEmpty
      default: false
      }
    }
  }

  /// Makes the store's folders that are missing: the cache's, and the change folder while its
  /// carrier is there.
  func createLayout() throws {
    try FileSystem.makeFolder(root, displayPath: rootName)
    try FileSystem.makeFolder(cacheURL, displayPath: display("local"))
    try FileSystem.makeFolder(segmentsURL, displayPath: display(cachePrefix + "segments"))
    try FileSystem.makeFolder(logURL, displayPath: display(cachePrefix + "log"))
    // Not while the carrier is not there: on iOS there is then no container to make it in.
    guard changes.isCarrying else { return }
    // A sync folder given by the user (inside Dropbox, say) may need its parents made.
    let parent = changes.url.deletingLastPathComponent()
    if !FileSystem.exists(parent) { try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true) }
    try FileSystem.makeFolder(changes.url, displayPath: changes.displayName)
  }
}
