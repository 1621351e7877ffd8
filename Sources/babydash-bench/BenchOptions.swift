import Foundation

/// `babydash-bench [--sizes 1000,20000] [--quick]`.
struct BenchOptions {
  var sizes = [1_000, 20_000, 100_000]
  var quick = false
  /// Internal: open the store in this folder, fetch all feeds, print the peak RSS, exit.
  var rssProbe: String?

  static let usage = "usage: babydash-bench [--sizes 1000,20000,100000] [--quick]"

  init(_ arguments: [String]) throws {
    var index = 0
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      switch argument {
      case "--quick":
        quick = true
      case "--sizes", "--rss-probe":
        guard index < arguments.count else { throw BenchUsageError(message: "\(argument) needs a value") }
        let value = arguments[index]
        index += 1
        if argument == "--rss-probe" {
          rssProbe = value
          continue
        }
        let parsed = value.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard !parsed.isEmpty, parsed.allSatisfy({ ($0 ?? 0) >= 10 }) else {
          throw BenchUsageError(message: "bad value '\(value)' for --sizes: comma-separated object counts, each at least 10")
        }
        sizes = parsed.map { $0! }
      case "-h", "--help":
        throw BenchUsageError(message: nil)
      default:
        throw BenchUsageError(message: "unknown argument '\(argument)'")
      }
    }
  }

  /// Repetitions: the median of this many runs is reported.
  var runs: Int { quick ? 3 : 7 }
  var bulkRuns: Int { quick ? 1 : 3 }
  var commits: Int { quick ? 40 : 200 }
}

struct BenchUsageError: Error {
  var message: String?
}
