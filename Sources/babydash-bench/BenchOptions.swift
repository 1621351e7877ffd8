import ArgumentParsing
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
    /// The time from a change file's arrival in the sync folder to a live query's update, over
    /// `count` arrivals: one JSON line.
    case arrivals(count: Int)
    /// A phone joining a family of `size` objects: its first merge, its dashboard, one arrival's merge.
    case join(size: Int)
    /// Internal: open the store in this folder, fetch all feeds, print the peak RSS.
    case rssProbe(store: String)
    /// Internal: one step of `join` in a process of its own (see `JoinStep`).
    case joinStep(step: String, folder: String)
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
  /// Where the stores go when the caller (the pair runner) removes them itself, at its end.
  var scratch: String?

  // The options, declared once: the parser, the help and the code below read them.
  static let sizesOption = Option<SizeList>("--sizes", "N,N,…", help: "object counts to measure (default 1000,20000,100000)")
  static let quickOption = Flag("--quick", help: "fewer runs: medians of 3")
  static let sharedOnlyOption = Flag("--shared-only", help: "leave out what the peer does not measure (legacy import, previews)")
  static let mpOption = Option<Int>("--mp", "SIZE", help: "several writer processes at once on a store of SIZE objects", check: atLeast(10))
  static let mpSizeOption = Option<Int>("--mp-size", "SIZE", help: "the multi-process store size in the pairs (default 20000)", check: atLeast(10))
  static let procsOption = Option<Int>("--procs", "N", help: "writer processes (default 4)", check: atLeast(1))
  static let commitsOption = Option<Int>("--commits", "N", help: "commits per writer process (default 200, 50 with --quick)", check: atLeast(1))
  static let pairsOption = Option<Int>("--pairs", "N", help: "interleaved pairs with the peer (default 5)", check: atLeast(1))
  static let peerOption = Option<String>("--peer", "PATH", help: "the peer's executable: ours and its figures, interleaved, as ratios")
  static let rssProbeOption = Option<String>("--rss-probe", "STORE", help: "internal: open STORE, fetch all feeds, print the peak RSS")
  static let joinStepOption = Option<String>(
    "--join-step", "STEP", help: "internal: one step of --join (join, commit or merge) on the app group FOLDER that follows, in a process of its own")
  static let scratchOption = Option<String>("--scratch", "DIR", help: "internal: where the stores go, left for the caller to remove")
  static let mpWriterOption = Option<String>("--mp-writer", "STORE", help: "internal: one writer of --mp; followed by INDEX COMMITS START")
  static let joinOption = Option<Int>(
    "--join", "N", help: "a phone that joins a family of N objects: its first merge, its dashboard beside the writer's, one arrival's merge beside a local commit",
    check: atLeast(1))
  static let arrivalsOption = Option<Int>(
    "--arrivals", "N", help: "time from a change file's arrival in the sync folder to a live query's update, over N arrivals", check: atLeast(1))
  static let helpOption = Flag("--help", help: "show this help (also -h)")

  static let options = [
    sizesOption.spec, quickOption.spec, sharedOnlyOption.spec, mpOption.spec, mpSizeOption.spec, procsOption.spec,
    commitsOption.spec, pairsOption.spec, peerOption.spec, arrivalsOption.spec, joinOption.spec, rssProbeOption.spec, joinStepOption.spec, scratchOption.spec,
    mpWriterOption.spec, helpOption.spec,
  ]

  static let usage = """
    usage: babydash-bench [--sizes 1000,20000,100000] [--quick] [--shared-only]
           babydash-bench --mp SIZE [--procs 4] [--commits 200]
           babydash-bench --arrivals N
           babydash-bench --join N
           babydash-bench --peer PATH [--pairs 5] [--sizes 20000,100000] [--quick] [--mp-size 20000] [--procs 4] [--commits 200]

    Options:

    """ + OptionSpec.table(options).joined(separator: "\n")

  static func atLeast(_ minimum: Int) -> @Sendable (Int) -> String? {
    { $0 >= minimum ? nil : "a whole number, at least \(minimum)" }
  }

  init(_ arguments: [String]) throws(BenchUsageError) {
    do {
      try self.init(parsing: ParsedArguments(arguments, options: Self.options))
    } catch {
      throw BenchUsageError(message: error.message)
    }
  }

  private init(parsing parsed: ParsedArguments) throws(ArgumentError) {
    if parsed.has(Self.helpOption) { throw ArgumentError("") }
    quick = parsed.has(Self.quickOption)
    sharedOnly = parsed.has(Self.sharedOnlyOption)
    if let sizes = try parsed.value(Self.sizesOption) { self.sizes = sizes.counts }
    if let size = try parsed.value(Self.mpOption) { mode = .multiProcess(size: size) }
    multiProcessSize = try parsed.value(Self.mpSizeOption) ?? multiProcessSize
    procs = try parsed.value(Self.procsOption) ?? procs
    multiProcessCommits = try parsed.value(Self.commitsOption)
    pairs = try parsed.value(Self.pairsOption) ?? pairs
    scratch = try parsed.value(Self.scratchOption)
    if let peer = try parsed.value(Self.peerOption) {
      mode = .peer(executable: peer)
      // The pairs compare the sizes the issue's targets name, unless told otherwise.
      if parsed.text(Self.sizesOption) == nil { sizes = [20_000, 100_000] }
    }
    if let count = try parsed.value(Self.arrivalsOption) { mode = .arrivals(count: count) }
    if let size = try parsed.value(Self.joinOption) { mode = .join(size: size) }
    if let store = try parsed.value(Self.rssProbeOption) { mode = .rssProbe(store: store) }
    var rest = parsed.positionals[...]
    if let step = try parsed.value(Self.joinStepOption) {
      guard JoinStep.steps.contains(step), let folder = rest.popFirst() else {
        throw ArgumentError("--join-step needs one of \(JoinStep.steps.joined(separator: ", ")) and an app group FOLDER")
      }
      mode = .joinStep(step: step, folder: folder)
    }
    if let store = try parsed.value(Self.mpWriterOption) {
      func next<Value: ExpressibleByArgument>(_ name: String, _ type: Value.Type) throws(ArgumentError) -> Value {
        guard let text = rest.popFirst() else { throw ArgumentError("--mp-writer needs \(name) after STORE") }
        do throws(ArgumentValueError) {
          return try Value(argument: text)
        } catch {
          throw ArgumentError("bad value '\(text)' for --mp-writer \(name): \(error.reason)")
        }
      }
      let index = try next("INDEX", Int.self)
      let commits = try next("COMMITS", Int.self)
      let startAt = try next("START", Double.self)
      mode = .multiProcessWriter(store: store, index: index, commits: commits, startAt: startAt)
    }
    if let stray = rest.first { throw ArgumentError("unexpected argument '\(stray)'") }
  }

  /// Repetitions: the median of this many runs is reported.
  var runs: Int { quick ? 3 : 7 }
  var bulkRuns: Int { quick ? 1 : 3 }
  var commits: Int { quick ? 40 : 200 }
  /// Commits per writer process: 200 as the issue's figure, 50 when quick.
  var commitsPerProcess: Int { multiProcessCommits ?? (quick ? 50 : 200) }
}

/// A usage error; `nil` asks for the usage text alone (`--help`).
struct BenchUsageError: Error, Equatable {
  var message: String?

  init(message: String?) {
    self.message = message?.isEmpty == true ? nil : message
  }
}

/// `--sizes`: comma-separated object counts, each at least 10.
struct SizeList: ExpressibleByArgument {
  var counts: [Int]

  init(argument: String) throws(ArgumentValueError) {
    let parsed = argument.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
    guard !parsed.isEmpty, parsed.allSatisfy({ ($0 ?? 0) >= 10 }) else {
      throw ArgumentValueError(reason: "comma-separated object counts, each at least 10")
    }
    counts = parsed.map { $0 ?? 0 }
  }
}
