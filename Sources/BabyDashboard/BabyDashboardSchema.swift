import PlainStore

/// The store's entities, mapped from the SwiftData models (<doc:DataModel>), on PlainStore.
///
/// - `BabyProfile`: unique `id`; indexed `createdAt` (the screens' order) and `name` (lookups).
/// - `FeedSession`: unique (profile, startTime), which makes the importer idempotent; indexed
///   `startTime`; its profile reference is nullified when the baby is deleted; kept in monthly
///   segments by `startTime`. When devices' edits merge, (startTime, endTime) and (amountValue,
///   amountUnitSymbol) each come from one writer, so a feed never pairs one parent's start with
///   the other's end, nor a value with the other's unit.
/// - `DiaperChange`: unique (profile, timestamp, type); indexed `timestamp`; nullify; monthly
///   segments by `timestamp`.
///
/// Deleting a baby nullifies its feeds' and diapers' `profileID` (they stay, as orphans); deleting
/// a feed or diaper leaves the baby alone: nullify both ways, with no stored to-many side.
public enum BabyDashboardSchema {
  /// The schema version; raise it whenever an entity changes.
  public static let version = 1

  /// The schema of the app's store.
  public static let current = Schema(version: version, [
    EntitySchema(
      BabyProfile.self,
      unique: [[\BabyProfile.id]],
      indexed: [\BabyProfile.createdAt, \BabyProfile.name]),
    EntitySchema(
      FeedSession.self,
      unique: [[\FeedSession.profileID, \FeedSession.startTime]],
      indexed: [\FeedSession.startTime],
      references: [Reference(\FeedSession.profileID, to: BabyProfile.self, onDelete: .nullify)],
      segmentedBy: \FeedSession.startTime,
      fieldGroups: [[\FeedSession.startTime, \FeedSession.endTime], [\FeedSession.amountValue, \FeedSession.amountUnitSymbol]]),
    EntitySchema(
      DiaperChange.self,
      unique: [[\DiaperChange.profileID, \DiaperChange.timestamp, \DiaperChange.type]],
      indexed: [\DiaperChange.timestamp],
      references: [Reference(\DiaperChange.profileID, to: BabyProfile.self, onDelete: .nullify)],
      segmentedBy: \DiaperChange.timestamp),
  ])
}

extension BabyProfile: Entity {
  public static let entityName = "BabyProfile"
}

extension FeedSession: Entity {
  public static let entityName = "FeedSession"
  public static let identityKey = "uuid"
}

extension DiaperChange: Entity {
  public static let entityName = "DiaperChange"
  public static let identityKey = "uuid"
}
