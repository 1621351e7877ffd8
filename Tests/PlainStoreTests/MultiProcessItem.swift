import Foundation
import PlainStore

/// The entity the plainstore-stress child commits, declared again here: the processes share the
/// store's file format, not code. Must match Sources/plainstore-stress/StressItem.swift.
struct MultiProcessItem: Entity, Hashable {
  static let entityName = "StressItem"
  var id: UUID
  var writer: String
  var batch: Int
  var part: Int
  var at: Date

  static let schema = Schema(version: 1, [
    EntitySchema(MultiProcessItem.self, unique: [[\.writer, \.batch, \.part, \.at]], indexed: [\.batch], segmentedBy: \MultiProcessItem.at)
  ])

  /// The child's fingerprint of a view (StressDigest), to compare this process's view with theirs.
  static func digest(_ items: [MultiProcessItem]) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for item in items.sorted(by: { $0.id.uuidString < $1.id.uuidString }) {
      let line = "\(item.id.uuidString)|\(item.writer)|\(item.batch)|\(item.part)|\(item.at.timeIntervalSince1970)\n"
      for byte in line.utf8 {
        hash ^= UInt64(byte)
        hash = hash &* 0x100_0000_01b3
      }
    }
    let hex = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
  }
}

/// One `committed <batch> <sequence> <ids>` line of a child: a save that returned.
struct ReportedCommit: Hashable {
  var writer: String
  var batch: Int
  var sequence: Int
  var ids: [UUID]

  init?(line: String, writer: String) {
    let fields = line.split(separator: " ")
    guard fields.count == 4, fields[0] == "committed", let batch = Int(fields[1]), let sequence = Int(fields[2]) else {
      return nil
    }
    let ids = fields[3].split(separator: ",").compactMap { UUID(uuidString: String($0)) }
    guard !ids.isEmpty else { return nil }
    self.writer = writer
    self.batch = batch
    self.sequence = sequence
    self.ids = ids
  }
}

/// A fresh folder for a store shared between processes, removed by `remove()`.
struct MultiProcessFolder {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent("PlainStoreMP-\(UUID().uuidString)")
  var store: URL { folder.appendingPathComponent("Shared.store") }

  func open(_ options: StoreOptions = StoreOptions(author: "parent")) throws -> StoreContainer {
    try StoreContainer.file(at: store, schema: MultiProcessItem.schema, options: options)
  }

  func remove() { try? FileManager.default.removeItem(at: folder) }
}
