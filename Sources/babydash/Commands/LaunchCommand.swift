import ArgumentParsing
import BabyDashboard
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `babydash launch`: the step the app runs at launch (``BabyDashboardLaunch``), on this app
/// group, printing what it did.
enum LaunchCommand {
  static let batchSize = Option<Int>("--batch-size", "N", help: "objects per save of the import (default: \(LegacyImporter.defaultBatchSize))")
  static let timing = Flag("--timing", help: "print how long the launch step took, on standard error")
  /// The test hook: the process stops itself (SIGSTOP) at the named point, having said so on
  /// standard error, for the tests that kill a launch part-way.
  static let stopVariable = "BABYDASH_TEST_STOP_AT"

  static let command = Command(
    words: ["launch"], synopsis: "[--app-version VERSION] [--batch-size N] [--timing]",
    summary: "Run the app's launch step: import the SwiftData store and backfill the last amounts if due; print what it did.",
    options: [FlagsCommands.appVersion.spec, batchSize.spec, timing.spec],
    details: """
      It finds the SwiftData store (DIR/BabyDashboard.sqlite with its -wal and -shm) and what the
      store holds, and by the flags (see `babydash flags`) and the migration record decides what
      is left: the import, in batches, and the one-time backfill of the last feed amounts. It
      writes the migration log and the telemetry report into the preferences. A launch with
      everything done opens nothing and writes nothing. Run again after a kill, it finishes the
      work (and counts the kill as a crash). Exit 65 when something failed (it is reported and
      counted; the next launch tries again). It also says when another device of the family runs
      a newer version of the app, or when this one waits for another's update before it writes a
      newer change-file format (`versions:`).
      For tests, $\(stopVariable)=POINT stops the process at that point (started,
      import-batch-N, imported, backfill-baby-N, backfilled, finished).

      Examples:
        babydash launch
        babydash launch --app-version 2.1 --timing
      """
  ) { invocation in
    let session = invocation.session
    let size = try invocation.value(batchSize) ?? LegacyImporter.defaultBatchSize
    guard size > 0 else { throw invocation.usageError("bad value '\(size)' for --batch-size: at least 1") }
    let fixedNow = session.nowIsFixed ? session.now : nil
    var launch = BabyDashboardLaunch(
      appGroupDirectory: session.appGroupDirectory, keyValueStore: session.keyValueStore,
      deviceID: session.environment[Session.deviceIDVariable].flatMap { $0.isEmpty ? nil : $0 },
      appVersion: try invocation.value(FlagsCommands.appVersion)?.version, batchSize: size, clock: { fixedNow ?? Date() })
    launch.storeOptions = session.storeOptions(syncFolder: session.syncFolder)
    if let point = session.environment[stopVariable], !point.isEmpty {
      let output = invocation.output
      launch.checkpoint = { name in
        guard name == point else { return }
        // Through the throwing writer: FileHandle.write traps on a closed pipe or a full disk.
        try? output.error("babydash: test hook: stopped at \(name)")
        raise(SIGSTOP)
      }
    }
    let started = ContinuousClock.now
    let report = launch.run(openingStore: { try session.store() })
    let elapsed = ContinuousClock.now - started
    try invocation.output.print(report.description)
    if invocation.has(timing) {
      let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
      try invocation.output.error("launch step: \(String(format: "%.3f", milliseconds)) ms")
    }
    if let problem = report.problems.first {
      throw CommandLineError.data(problem + (report.problems.count > 1 ? " (and \(report.problems.count - 1) more, above)" : ""))
    }
  }
}
