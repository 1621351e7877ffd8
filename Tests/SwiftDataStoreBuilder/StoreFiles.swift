import Foundation

/// Makes a store's files in a scratch folder and puts them at their destination, either after
/// the last connection closed (rows checkpointed into the main file, no `-wal`) or while the
/// writer is still open (recent rows only in the `-wal`, as a running app leaves them).
enum StoreFiles {
  static func write(
    to url: URL, keepingWAL: Bool, pageSize: Int?, _ body: (SQLiteWriter, _ checkpoint: () throws -> Void) throws -> Void
  ) throws {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("SwiftDataStoreBuilder-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }  // scratch space; the files that matter are copied out
    let database = scratch.appendingPathComponent(url.lastPathComponent)
    let writer = try SQLiteWriter(creating: database)
    if let pageSize { try writer.execute("PRAGMA page_size = \(pageSize)") }
    try writer.execute("PRAGMA journal_mode = WAL")
    try writer.execute("PRAGMA wal_autocheckpoint = 0")  // only our explicit checkpoint moves pages to the main file
    try body(writer) { try writer.execute("PRAGMA wal_checkpoint(TRUNCATE)") }
    let suffixes = keepingWAL ? ["", "-wal", "-shm"] : [""]
    if !keepingWAL { writer.close() }
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    for suffix in suffixes {
      let destination = URL(fileURLWithPath: url.path + suffix)
      if FileManager.default.fileExists(atPath: destination.path) { try FileManager.default.removeItem(at: destination) }
      try FileManager.default.copyItem(at: URL(fileURLWithPath: database.path + suffix), to: destination)
    }
    writer.close()
  }
}
