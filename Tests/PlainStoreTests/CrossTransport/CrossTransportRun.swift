import BabyDashboard
import Foundation
import PlainStore

/// One seeded run of two phones on one carrier: parents adding and renaming babies, logging,
/// editing and deleting feeds and diapers through the ``Tracker``, the phones exchanging
/// everything at random moments. The run draws from its random alike on every carrier (a pick
/// reads only what the acting phone shows, the same on each carrier after each full exchange),
/// so every carrier sees the same saves; what each phone exports after each exchange is the
/// run's result.
struct CrossTransportRun {
  let seed: UInt64
  let world: CrossTransportCarrier.World
  var random: SplitMix64
  var nextID = 0
  let clock = CrossTransportClock()
  static let names = ["Ava", "Mia", "Leo"]
  /// Few starts, so that the phones log feeds on one unique key.
  static let starts = (0..<4).map { Date(timeIntervalSince1970: 1_773_090_000 + Double($0) * 1_800) }

  init(seed: UInt64, carrier: CrossTransportCarrier) {
    self.seed = seed
    world = CrossTransportCarrier.World(carrier, seed: seed)
    random = SplitMix64(seed: seed)
  }

  /// Each exchange's exports, phone by phone; a message when the phones differ after one.
  mutating func run(in folder: URL) throws -> [Data] {
    let clock = clock
    let phones = try (1...2).map { try CrossTransportPhone($0, in: folder, world: world, clock: { clock.now }) }
    var exports: [Data] = []
    for step in 0..<24 {
      clock.advance(by: Double(Int.random(in: 60..<600, using: &random)))
      if step == 23 || Int.random(in: 0..<5, using: &random) == 0 {
        try world.exchange(phones)
        let (one, two) = (try phones[0].export(), try phones[1].export())
        guard one == two else {
          throw CrossTransportFailure(description: "on \(world.carrier), after step \(step) the phones differ:\n\(text(one))\n---\n\(text(two))")
        }
        exports.append(one)
      } else {
        try act(on: phones[Int.random(in: 0..<2, using: &random)])
      }
    }
    return exports
  }

  mutating func freshID() -> UUID {
    nextID += 1
    return UUID(uuidString: String(format: "%08x-0000-4000-8000-%012x", Int(seed % 0xffff_ffff), nextID))!
  }

  /// One parent's action; one the tracker refuses (a feed in progress hidden, say) is refused
  /// alike on every carrier.
  mutating func act(on phone: CrossTransportPhone) throws {
    let context = phone.container.newBackgroundContext(author: "phone\(phone.number)")
    let id = freshID()
    let clock = clock
    let tracker = Tracker(context: context, cache: nil, now: { clock.now }, newID: { id })
    let babies = try context.fetch(FetchDescriptor<BabyProfile>()).sorted { $0.id.uuidString < $1.id.uuidString }
    let feeds = try context.fetch(FetchDescriptor<FeedSession>()).sorted { $0.uuid.uuidString < $1.uuid.uuidString }
    let diapers = try context.fetch(FetchDescriptor<DiaperChange>()).sorted { $0.uuid.uuidString < $1.uuid.uuidString }
    func pick<T>(_ items: [T]) -> T? { items.isEmpty ? nil : items[Int.random(in: 0..<items.count, using: &random)] }
    let name = Self.names[Int.random(in: 0..<Self.names.count, using: &random)]
    let start = Self.starts[Int.random(in: 0..<Self.starts.count, using: &random)]
    let amount = Int.random(in: 0..<8, using: &random)
    do {
      switch Int.random(in: 0..<9, using: &random) {
      case 0:
        try tracker.addBaby(name: name, createdAt: clock.now, allowingSameName: true)
      case 1, 2, 3:
        guard let baby = pick(babies) else { return }
        try tracker.logFeed(
          for: baby.id, start: start, end: amount % 3 == 0 ? nil : start + 1_200,
          amount: amount % 2 == 0 ? nil : LastFeedAmount(amountValue: Double(60 + 10 * amount), amountUnitSymbol: "mL"),
          memo: amount > 5 ? "#memo\(amount)" : nil, confirmed: true)
      case 4:
        guard let feed = pick(feeds) else { return }
        try tracker.editFeed(feed.uuid, amount % 2 == 0 ? FeedChanges(memoText: .some("#edit\(amount)")) : FeedChanges(endTime: .some(nil)), confirmed: true)
      case 5:
        guard let feed = pick(feeds) else { return }
        try tracker.deleteFeed(feed.uuid)
      case 6:
        guard let baby = pick(babies) else { return }
        try tracker.logDiaper(amount % 2 == 0 ? .pee : .poo, for: baby.id, at: start)
      case 7:
        guard let diaper = pick(diapers) else { return }
        try tracker.deleteDiaper(diaper.uuid)
      default:
        guard let baby = pick(babies) else { return }
        try tracker.renameBaby(baby.id, to: name + "\(amount)", allowingSameName: true)
      }
    } catch is ScreenModelError {}
  }

  func text(_ export: Data) -> String { String(decoding: export, as: UTF8.self) }
}

/// What a cross-transport run found wrong.
struct CrossTransportFailure: Error, CustomStringConvertible {
  var description: String
}

/// A run's wall clock, moved only by the run.
final class CrossTransportClock: Sendable {
  private let seconds = StoreMutex<Double>(1_773_100_000)
  var now: Date { Date(timeIntervalSince1970: seconds.withLock { $0 }) }
  func advance(by interval: Double) { seconds.withLock { $0 += interval } }
}
