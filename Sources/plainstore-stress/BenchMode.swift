import Foundation
import PlainStore

/// `bench`: the throughput driver. Starts `writers` copies of this program in `write` mode on
/// one fresh store, waits for them, checks the result (every item there, every sequence used
/// once) and prints commits per second over the wall time.
struct BenchMode {
  let arguments: StressArguments

  func run() throws {
    let writers = try arguments.value(StressOptions.writers, default: 4)
    let commits = try arguments.value(StressOptions.commits, default: 250)
    let threshold = try arguments.value(StressOptions.threshold, default: 64)
    guard writers > 0, commits > 0 else { throw StressUsageError("--writers and --commits must be positive") }
    guard !FileManager.default.fileExists(atPath: arguments.store.path) else {
      throw StressUsageError("bench wants a fresh store folder; '\(arguments.store.path)' exists")
    }
    let container = try StoreContainer.file(at: arguments.store, schema: StressSchema.v1)
    try container.historyReader(named: "bench").markConsumed(through: HistoryToken(sequence: 0))  // keep every log to audit

    let executable = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
    let clock = ContinuousClock()
    let start = clock.now
    let processes = try (0..<writers).map { index in
      let process = Process()
      process.executableURL = executable
      process.arguments = [
        "write", arguments.store.path, "--writer", "bench\(index)", "--commits", String(commits),
        "--threshold", String(threshold),
      ]
      process.standardOutput = FileHandle.nullDevice
      try process.run()
      return process
    }
    for process in processes { process.waitUntilExit() }
    let elapsed = clock.now - start
    if let failed = processes.first(where: { $0.terminationStatus != 0 }) {
      StressOutput.fail("a writer exited with status \(failed.terminationStatus)")
    }

    try container.refresh()
    let total = writers * commits
    let count = try container.newBackgroundContext().fetchCount(FetchDescriptor<StressItem>())
    // Every commit is a transaction, in order; a merge that folded a snapshot and changed no
    // object takes a sequence number but is no transaction.
    let sequences = try container.history(after: nil).map(\.sequence)
    guard count == total, sequences.count == total, zip(sequences, sequences.dropFirst()).allSatisfy({ $0 < $1 }) else {
      StressOutput.fail("expected \(total) items and \(total) transactions in order, found \(count) items and \(sequences.count) transactions")
    }
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    StressOutput.line(
      "writers=\(writers) commits_each=\(commits) total=\(total) seconds=\(String(format: "%.3f", seconds)) commits_per_second=\(Int((Double(total) / seconds).rounded()))"
    )
  }
}
