import Foundation
import PlainStore

/// A small schema that exercises every engine feature: two uniqueness constraints, a segment
/// key, and all three delete rules.
struct Owner: Entity, Hashable {
  static let entityName = "Owner"
  var id: UUID
  var name: String
  var note: String?
}

struct Event: Entity, Hashable {
  static let entityName = "Event"
  static let identityKey = "uuid"
  var uuid: UUID
  var id: UUID { uuid }
  var ownerID: UUID?
  var at: Date
  var title: String
  var amount: Double?
}

struct Attachment: Entity, Hashable {
  static let entityName = "Attachment"
  var id: UUID
  var eventID: UUID?
}

struct Badge: Entity, Hashable {
  static let entityName = "Badge"
  var id: UUID
  var ownerID: UUID?
}

enum TestSchema {
  static let v1 = Schema(version: 1, [
    EntitySchema(Owner.self, unique: [[\.id], [\.name]], indexed: [\.name]),
    EntitySchema(
      Event.self, unique: [[\.ownerID, \.at]], indexed: [\.at],
      references: [Reference(\.ownerID, to: Owner.self, onDelete: .nullify)], segmentedBy: \Event.at),
    EntitySchema(Attachment.self, references: [Reference(\.eventID, to: Event.self, onDelete: .cascade)]),
    EntitySchema(Badge.self, references: [Reference(\.ownerID, to: Owner.self, onDelete: .deny)]),
  ])
}

/// Fixed ids and times, so that stores built in tests are the same bytes every run.
enum Sample {
  static let epoch = ISO8601.parse("2026-01-15T09:30:00Z")!

  static func id(_ n: Int) -> UUID {
    UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", n))!
  }

  static func date(days: Double) -> Date { epoch.addingTimeInterval(days * 86_400) }

  static let fixedClock: @Sendable () -> Date = { epoch }
  /// A fixed device id, so two runs write the same bytes.
  static let device = "0000000000000000000000000000d001"
  static var options: StoreOptions { StoreOptions(author: "test", clock: fixedClock, deviceID: device) }
}

/// Runs `body` with a temporary store and removes it afterwards.
func withTemporaryStore<T>(
  _ options: StoreOptions = Sample.options, _ body: (StoreContainer) throws -> T
) throws -> T {
  let container = try StoreContainer.temporary(schema: TestSchema.v1, options: options)
  defer { try? container.destroy() }
  return try body(container)
}

/// Every file under a folder, with its bytes: to prove an operation changed nothing.
func snapshotFiles(_ folder: URL) throws -> [String: Data] {
  var files: [String: Data] = [:]
  let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
  while let url = enumerator?.nextObject() as? URL {
    var isFolder: ObjCBool = false
    if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue {
      files[url.path.replacingOccurrences(of: folder.path, with: "")] = try Data(contentsOf: url)
    }
  }
  return files
}
