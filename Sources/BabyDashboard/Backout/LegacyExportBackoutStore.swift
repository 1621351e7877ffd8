import Foundation

/// A ``BackoutStore`` over the SwiftData store's rows as the reader reads them: what the tests
/// and `babydash backout` apply a handback to, before the fixture builder writes the store again.
/// It behaves as a `ModelContext` does: what is put or removed is pending until ``save()``, and
/// ``rollback()`` forgets it.
public struct LegacyExportBackoutStore: BackoutStore {
  /// The rows as last saved.
  public private(set) var saved: LegacyExport
  private var pending: LegacyExport

  public init(_ export: LegacyExport) {
    saved = export
    pending = export
  }

  public mutating func put(_ record: LegacyBabyProfile, id: UUID) throws { Self.put(record, id: id, in: &pending.babyProfiles) }
  public mutating func put(_ record: LegacyFeedSession, id: UUID) throws { Self.put(record, id: id, in: &pending.feedSessions) }
  public mutating func put(_ record: LegacyDiaperChange, id: UUID) throws { Self.put(record, id: id, in: &pending.diaperChanges) }

  public mutating func remove(entity: String, id: UUID) throws {
    switch entity {
    case BabyProfile.entityName: pending.babyProfiles.removeAll { $0.backoutID == id }
    case FeedSession.entityName: pending.feedSessions.removeAll { $0.backoutID == id }
    case DiaperChange.entityName: pending.diaperChanges.removeAll { $0.backoutID == id }
    default: throw BackoutStoreError.unknownEntity(entity)
    }
  }

  public mutating func save() throws { saved = pending }

  public mutating func rollback() { pending = saved }

  /// The first row of `id` is set and any other goes: the import merged them into one object.
  private static func put<Record: LegacyRecord>(_ record: Record, id: UUID, in rows: inout [Record]) {
    guard let index = rows.firstIndex(where: { $0.backoutID == id }) else { return rows.append(record) }
    rows[index] = record
    rows = rows.enumerated().filter { $0.offset <= index || $0.element.backoutID != id }.map(\.element)
  }
}

/// Why a ``BackoutStore`` refused a change.
public enum BackoutStoreError: Error, Equatable, CustomStringConvertible {
  /// A deletion of an entity the SwiftData store has no model for.
  case unknownEntity(String)

  public var description: String {
    switch self {
    case .unknownEntity(let entity): "the handback deletes a \(entity), which the SwiftData store has no model for"
    }
  }
}
