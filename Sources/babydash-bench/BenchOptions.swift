import Foundation

/// The command line of `babydash-bench`, parsed strictly: an unknown option or a bad value is an
/// error that names it.
///
/// ```
/// babydash-bench [--sizes 1000,20000,100000] [--quick] [--shared-only]
/// babydash-bench --mp SIZE [--procs 4] [--commits 200]
/// babydash-bench --peer PATH [--pairs 5] [--sizes 20000,100000] [--quick] [--mp-size 20000] [--procs 4] [--commits 200]
/// ```
struct BenchOptions: Equatable {
  enum Mode: Equatable {
    /// The figures at each size, as a table and one JSON line per size.
    case figures
    /// Several writer processes at once on a store of `size` objects: one JSON line.
    case multiProcess(size: Int)
    /// Ours and the peer's executable interleaved, `pairs` times: a markdown table of ratios.
    case peer(executable: String)
    /// Internal: open the store in this folder, fetch all feeds, print the peak RSS.
    case rssProbe(store: String)
    /// Internal: one writer of `multiProcess`.
    case multiProcessWriter(store: String, index: Int, commits: Int, startAt: Double)
  }

  var mode = Mode.figures
  var sizes = [1_000, 20_000, 100_000]
  var quick = false
  /// Leave out what the peer does not measure (legacy import, previews), to save time in pairs.
  var sharedOnly = false
  var pairs = 5
  var multiProcessSize = 20_000
  var procs = 4
  var multiProcessCommits: Int?

  static let usage = """
    usage: babydash-bench [--sizes 1000,20000,100000] [--quick] [--shared-only]
           babydash-bench --mp SIZE [--procs 4] [--commits 200]
           babydash-bench --peer PATH [--pairs 5] [--sizes 20000,100000] [--quick] [--mp-size 20000] [--procs 4] [--commits 200]
    """

  init(_ arguments: [String]) throws(BenchUsageError) {
    var rest = arguments[...]
    var sawSizes = false
    func value(_ name: String) throws(BenchUsageError) -> String {
      guard let value = rest.popFirst() else { throw BenchUsageError(message: "\(name) needs a value") }
      return value
    }
    func count(_ name: String, atLeast minimum: Int) throws(BenchUsageError) -> Int {
      let text = try value(name)
      guard let number = Int(text), number >= minimum else {
        throw BenchUsageError(message: "bad value '\(text)' for \(name): a whole number, at least \(minimum)")
      }
      return number
    }
    while let argument = rest.popFirst() {
      switch argument {
      case "--quick": quick = true
      case "--shared-only": sharedOnly = true
      case "--sizes":
        let text = try value(argument)
        let parsed = text.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard !parsed.isEmpty, parsed.allSatisfy({ ($0 ?? 0) >= 10 }) else {
          throw BenchUsageError(message: "bad value '\(text)' for --sizes: comma-separated object counts, each at least 10")
        }
        sizes = parsed.map { $0! }
        sawSizes = true
      case "--mp": mode = .multiProcess(size: try count(argument, atLeast: 10))
      case "--mp-size": multiProcessSize = try count(argument, atLeast: 10)
      case "--procs": procs = try count(argument, atLeast: 1)
      case "--commits": multiProcessCommits = try count(argument, atLeast: 1)
      case "--pairs": pairs = try count(argument, atLeast: 1)
      case "--peer": mode = .peer(executable: try value(argument))
      case "--rss-probe": mode = .rssProbe(store: try value(argument))
      case "--mp-writer":
        let store = try value(argument)
        let index = try count(argument, atLeast: 0)
        let commits = try count(argument, atLeast: 1)
        let start = try value(argument)
        guard let startAt = Double(start) else { throw BenchUsageError(message: "bad start time '\(start)' for --mp-writer") }
        mode = .multiProcessWriter(store: store, index: index, commits: commits, startAt: startAt)
      case "-h", "--help": throw BenchUsageError(message: nil)
      default: throw BenchUsageError(message: "unknown argument '\(argument)'")
      }
    }
    // The pairs compare the sizes the targets name, unless told otherwise.
    if case .peer = mode, !sawSizes { sizes = [20_000, 100_000] }
  }

  /// Repetitions: the median of this many runs is reported.
  var runs: Int { quick ? 3 : 7 }
  var bulkRuns: Int { quick ? 1 : 3 }
  var commits: Int { quick ? 40 : 200 }
  /// Commits per writer process: 200 as the figure, 50 when quick.
  var commitsPerProcess: Int { multiProcessCommits ?? (quick ? 50 : 200) }
}

/// A usage error; `nil` asks for the usage text alone (`--help`).
struct BenchUsageError: Error, Equatable {
  var message: String?
}
