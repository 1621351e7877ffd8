import BabyDashboard
import Foundation
import PlainStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The child of ``MultiProcessBench``: opens the store, waits for the common start, commits
/// feeds one save each (the peer's ids and times), and prints `first last cpu samples` —
/// wall-clock milliseconds of its first commit's start and last commit's end, the CPU time the
/// commits took (every thread of the process), then each commit's latency.
enum MultiProcessWriter {
  static func run(store: URL, index: Int, commits: Int, startAt: Double) throws {
    let container = try StoreContainer.babyDashboard(inAppGroup: store, options: StoreOptions(author: "bench\(index)"))
    let context = container.newBackgroundContext()
    let babies = BenchHistory(objects: 10).babies  // only their ids
    while Timing.wallMilliseconds() < startAt { usleep(200) }
    var samples: [Double] = []
    let cpuBefore = Timing.processCPUMilliseconds()
    let first = Timing.wallMilliseconds()
    for serial in 0..<commits {
      let start = BenchHistory.now.addingTimeInterval(86_400 + Double(index) * 1_000_000 + Double(serial) * 60)
      let feed = FeedSession(
        uuid: BenchHistory.id(100 + index, serial), profileID: babies[serial % 2].id, startTime: start,
        endTime: start.addingTimeInterval(30), amountValue: 100, amountUnitSymbol: "mL")
      samples.append(
        try Timing.milliseconds {
          context.insert(feed)
          try context.save()
        })
    }
    let last = Timing.wallMilliseconds()
    let cpu = Timing.processCPUMilliseconds() - cpuBefore
    print(Report(first: first, last: last, cpu: cpu, samples: samples).line)
  }

  /// One writer's output line.
  struct Report: Equatable {
    var first: Double
    var last: Double
    var cpu: Double
    var samples: [Double]

    var line: String {
      "\(first) \(last) \(cpu) " + samples.map { String(format: "%.3f", $0) }.joined(separator: ",")
    }

    init(first: Double, last: Double, cpu: Double, samples: [Double]) {
      self.first = first
      self.last = last
      self.cpu = cpu
      self.samples = samples
    }

    init(parsing text: String) throws {
      let parts = text.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ")
      guard parts.count == 4, let first = Double(parts[0]), let last = Double(parts[1]), let cpu = Double(parts[2]) else {
        throw BenchRunError("a writer printed '\(text.prefix(200))', not 'first last cpu samples'")
      }
      let samples = parts[3].split(separator: ",").map { Double($0) }
      guard samples.allSatisfy({ $0 != nil }) else { throw BenchRunError("a writer printed a sample that is not a number") }
      self.init(first: first, last: last, cpu: cpu, samples: samples.map { $0! })
    }
  }
}
