import BabyDashboard
import Foundation
import Observation
import PlainStore

/// The time from a change file's arrival in the sync folder to an open live query's update,
/// with no call from the app: a writer device commits one feed at a time, a fake sync engine
/// carries its change file into the phone's sync folder as Syncthing does (a temporary name,
/// then a rename: the arrival), and the phone, watching, merges it and its live query of feeds
/// refetches. Prints one JSON line: the percentiles over `count` arrivals, in milliseconds.
/// Arrivals are ``pause`` apart; a burst within 10 ms is merged once, at the end of the 10 ms.
@MainActor
struct ArrivalBench {
  let count: Int
  let scratch: URL
  /// Milliseconds between one arrival's update and the next arrival.
  static let pause = 50

  func run() async throws -> String {
    let folder = scratch.appendingPathComponent("arrivals")
    let writer = try StoreContainer.babyDashboard(
      inAppGroup: folder.appendingPathComponent("writer"), options: StoreOptions(author: "writer", watchesOtherProcesses: false))
    let phone = try StoreContainer.babyDashboard(inAppGroup: folder.appendingPathComponent("phone"), options: StoreOptions(author: "app"))
    let baby = BabyProfile(id: BenchHistory.id(1, 0), name: "Mia", createdAt: BenchHistory.now)
    let context = writer.newBackgroundContext()
    context.insert(baby)
    try context.save()
    let engine = try FakeEngine(from: writer, to: phone)
    try engine.carry()
    let query = try phone.liveQuery(FetchDescriptor<FeedSession>())
    var samples: [Double] = []
    for serial in 0..<count {
      // Apart, as another phone's files come: the watcher takes a burst together, once per
      // 10 ms, and the figure is one arrival's way to the screen, not a burst's wait.
      try await Task.sleep(for: .milliseconds(Self.pause))
      let start = BenchHistory.now.addingTimeInterval(Double(serial) * 600)
      context.insert(
        FeedSession(
          uuid: BenchHistory.id(2, serial), profileID: baby.id, startTime: start, endTime: start.addingTimeInterval(900),
          amountValue: 90, amountUnitSymbol: "mL"))
      try context.save()
      guard let arrived = try engine.carry() else { throw BenchRunError("commit \(serial + 1) wrote no change file") }
      guard let updated = await Self.update(of: query, within: .seconds(10), where: { $0.count == serial + 1 }) else {
        throw BenchRunError("arrival \(serial + 1) of \(count) did not reach the live query within 10 s")
      }
      let elapsed = arrived.duration(to: updated)
      samples.append(Double(elapsed.components.seconds) * 1_000 + Double(elapsed.components.attoseconds) / 1e15)
    }
    let fields: [(String, String)] = [
      ("arrivals", String(count)),
      ("pause_ms", String(Self.pause)),
      ("arrival_to_query_p50_ms", BenchNumber.json(Timing.percentile(samples, 0.5))),
      ("arrival_to_query_p95_ms", BenchNumber.json(Timing.percentile(samples, 0.95))),
      ("arrival_to_query_max_ms", BenchNumber.json(samples.max() ?? .nan)),
    ]
    return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
  }

  /// When the query's results came to satisfy `condition` (the first update after which they
  /// do), or nil at `timeout`. Waits on Observation, never by polling.
  static func update<Value>(of query: LiveQuery<Value>, within timeout: Duration, where condition: (Value) -> Bool) async
    -> ContinuousClock.Instant?
  {
    let deadline = ContinuousClock.now.advanced(by: timeout)
    while ContinuousClock.now < deadline {
      let (changed, continuation) = AsyncStream<Void>.makeStream()
      withObservationTracking {
        _ = query.results
      } onChange: {
        continuation.yield()
        continuation.finish()
      }
      if condition(query.results) { return .now }
      let timer = Task {
        try? await Task.sleep(until: deadline)
        continuation.finish()
      }
      for await _ in changed { break }
      timer.cancel()
    }
    return condition(query.results) ? .now : nil
  }

  /// Carries the writer's change files into the phone's sync folder, each under a temporary
  /// name first and then renamed into place, as Syncthing does.
  struct FakeEngine {
    let source: URL
    let target: URL

    init(from writer: StoreContainer, to phone: StoreContainer) throws {
      guard let status = try writer.syncStatus(), let device = status.thisDevice, let phoneStatus = try phone.syncStatus() else {
        throw BenchRunError("the writer has no device id after its first commit")
      }
      source = status.folder.appendingPathComponent(device)
      target = phoneStatus.folder.appendingPathComponent(device)
    }

    /// Returns when the first file was renamed into place, if one was.
    @discardableResult
    func carry() throws -> ContinuousClock.Instant? {
      let files = FileManager.default
      try files.createDirectory(at: target, withIntermediateDirectories: true)
      let have = Set(try files.contentsOfDirectory(atPath: target.path))
      var first: ContinuousClock.Instant?
      for name in try files.contentsOfDirectory(atPath: source.path).sorted() where !name.hasPrefix(".") && !have.contains(name) {
        let temporary = target.appendingPathComponent(".syncthing.\(name).tmp")
        try files.copyItem(at: source.appendingPathComponent(name), to: temporary)
        if first == nil { first = .now }
        try files.moveItem(at: temporary, to: target.appendingPathComponent(name))
      }
      return first
    }
  }
}
