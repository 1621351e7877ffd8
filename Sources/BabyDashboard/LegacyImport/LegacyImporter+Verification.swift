import Foundation
import PlainStore

extension LegacyImporter {
  /// Compares the store with the plan: every record present under its unique key, with its
  /// baby; every link pointing at a stored baby; the counts per entity. Returns one line per
  /// mismatch, naming the record by its position in the source.
  func verify(_ plan: LegacyImportPlan, in context: StoreContext) throws -> [String] {
    var mismatches: [String] = []
    let babies = Dictionary(try context.fetch(FetchDescriptor<BabyProfile>()).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
    let feeds = try context.fetch(FetchDescriptor<FeedSession>())
    let diapers = try context.fetch(FetchDescriptor<DiaperChange>())
    let feedsByKey = Dictionary(
      feeds.map { (LegacyImportPlan.FeedKey(profileID: $0.profileID, startTime: $0.startTime), $0) }, uniquingKeysWith: { a, _ in a })
    let feedsByID = Dictionary(feeds.map { ($0.uuid, $0) }, uniquingKeysWith: { a, _ in a })
    let diapersByKey = Dictionary(
      diapers.map { (LegacyImportPlan.DiaperKey(profileID: $0.profileID, timestamp: $0.timestamp, type: $0.type), $0) },
      uniquingKeysWith: { a, _ in a })
    let diapersByID = Dictionary(diapers.map { ($0.uuid, $0) }, uniquingKeysWith: { a, _ in a })

    func babyText(_ id: UUID?) -> String { id.map { "BabyProfile \($0.uuidString)" } ?? "no baby" }

    var found = 0
    for item in plan.profiles {
      if babies[item.value.id] != nil {
        found += 1
      } else {
        mismatches.append("BabyProfile babyProfiles[\(item.position)] (\(item.value.id.uuidString)) is missing from the store")
      }
    }
    if found != plan.profiles.count {
      mismatches.append("BabyProfile count: expected \(plan.profiles.count) from the source in the store, found \(found)")
    }

    found = 0
    for item in plan.feeds {
      let feed = item.value
      let name = "FeedSession feedSessions[\(item.position)] (startTime \(ISO8601.format(feed.startTime)))"
      if feedsByKey[.init(profileID: feed.profileID, startTime: feed.startTime)] != nil {
        found += 1
        if let id = feed.profileID, babies[id] == nil {
          mismatches.append("\(name) refers to \(babyText(id)), which is not in the store")
        }
      } else if let stored = feedsByID[feed.uuid] {
        mismatches.append("\(name) is linked to \(babyText(stored.profileID)) in the store; expected \(babyText(feed.profileID))")
      } else {
        mismatches.append("\(name) is missing from the store")
      }
    }
    if found != plan.feeds.count {
      mismatches.append("FeedSession count: expected \(plan.feeds.count) from the source in the store, found \(found)")
    }

    found = 0
    for item in plan.diapers {
      let diaper = item.value
      let name = "DiaperChange diaperChanges[\(item.position)] (\(diaper.type.rawValue) at \(ISO8601.format(diaper.timestamp)))"
      if diapersByKey[.init(profileID: diaper.profileID, timestamp: diaper.timestamp, type: diaper.type)] != nil {
        found += 1
        if let id = diaper.profileID, babies[id] == nil {
          mismatches.append("\(name) refers to \(babyText(id)), which is not in the store")
        }
      } else if let stored = diapersByID[diaper.uuid] {
        mismatches.append("\(name) is linked to \(babyText(stored.profileID)) in the store; expected \(babyText(diaper.profileID))")
      } else {
        mismatches.append("\(name) is missing from the store")
      }
    }
    if found != plan.diapers.count {
      mismatches.append("DiaperChange count: expected \(plan.diapers.count) from the source in the store, found \(found)")
    }
    return mismatches
  }
}
