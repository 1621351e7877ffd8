import BabyDashboard
import Foundation

/// A family's history as the benchmark stores it: two babies, fed and changed around the clock
/// for as many days as the size needs, the newest day ending at `now`. Same ids and times on
/// every run.
struct BenchHistory {
  var babies: [BabyProfile]
  var feeds: [FeedSession]
  var diapers: [DiaperChange]

  static let now = Date(timeIntervalSince1970: 1_790_000_000)  // 2026-09-21

  var objectCount: Int { babies.count + feeds.count + diapers.count }

  /// About `objects` objects: half feeds, half diaper changes, eight of each per baby per day.
  init(objects: Int) {
    let perDay = 2 * 8 * 2
    let days = max(1, (objects - 2) / perDay + 1)
    let start = Self.now.addingTimeInterval(-Double(days) * 86_400)
    babies = ["Mia", "Leo"].enumerated().map { index, name in
      BabyProfile(id: Self.id(1, index), name: name, createdAt: start.addingTimeInterval(Double(index) * 60))
    }
    feeds = []
    diapers = []
    var serial = 0
    outer: for day in 0..<days {
      for slot in 0..<8 {
        for (index, baby) in babies.enumerated() {
          guard feeds.count + diapers.count + 2 <= objects - babies.count else { break outer }
          serial += 1
          let feedStart = start.addingTimeInterval(Double(day * 86_400 + slot * 10_800 + index * 900))
          feeds.append(
            FeedSession(
              uuid: Self.id(2, serial), profileID: baby.id, startTime: feedStart,
              endTime: feedStart.addingTimeInterval(1_200), amountValue: Double(60 + serial % 90),
              amountUnitSymbol: "mL", memoText: serial % 5 == 0 ? "#night calm" : nil))
          diapers.append(
            DiaperChange(
              uuid: Self.id(3, serial), profileID: baby.id, timestamp: feedStart.addingTimeInterval(1_500),
              type: serial % 3 == 0 ? .poo : .pee))
        }
      }
    }
  }

  /// A fixed UUID from a kind and a serial number: the fixtures' one scheme, `KKKKKKKK-0000-4000-8000-SSSSSSSSSSSS`.
  static func id(_ kind: Int, _ serial: Int) -> UUID {
    IDSequence(namespace: UInt32(kind)).uuid(serial)
  }
}
