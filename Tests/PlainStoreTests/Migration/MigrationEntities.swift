import Foundation
import PlainStore

/// A note as schema version 1 has it.
struct NoteV1: Entity, Hashable {
  static let entityName = "Note"
  var id: UUID
  var text: String
  var stars: Int
}

/// The same note in schema version 2: `text` renamed `title`, `stars` kept as tenths (a value
/// transform), and a new `isPinned` that old notes read as false.
struct NoteV2: Entity, Hashable {
  static let entityName = "Note"
  var id: UUID
  var title: String
  var stars: Int64
  var isPinned: Bool
}

enum NoteSchema {
  static let v1 = Schema(version: 1, [EntitySchema(NoteV1.self, unique: [[\.id]])])

  static let toV2 = SchemaMigration(
    "notes have a title, tenths of stars and a pin", to: 2,
    [
      .renameProperty("text", to: \NoteV2.title),
      .transformProperty(\NoteV2.stars, from: Int.self) { Int64($0) * 10 },
      .addProperty(\NoteV2.isPinned, default: false),
    ])

  static let v2 = Schema(version: 2, [EntitySchema(NoteV2.self, unique: [[\.id]])], migrations: [toV2])

  static func options(device: Int, syncFolder: URL? = nil) -> StoreOptions {
    StoreOptions(
      author: "test", clock: Sample.fixedClock, watchesOtherProcesses: false, syncFolder: syncFolder,
      deviceID: String(format: "%032x", device))
  }
}

/// StressItem in schema version 2, as plainstore-stress declares it (StressItemV2): the
/// processes share the file format, not code.
struct MultiProcessItemV2: Entity, Hashable {
  static let entityName = "StressItem"
  var id: UUID
  var author: String
  var batch: Int
  var part: Int
  var at: Date
  var note: String

  static let schema = Schema(
    version: 2,
    [
      EntitySchema(
        MultiProcessItemV2.self, unique: [[\.author, \.batch, \.part, \.at]], indexed: [\.batch], segmentedBy: \MultiProcessItemV2.at)
    ],
    migrations: [
      SchemaMigration(
        "items have an author and a note", to: 2,
        [
          .renameProperty("writer", to: \MultiProcessItemV2.author),
          .transformProperty(\MultiProcessItemV2.part, from: Int.self) { $0 * 10 },
          .addProperty(\MultiProcessItemV2.note, default: "v1"),
        ])
    ])

  /// What a version-1 item reads as after the migration.
  init(migrating item: MultiProcessItem) {
    self.init(id: item.id, author: item.writer, batch: item.batch, part: item.part * 10, at: item.at, note: "v1")
  }

  init(id: UUID, author: String, batch: Int, part: Int, at: Date, note: String) {
    self.id = id
    self.author = author
    self.batch = batch
    self.part = part
    self.at = at
    self.note = note
  }
}
