import Foundation
import PlainStore

extension LegacyImporter {
  /// The plan's objects the store does not hold yet, in write order (babies, feeds, diapers);
  /// counts the others as already present.
  ///
  /// Matched by the unique keys (baby id; feed profile + startTime; diaper profile + timestamp +
  /// type), so an object the app created with another uuid is not duplicated, and a stored
  /// object is never overwritten by the legacy one.
  func missingObjects(of plan: LegacyImportPlan, in context: StoreContext, report: inout LegacyImportReport) throws
    -> [any Entity]
  {
    let storedBabies = Set(try context.fetch(FetchDescriptor<BabyProfile>()).map(\.id))
    let storedFeeds = Set(
      try context.fetch(FetchDescriptor<FeedSession>()).map { LegacyImportPlan.FeedKey(profileID: $0.profileID, startTime: $0.startTime) })
    let storedDiapers = Set(
      try context.fetch(FetchDescriptor<DiaperChange>()).map {
        LegacyImportPlan.DiaperKey(profileID: $0.profileID, timestamp: $0.timestamp, type: $0.type)
      })
    var pending: [any Entity] = []
    pending.reserveCapacity(plan.profiles.count + plan.feeds.count + plan.diapers.count)
    for item in plan.profiles {
      if storedBabies.contains(item.value.id) {
        report.babyProfiles.alreadyPresent += 1
      } else {
        pending.append(item.value)
      }
    }
    for item in plan.feeds {
      if storedFeeds.contains(.init(profileID: item.value.profileID, startTime: item.value.startTime)) {
        report.feedSessions.alreadyPresent += 1
      } else {
        pending.append(item.value)
      }
    }
    for item in plan.diapers {
      if storedDiapers.contains(.init(profileID: item.value.profileID, timestamp: item.value.timestamp, type: item.value.type)) {
        report.diaperChanges.alreadyPresent += 1
      } else {
        pending.append(item.value)
      }
    }
    report.babyProfiles.inserted = plan.profiles.count - report.babyProfiles.alreadyPresent
    report.feedSessions.inserted = plan.feeds.count - report.feedSessions.alreadyPresent
    report.diaperChanges.inserted = plan.diapers.count - report.diaperChanges.alreadyPresent
    return pending
  }

  /// Inserts `objects` in saves of ``batchSize``; babies come first, so every feed's and diaper's
  /// baby is stored by the time (or in the save) it is.
  func write(_ objects: [any Entity], into context: StoreContext, source: String) throws {
    var batch = 0
    var start = 0
    while start < objects.count {
      let end = min(start + batchSize, objects.count)
      for object in objects[start..<end] { insert(object, into: context) }
      try storeCall(source) {
        do { _ = try context.save() } catch {
          context.rollback()
          throw error
        }
      }
      batch += 1
      progress?(end, objects.count)
      try hooks.afterBatch?(batch)
      start = end
    }
  }

  private func insert(_ object: any Entity, into context: StoreContext) {
    func open<E: Entity>(_ value: E) { context.insert(value) }
    open(object)
  }
}
