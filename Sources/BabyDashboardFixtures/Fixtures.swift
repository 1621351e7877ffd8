import BabyDashboard
import Foundation

// The entity builders (BabyDashboard.docc, "The data model"): fixed ids, dates passed in
// (scenarios compute them from their world's `now`), unit symbols made canonical.

/// A baby with a fixed id.
///
/// - Parameters:
///   - id: fixed; take it from a world's ``IDSequence`` (`world.ids.uuid(1)`).
///   - createdAt: orders the dashboard's tiles, oldest first.
public func makeBabyProfile(
  id: UUID, name: String, feedTerm: TimeInterval = BabyProfile.defaultFeedTerm, createdAt: Date
) -> BabyProfile {
  BabyProfile(id: id, name: name, feedTerm: feedTerm, createdAt: createdAt)
}

/// A feed of `profile` (`nil` for an orphan); its uuid is derived from the baby and the start,
/// so the same fixture always has the same uuid. A known unit spelling ("ml", "oz") is stored as
/// its canonical symbol ("mL", "fl oz"); an unknown one is kept as given.
///
/// - Parameters:
///   - end: `nil` for a feed in progress.
///   - uuid: overrides the derived uuid.
public func makeFeedSession(
  profile: BabyProfile?, start: Date, end: Date? = nil, amountValue: Double? = nil,
  amountUnitSymbol: String? = nil, memoText: String? = nil, uuid: UUID? = nil
) -> FeedSession {
  let unit = amountUnitSymbol.map { VolumeUnit.canonicalSymbol(for: $0) ?? $0 }
  return FeedSession(
    uuid: uuid ?? IDSequence.derived(from: ["feed", profile?.id.uuidString ?? "orphan", fixtureKey(start)]),
    profileID: profile?.id, startTime: start, endTime: end, amountValue: amountValue,
    amountUnitSymbol: unit, memoText: memoText)
}

/// A diaper change of `profile` (`nil` for an orphan), its uuid derived from the baby, the time
/// and the type.
public func makeDiaperChange(profile: BabyProfile?, timestamp: Date, type: DiaperType, uuid: UUID? = nil) -> DiaperChange {
  DiaperChange(
    uuid: uuid ?? IDSequence.derived(from: [
      "diaper", profile?.id.uuidString ?? "orphan", fixtureKey(timestamp), type.rawValue,
    ]),
    profileID: profile?.id, timestamp: timestamp, type: type)
}

/// Writes a last feed amount under a baby's name into `cache`, as the Phase A app did (the
/// cache moves it to the oldest baby of that name on first use); the unit is stored canonical
/// ("ml" → "mL").
///
/// - Throws: ``KeyValueStoreError`` from the cache's store.
public func seedLastFeedAmount(
  forBabyName name: String, amountValue: Double, amountUnitSymbol: String, in cache: LastFeedAmountCache
) throws {
  try cache.set(value: amountValue, unitSymbol: amountUnitSymbol, forBabyName: name)
}

/// Milliseconds since 1970 as text: an exact, locale-free key for a date.
private func fixtureKey(_ date: Date) -> String {
  String(Int64((date.timeIntervalSince1970 * 1000).rounded()))
}
