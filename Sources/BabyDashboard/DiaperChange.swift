import Foundation

/// One diaper change of a baby.
///
/// `uuid` is new with the Core Data mapping: it gives each change a stable identity. The store
/// keeps at most one change per (profile, timestamp, type).
public struct DiaperChange: Codable, Sendable, Hashable, Identifiable {
  /// Stable identity.
  public var uuid: UUID
  /// The baby it belongs to; `nil` for an orphan (its baby was deleted, or never known).
  public var profileID: UUID?
  /// When the diaper was changed.
  public var timestamp: Date
  /// Pee or poo.
  public var type: DiaperType

  /// The identity the store uses: the same as ``uuid``.
  public var id: UUID { uuid }

  /// Creates a diaper change.
  public init(uuid: UUID = UUID(), profileID: UUID?, timestamp: Date, type: DiaperType) {
    self.uuid = uuid
    self.profileID = profileID
    self.timestamp = timestamp
    self.type = type
  }
}
