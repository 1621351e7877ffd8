import BabyDashboard
import Foundation

extension Scenario {
  /// The cases screens get wrong: a day with a daylight-saving change (a feed that spans it),
  /// an orphan feed and diaper change, a feed in progress past its term, a long name, a
  /// non-Latin name, and two babies with the same name, with a cached amount written under that
  /// name (Phase A data): only the older Alex takes it, the second never borrows it.
  public static let edgeCases = Scenario(
    name: "edge-cases",
    summary: "DST day, orphans, a feed past its term, a long and a Korean name, two Alexes."
  ) { world in
    let long = makeBabyProfile(
      id: world.ids.uuid(1), name: "Alexandrina Maximiliana Featherstonehaugh-Vanderbilt the Third",
      createdAt: world.ago(days: 60))
    let haneul = makeBabyProfile(id: world.ids.uuid(2), name: "하늘", feedTerm: 7_200, createdAt: world.ago(days: 30))
    let alex = makeBabyProfile(id: world.ids.uuid(3), name: "Alex", createdAt: world.ago(days: 20))
    let otherAlex = makeBabyProfile(id: world.ids.uuid(4), name: "Alex", createdAt: world.ago(days: 10))

    var feeds = [
      // Started 4h 10m ago with a 3h term: still in progress, well past when the next was due.
      makeFeedSession(profile: long, start: world.ago(hours: 4, minutes: 10)),
      makeFeedSession(
        profile: long, start: world.ago(hours: 7, minutes: 30), end: world.ago(hours: 7), amountValue: 150,
        amountUnitSymbol: "mL"),
      makeFeedSession(
        profile: haneul, start: world.ago(hours: 1), end: world.ago(minutes: 40), amountValue: 60,
        amountUnitSymbol: "mL", memoText: "#낮잠 전에 조금"),
      makeFeedSession(
        profile: alex, start: world.ago(hours: 2), end: world.ago(hours: 1, minutes: 45), amountValue: 4,
        amountUnitSymbol: "oz"),
      makeFeedSession(
        profile: nil, start: world.ago(days: 1, hours: 2), end: world.ago(days: 1, hours: 1, minutes: 40),
        amountValue: 100, amountUnitSymbol: "mL", memoText: "Imported without a baby #legacy"),
    ]
    var diapers = [
      makeDiaperChange(profile: otherAlex, timestamp: world.ago(minutes: 15), type: .poo),
      makeDiaperChange(profile: haneul, timestamp: world.ago(minutes: 30), type: .pee),
      makeDiaperChange(profile: nil, timestamp: world.ago(days: 1, hours: 3), type: .pee),
    ]
    // Around the zone's last clock change, if it has one: a feed that starts before the change
    // and ends after it (20 minutes that read as 2h 20m or -40m on the wall clock).
    if let change = world.lastDaylightSavingTransition {
      feeds.append(makeFeedSession(
        profile: haneul, start: change.addingTimeInterval(-600), end: change.addingTimeInterval(600),
        amountValue: 80, amountUnitSymbol: "mL", memoText: "#밤 feed across the clock change"))
      diapers.append(makeDiaperChange(profile: haneul, timestamp: change.addingTimeInterval(-2_400), type: .pee))
      diapers.append(makeDiaperChange(profile: haneul, timestamp: change.addingTimeInterval(3_000), type: .poo))
    }
    return FixtureSet(
      babies: [long, haneul, alex, otherAlex], feeds: feeds, diapers: diapers,
      lastFeedAmounts: [
        .init(babyName: "Alex", amountValue: 4, amountUnitSymbol: "fl oz"),
        .init(babyName: long.name, amountValue: 150, amountUnitSymbol: "mL"),
      ])
  }
}
