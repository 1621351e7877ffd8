import Foundation

/// The store's objects for a legacy document, before anything is written: each record mapped,
/// linked by profile id, deduplicated by the store's unique keys, with the record's position in
/// the source kept for messages.
struct LegacyImportPlan: Sendable {
  struct Item<Value: Sendable>: Sendable {
    /// The record's index in its source array (`feedSessions[position]`).
    var position: Int
    var value: Value
  }

  /// The unique key of a feed in the store: (profile, startTime).
  struct FeedKey: Hashable, Sendable {
    var profileID: UUID?
    var startTime: Date
  }

  /// The unique key of a diaper change in the store: (profile, timestamp, type).
  struct DiaperKey: Hashable, Sendable {
    var profileID: UUID?
    var timestamp: Date
    var type: DiaperType
  }

  var profiles: [Item<BabyProfile>] = []
  var feeds: [Item<FeedSession>] = []
  var diapers: [Item<DiaperChange>] = []
  var profileCounts = LegacyImportCounts()
  var feedCounts = LegacyImportCounts()
  var diaperCounts = LegacyImportCounts()
  /// The legacy profiles' `lastFeedAmount*`, for babies that had both.
  var legacyAmounts: [UUID: LastFeedAmount] = [:]

  /// Maps `export`; babies without any feed or diaper get `migrationStart` as `createdAt`.
  init(export: LegacyExport, migrationStart: Date) {
    profileCounts.read = export.babyProfiles.count
    feedCounts.read = export.feedSessions.count
    diaperCounts.read = export.diaperChanges.count

    let known = Set(export.babyProfiles.map(\.id))
    func link(_ id: UUID?) -> UUID? { id.flatMap { known.contains($0) ? $0 : nil } }

    var earliest: [UUID: Date] = [:]
    var feedKeys = Set<FeedKey>()
    feeds.reserveCapacity(export.feedSessions.count)
    for (position, legacy) in export.feedSessions.enumerated() {
      let profileID = link(legacy.profileID)
      if profileID == nil { feedCounts.orphans += 1 }
      if let profileID { earliest[profileID] = min(earliest[profileID] ?? legacy.startTime, legacy.startTime) }
      let key = FeedKey(profileID: profileID, startTime: legacy.startTime)
      guard feedKeys.insert(key).inserted else {
        feedCounts.duplicates += 1
        continue
      }
      let feed = FeedSession(
        uuid: Self.uuid(of: key), profileID: profileID, startTime: legacy.startTime, endTime: legacy.endTime,
        amountValue: legacy.amountValue, amountUnitSymbol: Self.normalized(legacy.amountUnitSymbol),
        memoText: legacy.memoText)
      feeds.append(Item(position: position, value: feed))
    }

    var diaperKeys = Set<DiaperKey>()
    diapers.reserveCapacity(export.diaperChanges.count)
    for (position, legacy) in export.diaperChanges.enumerated() {
      let profileID = link(legacy.profileID)
      if profileID == nil { diaperCounts.orphans += 1 }
      if let profileID { earliest[profileID] = min(earliest[profileID] ?? legacy.timestamp, legacy.timestamp) }
      let key = DiaperKey(profileID: profileID, timestamp: legacy.timestamp, type: legacy.type)
      guard diaperKeys.insert(key).inserted else {
        diaperCounts.duplicates += 1
        continue
      }
      let diaper = DiaperChange(uuid: Self.uuid(of: key), profileID: profileID, timestamp: legacy.timestamp, type: legacy.type)
      diapers.append(Item(position: position, value: diaper))
    }

    var profileIDs = Set<UUID>()
    for (position, legacy) in export.babyProfiles.enumerated() {
      // The same id twice: the first profile counts, as for feeds and diapers.
      guard profileIDs.insert(legacy.id).inserted else {
        profileCounts.duplicates += 1
        continue
      }
      let baby = BabyProfile(
        id: legacy.id, name: legacy.name, feedTerm: legacy.feedTerm, createdAt: earliest[legacy.id] ?? migrationStart)
      profiles.append(Item(position: position, value: baby))
      if let value = legacy.lastFeedAmountValue, let unit = Self.normalized(legacy.lastFeedAmountUnitSymbol) {
        legacyAmounts[legacy.id] = LastFeedAmount(amountValue: value, amountUnitSymbol: unit)
      }
    }
  }

  /// A known unit spelling as its canonical symbol; an unknown one as it was; empty as none.
  static func normalized(_ symbol: String?) -> String? {
    guard let symbol, !symbol.allSatisfy(\.isWhitespace) else { return nil }
    return VolumeUnit.canonicalSymbol(for: symbol) ?? symbol
  }

  /// The feed's uuid: name-based on its unique key, so every run gives the same one
  /// (``LegacyIdentity``).
  static func uuid(of key: FeedKey) -> UUID {
    LegacyIdentity.feedID(profileID: key.profileID, startTime: key.startTime)
  }

  /// The diaper change's uuid: name-based on its unique key.
  static func uuid(of key: DiaperKey) -> UUID {
    LegacyIdentity.diaperID(profileID: key.profileID, timestamp: key.timestamp, type: key.type)
  }
}
