import Foundation

@testable import PlainStore

/// Reads a store's files wherever they are — a folder on disk, or the memory an in-memory
/// container keeps them in — through the store's own file operations: the differential run
/// judges both kinds of device by the same files.
enum StoreFolderReader {
  /// The container's store folder (an in-memory store's is under its medium's virtual root).
  static func folder(of container: StoreContainer) -> URL { container.coordinator.backing.root! }

  /// The names in a folder, sorted, hidden ones (temporary files) left out.
  static func list(_ folder: URL) -> [String] { FileSystem.list(folder) }

  /// A file's bytes; nil when there is none.
  static func read(_ url: URL) -> Data? { try? FileSystem.read(url, displayPath: url.path) }

  /// Copies the store's truth (`store.json` and `changes/`) into `copy`, a new folder on disk,
  /// to be opened there as a store without its cache.
  static func copyTruth(of root: URL, to copy: URL) throws {
    try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
    try copyFile(root.appendingPathComponent("store.json"), to: copy.appendingPathComponent("store.json"))
    let changes = root.appendingPathComponent("changes")
    for folder in list(changes) {
      let target = copy.appendingPathComponent("changes").appendingPathComponent(folder)
      try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
      for name in list(changes.appendingPathComponent(folder)) {
        try copyFile(changes.appendingPathComponent(folder).appendingPathComponent(name), to: target.appendingPathComponent(name))
      }
    }
  }

  /// A store rebuilt in memory from the truth of the store at `root`: what a copy of it
  /// without its cache shows, with no disk involved (the copy's medium goes with the container).
  static func rebuiltInMemory(from root: URL, options: StoreOptions, schema: Schema) throws -> StoreContainer {
    let medium = MemoryMedium.mount()
    let copy = URL(fileURLWithPath: medium.folder + "/Rebuilt.store", isDirectory: true)
    do {
      try FileSystem.makeFolder(copy, displayPath: "Rebuilt.store")
      try FileSystem.makeFolder(copy.appendingPathComponent("changes"), displayPath: "Rebuilt.store/changes")
      let changes = root.appendingPathComponent("changes")
      for folder in list(changes) {
        let target = copy.appendingPathComponent("changes").appendingPathComponent(folder)
        try FileSystem.makeFolder(target, displayPath: folder)
        for name in list(changes.appendingPathComponent(folder)) {
          guard let data = read(changes.appendingPathComponent(folder).appendingPathComponent(name)) else { continue }
          try FileSystem.writeAtomically(data, to: target.appendingPathComponent(name), displayPath: name, durable: false)
        }
      }
      if let header = read(root.appendingPathComponent("store.json")) {
        try FileSystem.writeAtomically(header, to: copy.appendingPathComponent("store.json"), displayPath: "store.json", durable: false)
      }
      return try StoreContainer.file(at: copy, schema: schema, options: options)
    } catch {
      medium.unmount()
      throw error
    }
  }

  private static func copyFile(_ source: URL, to target: URL) throws {
    guard let data = read(source) else { return }
    try data.write(to: target)
  }
}
