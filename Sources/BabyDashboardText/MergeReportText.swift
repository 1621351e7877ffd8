import BabyDashboard
import Foundation
import PlainStore

/// What a merge of the other phones' changes did, in a parent's words: "From Dad's phone: 2
/// feeds and 1 diaper added; Mia's 07:00 feed amount changed to 130 mL (was 110 mL); Leo's 06:40
/// feed deleted." What `babydash sync now` prints, and what the app can show after a merge.
///
/// A feed or diaper change both phones logged (the same baby and time) is one after the merge:
/// "Mia's 07:00 feed, logged on both phones, kept once", with what that changed of this phone's
/// values, rather than one added and one deleted.
public enum MergeReportText {
  /// One line, or nil when the merge changed nothing a parent sees. `babies` names the babies
  /// (after the merge, with the ones it removed). With `now`, an event it brought that is dated
  /// ahead of this device's clock (``TrackerRules/isAhead(_:of:)``) is named: "Grandma's tablet
  /// logged Leo's feed for 2027-06-01 09:00: its clock may be wrong".
  public static func line(_ report: MergeReport, babies: [UUID: String], in zone: TimeZone, now: Date? = nil) -> String? {
    var added: [(String, Int)] = []
    var details: [String] = []
    func owner(_ id: UUID?) -> String { id.flatMap { babies[$0] }.map { "\($0)'s" } ?? "an orphan" }
    func time(_ date: Date) -> String { TimeText.clock(date, in: zone) }
    var counts: [String: Int] = [:]
    let survivors = Dictionary(report.changes.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    let mergedInto = Set(report.changes.compactMap(\.mergedInto))
    // Babies first, in the dashboard's order, then events newest first, as the history lists them.
    func order(_ change: MergeReport.Change) -> (Int, Double, String) {
      let object = change.after ?? change.before
      if let baby = object as? BabyProfile { return (0, baby.createdAt.timeIntervalSince1970, change.id.uuidString) }
      let time = (object as? FeedSession)?.startTime ?? (object as? DiaperChange)?.timestamp
      return (1, -(time?.timeIntervalSince1970 ?? 0), change.id.uuidString)
    }
    for change in report.changes.sorted(by: { order($0) < order($1) }) {
      if change.kind == .inserted && mergedInto.contains(change.id) { continue }  // said with what merged into it
      if let survivor = change.mergedInto {
        details += merged(change.before, into: survivors[survivor]?.after, owner: owner, babies: babies, time: time)
        continue
      }
      if !change.mergedFrom.isEmpty, case let said = merged(change.before, into: change.after, owner: owner, babies: babies, time: time),
        !said.isEmpty
      {
        details += said
        continue
      }
      switch (change.before, change.after) {
      case (nil, let after as BabyProfile):
        details.append("\(after.name) added")
      case (let before as BabyProfile, let after as BabyProfile):
        if before.name != after.name { details.append("\(before.name) renamed to \(after.name)") }
        if before.feedTerm != after.feedTerm { details.append("\(after.name) fed every \(TimeText.duration(after.feedTerm))") }
      case (let before as BabyProfile, nil):
        details.append("\(before.name) removed")
      case (nil, is FeedSession):
        counts["feed", default: 0] += 1
      case (nil, is DiaperChange):
        counts["diaper", default: 0] += 1
      case (let before as FeedSession, let after as FeedSession):
        details += feedChanges(before, after, owner: owner(before.profileID), newBaby: after.profileID.flatMap { babies[$0] }, time: time)
      case (let before as FeedSession, nil):
        details.append("\(owner(before.profileID)) \(time(before.startTime)) feed deleted")
      case (let before as DiaperChange, let after as DiaperChange):
        details.append("\(owner(before.profileID)) \(time(before.timestamp)) diaper changed to \(after.type.rawValue) at \(time(after.timestamp))")
      case (let before as DiaperChange, nil):
        details.append("\(owner(before.profileID)) \(time(before.timestamp)) diaper deleted")
      default:
        counts["change", default: 0] += 1
      }
    }
    for noun in ["feed", "diaper", "change"] where counts[noun, default: 0] > 0 { added.append((noun, counts[noun]!)) }
    var parts: [String] = []
    if !added.isEmpty {
      let listed = added.map { "\($0.1) \($0.0)\($0.1 == 1 ? "" : "s")" }
      parts.append(listed.joined(separator: " and ") + " added")
    }
    parts += details
    if let now { parts += ahead(report, owner: owner, now: now, zone: zone) }
    guard !parts.isEmpty else { return nil }
    let from = report.devices.isEmpty ? "" : "From \(report.devices.joined(separator: " and ")): "
    return from + parts.joined(separator: "; ") + "."
  }

  /// The events the merge left dated ahead of `now`, each named with the device that sent it
  /// (when one device did) as the likely wrong clock.
  private static func ahead(_ report: MergeReport, owner: (UUID?) -> String, now: Date, zone: TimeZone) -> [String] {
    let who = report.devices.count == 1 ? report.devices[0] : "A device (\(report.devices.joined(separator: " or ")))"
    var said: [String] = []
    for change in report.changes {
      let event: (String, Date)?
      switch change.after {
      case let feed as FeedSession:
        let latest = [feed.startTime, feed.endTime].compactMap { $0 }.max() ?? feed.startTime
        event = TrackerRules.isAhead(latest, of: now) ? ("\(owner(feed.profileID)) feed", feed.startTime) : nil
      case let diaper as DiaperChange:
        event = TrackerRules.isAhead(diaper.timestamp, of: now) ? ("\(owner(diaper.profileID)) diaper change", diaper.timestamp) : nil
      default:
        event = nil
      }
      if let (what, time) = event {
        said.append("\(who) logged \(what) for \(TimeText.typable(time, now: now, in: zone)): its clock may be wrong")
      }
    }
    return said
  }

  /// An event this phone held that merged with one the other phone logged for the same baby
  /// and time (into it, or it into this one): said once, with what the merge changed of the
  /// values this phone showed.
  private static func merged(
    _ before: (any Entity)?, into after: (any Entity)?, owner: (UUID?) -> String, babies: [UUID: String], time: (Date) -> String
  ) -> [String] {
    switch (before, after) {
    case (let before as FeedSession, let after):
      let feed = "\(owner(before.profileID)) \(time(before.startTime)) feed"
      let changes = (after as? FeedSession).map {
        feedChanges(before, $0, owner: owner(before.profileID), newBaby: $0.profileID.flatMap { babies[$0] }, time: time)
      }
      return ["\(feed), logged on both phones, kept once"] + (changes ?? [])
    case (let before as DiaperChange, let after):
      var parts = ["\(owner(before.profileID)) \(time(before.timestamp)) diaper, logged on both phones, kept once"]
      if let after = after as? DiaperChange, after.type != before.type || after.timestamp != before.timestamp {
        parts.append("\(owner(before.profileID)) \(time(before.timestamp)) diaper changed to \(after.type.rawValue) at \(time(after.timestamp))")
      }
      return parts
    default:
      return []
    }
  }

  /// What an update of a feed changed, each part in words.
  private static func feedChanges(
    _ before: FeedSession, _ after: FeedSession, owner: String, newBaby: String?, time: (Date) -> String
  ) -> [String] {
    let feed = "\(owner) \(time(before.startTime)) feed"
    var parts: [String] = []
    if before.startTime != after.startTime || before.endTime != after.endTime {
      parts.append("\(feed) now " + time(after.startTime) + (after.endTime.map { "–" + time($0) } ?? ", in progress"))
    }
    if before.amountValue != after.amountValue || before.amountUnitSymbol != after.amountUnitSymbol {
      let now = amount(after) ?? "none"
      parts.append("\(feed) amount changed to \(now)" + (amount(before).map { " (was \($0))" } ?? ""))
    }
    if before.memoText != after.memoText {
      parts.append(after.memoText.map { "\(feed) memo changed to \"\(TextLayout.singleLine($0))\"" } ?? "\(feed) memo cleared")
    }
    if before.profileID != after.profileID { parts.append(newBaby.map { "\(feed) now \($0)'s" } ?? "\(feed) no longer has a baby") }
    return parts
  }

  private static func amount(_ feed: FeedSession) -> String? {
    guard let value = feed.amountValue, let unit = feed.amountUnitSymbol else { return nil }
    return AmountText.format(value, unitSymbol: unit)
  }
}
