import Foundation
import PlainStore

extension StoreContext {
  /// Every object that breaks a rule the ``Tracker`` enforces on writes — data written before
  /// the rules, by another program, or by hand: `babydash check` lists them all, not the first.
  ///
  /// Checked: names (empty, control characters, too long), feed terms out of range, feeds that
  /// end before they start, amounts out of range, references to babies that are not there, and
  /// objects that share a unique key of the schema (duplicates).
  public func domainProblems(schema: Schema = BabyDashboardSchema.current) throws -> [String] {
    let babies = try babies()
    let feeds = try fetch(FetchDescriptor<FeedSession>(sortBy: [SortDescriptor(\.startTime, order: .forward)]))
    let diapers = try fetch(FetchDescriptor<DiaperChange>(sortBy: [SortDescriptor(\.timestamp, order: .forward)]))
    let ids = Set(babies.map(\.id))
    var problems: [String] = []
    for baby in babies {
      let what = "baby \(baby.id.uuidString)"
      if baby.name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
        problems.append("\(what) has an empty name")
      }
      problems += TrackerRules.issues(forName: baby.name).map { "\(what): \($0.message)" }
      if !TrackerRules.issues(forFeedTerm: baby.feedTerm).isEmpty {
        problems.append("\(what) has a feed term of \(baby.feedTerm) seconds: \(ValidationIssue.feedTermOutOfRange.message)")
      }
    }
    for feed in feeds {
      let what = "feed \(feed.uuid.uuidString)"
      if let profile = feed.profileID, !ids.contains(profile) {
        problems.append("\(what) refers to a baby that is not in the store (\(profile.uuidString))")
      }
      if !TrackerRules.issues(forStart: feed.startTime, end: feed.endTime).isEmpty {
        problems.append("\(what) ends before it starts")
      }
      if let amount = LastFeedAmount(feed: feed) {
        problems += TrackerRules.issues(forAmount: amount).map { "\(what): \($0.message)" }
      }
      if let other = try clashingObject(with: feed, schema: schema), other.uuid.uuidString < feed.uuid.uuidString {
        problems.append("\(what) duplicates feed \(other.uuid.uuidString) (same baby and start)")
      }
    }
    for diaper in diapers {
      let what = "diaper change \(diaper.uuid.uuidString)"
      if let profile = diaper.profileID, !ids.contains(profile) {
        problems.append("\(what) refers to a baby that is not in the store (\(profile.uuidString))")
      }
      if let other = try clashingObject(with: diaper, schema: schema), other.uuid.uuidString < diaper.uuid.uuidString {
        problems.append("\(what) duplicates diaper change \(other.uuid.uuidString) (same baby, time and type)")
      }
    }
    return problems
  }
}
