import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Timing helpers: wall-clock milliseconds on a monotonic clock, medians and percentiles.
enum Timing {
  static func milliseconds(_ body: () throws -> Void) rethrows -> Double {
    let clock = ContinuousClock()
    let elapsed = try clock.measure(body)
    return Double(elapsed.components.seconds) * 1_000 + Double(elapsed.components.attoseconds) / 1e15
  }

  /// The median of `runs` timings of `body`, each after `prepare` (not timed).
  static func median(runs: Int, prepare: () throws -> Void = {}, _ body: () throws -> Void) rethrows -> Double {
    var samples: [Double] = []
    for _ in 0..<runs {
      try prepare()
      samples.append(try milliseconds(body))
    }
    return percentile(samples, 0.5)
  }

  /// The nearest-rank percentile of `samples`.
  static func percentile(_ samples: [Double], _ fraction: Double) -> Double {
    let sorted = samples.sorted()
    guard !sorted.isEmpty else { return .nan }
    let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
    return sorted[min(max(rank, 0), sorted.count - 1)]
  }

  /// This process's peak resident set size, in megabytes.
  ///
  /// On Linux this is VmHWM of /proc/self/status: getrusage's ru_maxrss carries the peak of the
  /// process that spawned this one across fork and exec, so a probe would report its parent's.
  static func peakResidentMegabytes() -> Double {
    #if canImport(Darwin)
      var usage = rusage()
      // RUSAGE_SELF, which Darwin declares as an Int32 and Glibc (standing in for Darwin's C
      // library in Scripts/check-apple-stub.sh) as an enum: 0 on both.
      let ownProcess: Int32 = 0
      getrusage(ownProcess, &usage)
      return Double(usage.ru_maxrss) / 1_048_576  // bytes on Darwin
    #else
      let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
      let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }
      let kilobytes = line?.split(separator: " ").dropFirst().first.flatMap { Double($0) }
      return (kilobytes ?? .nan) / 1_024
    #endif
  }
}

extension Timing {
  /// The CPU time this process has used so far (user and system, every thread), in
  /// milliseconds: what a run costs the machine, steadier than its wall clock on a busy one.
  static func processCPUMilliseconds() -> Double {
    var used = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &used)
    return Double(used.tv_sec) * 1e3 + Double(used.tv_nsec) / 1e6
  }

  /// Wall-clock milliseconds since 1970: the one clock several processes share, for a common
  /// start and a span across them (the monotonic clock is per boot, not comparable by design).
  static func wallMilliseconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Double(now.tv_sec) * 1e3 + Double(now.tv_nsec) / 1e6
  }

  /// The median of `values`: the middle one, or the mean of the two middle ones.
  static func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  }
}
