import BabyDashboard
import Foundation

extension Scenario {
  /// Ten weeks of feeds and diaper changes across two babies, with hashtags in the memos:
  /// HistoryView's month and day grouping and its hashtag filter. The last three days are
  /// dense, the weeks before sparse (every third day), so the rendering stays readable.
  public static let monthsOfHistory = Scenario(
    name: "history",
    summary: "Ten weeks of feeds and diapers for Mia and Leo, memos with hashtags; Leo overdue."
  ) { world in
    let mia = makeBabyProfile(id: world.ids.uuid(1), name: "Mia", createdAt: world.ago(days: 80))
    let leo = makeBabyProfile(id: world.ids.uuid(2), name: "Leo", createdAt: world.ago(days: 75))
    let memos: [String?] = [
      "#night feed, sleepy", "Fussy, some #gas", "#bottle with dad", nil, "Good #latch",
      "#growthspurt again?", "Spit up a little #reflux", nil, "#night #bottle",
    ]
    var feeds: [FeedSession] = []
    var diapers: [DiaperChange] = []
    for daysAgo in 0..<70 {
      let dense = daysAgo < 3
      guard dense || daysAgo % 3 == 0 else { continue }
      for (b, baby) in [mia, leo].enumerated() {
        let slots: [(hour: Int, minute: Int)]
        switch (dense, b, daysAgo) {
        case (true, 0, 0): slots = [(1, 30), (5, 40), (9, 15)]
        case (true, 1, 0): slots = [(1, 50), (5, 50)]
        case (true, 0, _): slots = [(1, 30), (5, 40), (9, 15), (13, 0), (17, 30), (21, 45)]
        case (true, _, _): slots = [(1, 50), (5, 50), (10, 5), (14, 20), (19, 10)]
        default: slots = [(8 + (daysAgo + 3 * b) % 10, (daysAgo * 5 + 25 * b) % 60)]
        }
        for (i, slot) in slots.enumerated() {
          let start = world.date(daysAgo: daysAgo, hour: slot.hour, minute: slot.minute)
          let minutes = 15 + (daysAgo * 7 + i * 5) % 20
          let end = start.addingTimeInterval(TimeInterval(minutes * 60))
          let memo = memos[(daysAgo + 2 * i + 5 * b) % memos.count]
          if b == 0 {
            let ml = Double(90 + ((daysAgo * 17 + i * 11) % 7) * 10)
            feeds.append(makeFeedSession(
              profile: baby, start: start, end: end, amountValue: ml, amountUnitSymbol: "mL", memoText: memo))
          } else {
            let oz = 3 + Double((daysAgo + i) % 5) * 0.5
            feeds.append(makeFeedSession(
              profile: baby, start: start, end: end, amountValue: oz, amountUnitSymbol: "oz", memoText: memo))
          }
          if (daysAgo + i + b) % 2 == 0 {
            diapers.append(makeDiaperChange(profile: baby, timestamp: end.addingTimeInterval(600), type: .pee))
          }
          if (daysAgo + i + b) % 3 == 0 {
            diapers.append(makeDiaperChange(profile: baby, timestamp: start.addingTimeInterval(-1_200), type: .poo))
          }
        }
      }
    }
    return FixtureSet(
      babies: [mia, leo], feeds: feeds, diapers: diapers,
      lastFeedAmounts: [.init(babyName: "Mia", amountValue: 100, amountUnitSymbol: "mL")])
  }
}
