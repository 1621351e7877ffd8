import Foundation
import PlainStore

/// StressItem as schema version 2 has it: `writer` renamed `author`, `part` stored ten times
/// larger, and a new `note` that old items read as "v1". The schema-migration crash test opens
/// a version-1 store with it and kills the process while it migrates.
///
/// The test target declares the same entity (MultiProcessItemV2).
struct StressItemV2: Entity, Hashable {
  static let entityName = "StressItem"
  var id: UUID
  var author: String
  var batch: Int
  var part: Int
  var at: Date
  var note: String
}

extension StressSchema {
  static let v2 = Schema(
    version: 2,
    [
      EntitySchema(
        StressItemV2.self, unique: [[\.author, \.batch, \.part, \.at]], indexed: [\.batch], segmentedBy: \StressItemV2.at)
    ],
    migrations: [
      SchemaMigration(
        "items have an author and a note", to: 2,
        [
          .renameProperty("writer", to: \StressItemV2.author),
          .transformProperty(\StressItemV2.part, from: Int.self) { $0 * 10 },
          .addProperty(\StressItemV2.note, default: "v1"),
        ])
    ])
}
