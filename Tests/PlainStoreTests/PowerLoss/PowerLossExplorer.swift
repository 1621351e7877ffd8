import Foundation
import PlainStore
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Issue #31's power-loss explorer, as ALICE and CrashMonkey do it: runs one operation of
/// `plainstore-stress` under the recording shim, builds every on-disk state a power loss during
/// it may leave (``PowerLossModel``), and opens each with `plainstore-stress open --list`, a real
/// process: it must open (an undamaged store is never refused) and hold every acknowledged
/// commit and nothing else.
struct PowerLossExplorer: Sendable {
  /// What the states must hold.
  enum Expectation: Sendable {
    /// A writer (`write --writer <name>`) commits: its commits whose `committed` line came
    /// before the cut are there, a later one may be, whole or not at all; nothing else changes.
    case writer(String)
    /// An open, a compaction or a migration: the items are what they were.
    case unchanged
  }

  struct Scenario: Sendable {
    var name: String
    /// Makes the store at the URL, as it is before the operation (not recorded).
    var prepare: @Sendable (URL) throws -> Void
    /// The recorded operation's arguments after its store.
    var mode: String
    var arguments: [String] = []
    var expectation: Expectation
    /// Options of the verifying open (`--schema 2`).
    var openArguments: [String] = []
    /// Fails (with why) when the operation did not do what the scenario is about.
    var check: @Sendable (_ before: URL, _ after: URL) -> String? = { _, _ in nil }
  }

  struct Report: Sendable {
    var name: String
    var operations: String
    var states = 0
    var failures: [String] = []
  }

  let shim: URL
  let scratch: URL
  /// How many states at most each scenario opens (sampled with `seed` when there are more).
  let statesPerScenario: Int
  let seed: UInt64

  /// Builds the shim; the reason when it cannot.
  static func make(scratch: URL) throws -> Result<PowerLossExplorer, CannotRunReason> {
    #if os(Linux)
      let source = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Scripts/fault-shim.c")
      let shim = scratch.appendingPathComponent("fault-shim.so")
      let compilers = ["/usr/bin/clang", "/opt/swift/usr/bin/clang"] + (ProcessInfo.processInfo.environment["PATH"] ?? "")
        .split(separator: ":").map { "\($0)/clang" }
      guard let clang = compilers.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
        return .failure(CannotRunReason(description: "no clang on this machine to build the recording shim"))
      }
      let built = try ToolRun.run(URL(fileURLWithPath: clang), ["-shared", "-fPIC", "-O1", "-o", shim.path, source.path, "-ldl", "-lpthread"], scratch: scratch)
      guard built.status == 0 else { return .failure(CannotRunReason(description: "clang could not build the shim: \(built.stderr)")) }
      let environment = ProcessInfo.processInfo.environment
      return .success(
        PowerLossExplorer(
          shim: shim, scratch: scratch, statesPerScenario: environment["POWERLOSS_STATES"].flatMap(Int.init) ?? 60,
          seed: environment["POWERLOSS_SEED"].flatMap { UInt64($0) } ?? 0x9_0E4_1055))
    #else
      return .failure(CannotRunReason(description: "the LD_PRELOAD shim is Linux-only"))
    #endif
  }

  struct CannotRunReason: Error, CustomStringConvertible {
    var description: String
  }

  func explore(_ scenario: Scenario) throws -> Report {
    let folder = scratch.appendingPathComponent("scenario-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let store = folder.appendingPathComponent("recorded/Shared.store")
    try FileManager.default.createDirectory(at: store.deletingLastPathComponent(), withIntermediateDirectories: true)
    try scenario.prepare(store)
    let before = folder.appendingPathComponent("before.store")
    if FileManager.default.fileExists(atPath: store.path) { try FileManager.default.copyItem(at: store, to: before) }
    let initial = try listing(copyOf: before, scratch: folder, openArguments: scenario.openArguments)

    // The recorded run, after the model has read the folder the store is in (the store may
    // not be there yet) as it is before it.
    let parent = store.deletingLastPathComponent()
    var model = try PowerLossModel(before: parent)
    let log = folder.appendingPathComponent("record")
    let run = try ToolRun.run(
      try MultiProcessChild.executableURL(), [scenario.mode, store.path] + scenario.arguments, scratch: folder,
      environment: ["LD_PRELOAD": shim.path, "FAULT_ROOT": realPath(parent), "FAULT_RECORD": log.path])
    guard run.status == 0 else {
      return Report(name: scenario.name, operations: "", failures: ["the recorded run exited \(run.status): \(run.stderr)"])
    }
    let operations = try FileOperationLog(parsing: Data(contentsOf: log))
    model.take(operations)
    var report = Report(name: scenario.name, operations: operations.summary)
    if let why = scenario.check(before, store) {
      report.failures.append("the operation did not do its work: \(why)")
      return report
    }
    let final = try listing(copyOf: store, scratch: folder, openArguments: scenario.openArguments)

    // What each cut must open to: the commits acknowledged before it, and maybe later ones.
    let allowed: @Sendable (Int) -> [[String]]
    switch scenario.expectation {
    case .unchanged:
      guard initial == final else {
        report.failures.append("the operation changed the items: \(initial.count) before, \(final.count) after")
        return report
      }
      allowed = { _ in [final] }
    case .writer(let writer):
      let commits = model.outputs.flatMap { output in
        output.text.split(separator: "\n").filter { $0.hasPrefix("committed ") }.map { line -> (index: Int, items: [String]) in
          let fields = line.split(separator: " ")
          let ids = fields.count > 3 ? fields[3].split(separator: ",").map(String.init) : []
          return (output.index, ids.enumerated().map { "item \($0.element) \(writer) \(fields[1]) \($0.offset)" })
        }
      }
      let byCount = (0...commits.count).map { count in (initial + commits.prefix(count).flatMap(\.items)).sorted() }
      guard byCount.last == final else {
        report.failures.append("the run without a power loss does not open to its commits: \(final.count) items, \(byCount.last!.count) expected")
        return report
      }
      allowed = { cut in
        let acknowledged = commits.filter { $0.index < cut }.count
        return Array(byCount[acknowledged...])
      }
    }

    // The states: at every cut, what reached the disk at most and at least, and samples between.
    var random = SplitMix64(seed: seed ^ UInt64(truncatingIfNeeded: scenario.name.utf8.reduce(5381) { ($0 << 5) &+ $0 &+ Int($1) }))
    var seen: Set<Int> = []
    var bounds: [PowerLossModel.State] = []
    var between: [PowerLossModel.State] = []
    // Enough samples that the states to choose from outnumber those opened, with few cuts too.
    let samples = max(2, 2 * statesPerScenario / (model.operationCount + 1))
    for cut in 0...model.operationCount {
      for (offset, state) in model.states(at: cut, samples: samples, random: &random).enumerated() {
        var hasher = Hasher()
        for (path, data) in model.tree(of: state).sorted(by: { $0.key < $1.key }) {
          hasher.combine(path)
          hasher.combine(data)
        }
        guard seen.insert(hasher.finalize()).inserted else { continue }
        if offset < 2 { bounds.append(state) } else { between.append(state) }
      }
    }
    bounds.shuffle(using: &random)
    between.shuffle(using: &random)
    let chosen = Array((bounds + between).prefix(statesPerScenario))
    report.states = chosen.count

    let failures = StoreMutex<[String]>([])
    let next = Atomic<Int>(0)
    let frozen = model
    DispatchQueue.concurrentPerform(iterations: 2) { _ in
      while true {
        let index = next.add(1, ordering: .relaxed).oldValue
        guard index < chosen.count else { return }
        let state = chosen[index]
        let place = folder.appendingPathComponent("state-\(index)")
        defer { try? FileManager.default.removeItem(at: place) }
        do {
          let opened = place.appendingPathComponent("Shared.store")
          try PowerLossModel.materialize(frozen.tree(of: state), into: place)
          let check = try ToolRun.run(
            try MultiProcessChild.executableURL(), ["open", opened.path, "--list"] + scenario.openArguments, scratch: place)
          let label = "cut \(state.cut)/\(frozen.operationCount) (\(state.entries.values.reduce(0, +)) entry changes, \(state.data.values.reduce(0, +)) data changes on disk)"
          guard check.status == 0 else {
            failures.withLock { $0.append("\(label): refused, exit \(check.status): \(check.stderr.prefix(400))") }
            continue
          }
          let items = check.stdout.split(separator: "\n").filter { $0.hasPrefix("item ") }.map(String.init)
          let expected = allowed(state.cut)
          if !expected.contains(items) {
            failures.withLock {
              $0.append("\(label): \(items.count) items, expected \(expected.map { String($0.count) }.joined(separator: " or "))")
            }
          }
        } catch {
          failures.withLock { $0.append("state \(index): the harness failed: \(error)") }
        }
      }
    }
    report.failures += failures.withLock { $0 }
    return report
  }

  func realPath(_ url: URL) -> String {
    guard let resolved = realpath(url.path, nil) else { return url.path }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  /// The sorted `item` lines of an open of a copy of `store`.
  func listing(copyOf store: URL, scratch: URL, openArguments: [String]) throws -> [String] {
    guard FileManager.default.fileExists(atPath: store.path) else { return [] }  // no store yet
    let copy = scratch.appendingPathComponent("listing-\(UUID().uuidString).store")
    try FileManager.default.copyItem(at: store, to: copy)
    defer { try? FileManager.default.removeItem(at: copy) }
    let run = try ToolRun.run(try MultiProcessChild.executableURL(), ["open", copy.path, "--list"] + openArguments, scratch: scratch)
    guard run.status == 0 else { throw ToolRun.Failed(description: "open of \(store.lastPathComponent) exited \(run.status): \(run.stderr)") }
    return run.stdout.split(separator: "\n").filter { $0.hasPrefix("item ") }.map(String.init)
  }
}
