import ArgumentParsing
import Foundation

/// The options of `plainstore-stress`, declared once: the parser, each mode and the help read them.
enum StressOptions {
  static let writer = Option<String>("--writer", "W", help: "the writer's name (default: w<pid>)")
  static let commits = Option<Int>("--commits", "M", help: "commits to make (write: 0 means until killed)")
  static let parts = Option<Int>("--parts", "P", help: "items per commit (default 1)")
  static let threshold = Option<Int>("--threshold", "T", help: "the compaction threshold (default 64)")
  static let retention = Option<Int>("--retention", "R", help: "log retention (default 256)")
  static let expectTotal = Option<Int>("--expect-total", "N", help: "wait until N items are seen, then print their digest")
  static let writers = Option<Int>("--writers", "N", help: "writer processes (default 4)")
  static let name = Option<String>("--name", "R", help: "the reader's name")
  static let consumeThrough = Option<Int>("--consume-through", "S", help: "mark history consumed through sequence S")
  static let pruneThrough = Option<Int>("--prune-through", "S", help: "then prune the history through sequence S")
  static let schema = Option<Int>("--schema", "1|2", help: "the schema version to open with (default 1)")
  static let list = Flag("--list", help: "print every item, one `item <id> <writer> <batch> <part>` line each")
  static let cloud = Option<String>("--cloud", "FILE", help: "the simulated CloudKit's server, shared through FILE")
  static let fetchBatch = Option<Int>("--fetch-batch", "N", help: "records a fetch brings at most (default 1)")
  static let killAt = Option<String>("--kill-at", "PHASE", help: "end with SIGKILL when the sync reaches PHASE (`cloudkit: batch 2 written`)")
  static let help = Flag("--help", help: "show this help (also -h)")

  /// Each mode: its name, what it does, and the options it reads.
  static let modes: [(name: String, summary: String, options: [OptionSpec])] = [
    ("write", "commit batches, printing each as it lands", [writer.spec, commits.spec, parts.spec, threshold.spec, retention.spec, expectTotal.spec]),
    ("bench", "several writer processes at once on a fresh store", [writers.spec, commits.spec, threshold.spec]),
    ("reader", "register a history reader", [name.spec, consumeThrough.spec, pruneThrough.spec]),
    ("open", "open the store (migrates, merges or rebuilds as opening does)", [schema.spec, list.spec]),
    ("compact", "open the store and compact its change files (a snapshot, then this device's acknowledged files go)", []),
    ("cloud-sync", "open the store on a simulated CloudKit shared through a file and sync", [cloud.spec, fetchBatch.spec, killAt.spec]),
  ]

  /// The help, from the declarations above.
  static var usage: String {
    var lines: [String] = []
    for (index, mode) in modes.enumerated() {
      let options = mode.options.map { " [\($0.name) \($0.value ?? "")]" }.joined()
      lines.append((index == 0 ? "usage: " : "       ") + "plainstore-stress \(mode.name) <store>\(options)")
    }
    let width = modes.map(\.name.count).max() ?? 0
    lines += ["", "Modes:"] + modes.map { "  " + $0.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + $0.summary }
    lines += ["", "Options:"] + OptionSpec.table(Array(Set(modes.flatMap(\.options))).sorted { $0.name < $1.name } + [help.spec])
    return lines.joined(separator: "\n")
  }
}

/// `plainstore-stress <mode> <store folder> [--option value]…`, parsed strictly by the shared
/// parser: an unknown option, one the mode does not read, or a value that is not a number is an
/// error that names it.
struct StressArguments {
  var mode: String
  var store: URL
  private let parsed: ParsedArguments

  /// - Throws: ``StressUsageError``; one with no message asks for the help alone.
  init(_ arguments: [String]) throws(StressUsageError) {
    let all = [StressOptions.help.spec] + StressOptions.modes.flatMap(\.options)
    do {
      parsed = try ParsedArguments(arguments, options: all)
    } catch {
      throw StressUsageError(error.message)
    }
    if parsed.has(StressOptions.help) { throw StressUsageError.helpAsked }
    guard parsed.positionals.count == 2 else { throw StressUsageError("expected a mode and a store folder") }
    mode = parsed.positionals[0]
    store = URL(fileURLWithPath: parsed.positionals[1], isDirectory: true)
    guard let declared = StressOptions.modes.first(where: { $0.name == mode }) else {
      throw StressUsageError("unknown mode '\(mode)'")
    }
    let known = Set(declared.options.map(\.name))
    if let unknown = parsed.given.first(where: { !known.contains($0) }) {
      throw StressUsageError("unknown option \(unknown) for mode '\(mode)'")
    }
  }

  /// The value of `option`, or `fallback` when it was not given.
  /// Whether `flag` was given.
  func has(_ flag: Flag) -> Bool { parsed.has(flag) }

  func value<Value>(_ option: Option<Value>, default fallback: Value) throws(StressUsageError) -> Value {
    do {
      return try parsed.value(option) ?? fallback
    } catch {
      throw StressUsageError(error.message)
    }
  }
}

struct StressUsageError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }

  /// `--help`: print the help, exit 0.
  static let helpAsked = StressUsageError("")
}
