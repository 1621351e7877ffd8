import BabyDashboard
import Foundation
import PlainStore

/// One step of `JoinBench` in a process of its own, so that its peak RSS is the step's (with the
/// open it needs) and not the benchmark's: prints `{"ms":…,"peak_rss_mb":…}`.
/// - `open`: opens the store, merging nothing (the floor every step stands on);
/// - `join`: the first open of a phone whose sync folder holds a family's files (merges them all);
/// - `commit`: logs one feed on the writer;
/// - `merge`: merges what arrived on the phone (one feed's change file).
@MainActor
struct JoinStep {
  nonisolated static let steps = ["open", "join", "commit", "merge"]
  let step: String
  let folder: URL

  func run() throws -> String {
    var quiet = StoreOptions(watchesOtherProcesses: false)
    quiet.mergesArrivalsOnOpen = false
    let milliseconds: Double
    switch step {
    case "join":
      milliseconds = try Timing.milliseconds { _ = try StoreContainer.babyDashboard(inAppGroup: folder) }
    case "commit":
      let store = try StoreContainer.babyDashboard(inAppGroup: folder, options: quiet)
      let context = store.newBackgroundContext()
      let baby = try context.fetch(FetchDescriptor<BabyProfile>(sortBy: [SortDescriptor(\.createdAt)]))[0]
      let feed = FeedSession(
        uuid: BenchHistory.id(9, 0), profileID: baby.id, startTime: BenchHistory.now.addingTimeInterval(7_200),
        endTime: BenchHistory.now.addingTimeInterval(8_100), amountValue: 100, amountUnitSymbol: "mL")
      milliseconds = try Timing.milliseconds {
        context.insert(feed)
        try context.save()
      }
    case "merge":
      let store = try StoreContainer.babyDashboard(inAppGroup: folder, options: quiet)
      milliseconds = try Timing.milliseconds { _ = try store.sync() }
    default:
      milliseconds = try Timing.milliseconds { _ = try StoreContainer.babyDashboard(inAppGroup: folder, options: quiet) }
    }
    return "{\"ms\":\(BenchNumber.json(milliseconds)),\"peak_rss_mb\":\(BenchNumber.json(Timing.peakResidentMegabytes()))}"
  }

  /// Runs a step in a child process of this executable; its time and peak RSS.
  static func inChild(_ step: String, _ folder: URL) throws -> (ms: Double, rss: Double) {
    let output = try ChildProcess.run(["--join-step", step, folder.path])
    struct Line: Decodable {
      var ms: Double
      var peak_rss_mb: Double
    }
    guard let line = try? JSONDecoder().decode(Line.self, from: Data(output.utf8)) else {
      throw BenchRunError("the --join-step \(step) child printed no figures: \(output)")
    }
    return (line.ms, line.peak_rss_mb)
  }
}
