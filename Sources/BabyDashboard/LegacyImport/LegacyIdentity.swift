import Foundation

/// The id an imported SwiftData record has in the new store: a baby keeps its own; a feed's and a
/// diaper change's are name-based on their unique key, so every import gives the same one, and a
/// SwiftData row can be found again from an id the new store hands back (``BackoutHandback``).
public enum LegacyIdentity {
  /// The id of the feed of `profileID` (nil: an orphan) started at `startTime`.
  public static func feedID(profileID: UUID?, startTime: Date) -> UUID {
    NameBasedUUID.make(
      namespace: NameBasedUUID.legacyImportNamespace,
      name: "FeedSession|\(profileID?.uuidString ?? "-")|\(bits(startTime))")
  }

  /// The id of the diaper change of `profileID` at `timestamp` of `type`.
  public static func diaperID(profileID: UUID?, timestamp: Date, type: DiaperType) -> UUID {
    NameBasedUUID.make(
      namespace: NameBasedUUID.legacyImportNamespace,
      name: "DiaperChange|\(profileID?.uuidString ?? "-")|\(bits(timestamp))|\(type.rawValue)")
  }

  /// The id of a legacy feed record.
  public static func id(of feed: LegacyFeedSession) -> UUID { feedID(profileID: feed.profileID, startTime: feed.startTime) }

  /// The id of a legacy diaper record.
  public static func id(of diaper: LegacyDiaperChange) -> UUID {
    diaperID(profileID: diaper.profileID, timestamp: diaper.timestamp, type: diaper.type)
  }

  /// The exact date, as the hex of its bits: no rounding can make two dates one name.
  private static func bits(_ date: Date) -> String {
    String(date.timeIntervalSinceReferenceDate.bitPattern, radix: 16)
  }
}
