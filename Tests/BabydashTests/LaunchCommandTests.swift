import BabyDashboard
import Foundation
import SwiftDataStoreBuilder
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `babydash launch`: the app's launch step on an app group, killed part-way for real.
@Suite struct LaunchCommandTests {
  let tool: BabydashProcess
  static let now = "2026-03-01T00:00:00Z"
  /// phone-1 is cohort 1.
  static let phone = ["BABYDASH_DEVICE_ID": "phone-1"]

  init() throws { tool = try BabydashProcess() }

  /// Builds the family sample as the app group's `BabyDashboard.sqlite` with its `-wal` and `-shm`.
  static func familyStore(in folder: URL) throws {
    let json = ImportCommandTests.fixtures.appendingPathComponent("legacy/family.json")
    let export = try LegacyExport.decode(from: try Data(contentsOf: json), source: "family.json")
    try SwiftDataStoreBuilder().write(export, to: folder.appendingPathComponent("BabyDashboard.sqlite"))
  }

  @discardableResult
  func launch(_ extra: [String] = [], environment: [String: String] = phone) throws -> BabydashProcess.Result {
    try tool.run(["--now", Self.now, "launch"] + extra, environment: environment)
  }

  /// Starts a launch that stops itself at `point` (the test hook) and waits for it to say so on
  /// standard error — an event, not a delay.
  func launchStopped(at point: String, _ extra: [String] = []) throws -> ChildProcess {
    let child = try tool.start(["--now", Self.now, "launch"] + extra, environment: Self.phone.merging(["BABYDASH_TEST_STOP_AT": point]) { $1 })
    let line = Data("babydash: test hook: stopped at \(point)\n".utf8)
    var said = Data()
    while said.range(of: line) == nil {
      let chunk = child.err.fileHandleForReading.availableData
      if chunk.isEmpty { break }  // the end of its output: it ended without reaching the point
      said.append(chunk)
    }
    #expect(said.range(of: line) != nil, "never reached \(point): \(String(decoding: said, as: UTF8.self))")
    return child
  }

  /// Kills a stopped launch with SIGKILL and waits for its end.
  func kill(_ child: ChildProcess) {
    _ = signalProcess(child.process.processIdentifier, SIGKILL)
    child.process.waitUntilExit()
    #expect(child.process.terminationReason == .uncaughtSignal)
  }

  /// Starts a launch, stops it at `point` and kills it there.
  func launchKilled(at point: String, _ extra: [String] = []) throws {
    kill(try launchStopped(at: point, extra))
  }

  /// What the store holds, as `babydash export` writes it.
  func exported(_ tool: BabydashProcess) throws -> String {
    let result = try tool.run(["export"])
    #expect(result.status == 0, "\(result.stderr)")
    return result.stdout
  }

  @Test func aLaunchImportsTheSwiftDataStoreAndTheNextDoesNothingAndWritesNothing() throws {
    defer { tool.removeAll() }
    try Self.familyStore(in: tool.appGroup)
    let first = try launch()
    #expect(first.status == 0, "\(first.stderr)")
    #expect(first.stdout == """
      launch: done
      flags: lastFeedAmountCache on (built-in, enabled), legacyImporter on (built-in, enabled); cohort 1
      SwiftData store: BabyDashboard.sqlite with its -wal and -shm
      new store before: 0 babies, 0 feeds, 0 diaper changes
      import: wrote 4 babies, 8 feeds, 6 diaper changes; 0 already there, 2 duplicates skipped; migration log written
      backfill: 0 of 4 babies received a last feed amount (4 had one, 0 without any amount); marked done
      telemetry: launches 1, crashes 0, validation errors 0, import failures 0, divergences 0, backfill errors 0

      """, "\(first.stdout)")
    #expect(try tool.run(["stats"]).stdout.contains("legacy import of 'BabyDashboard.sqlite': imported"))
    let before = try tool.snapshot()
    let second = try launch()
    #expect(second.status == 0)
    #expect(second.stdout.hasPrefix("launch: nothing to do\n"), "\(second.stdout)")
    #expect(try tool.snapshot() == before)
  }

  @Test func aLaunchKilledDuringTheImportIsFinishedByTheNextAsOneImportWouldHaveLeftIt() throws {
    let clean = try BabydashProcess()
    defer {
      tool.removeAll()
      clean.removeAll()
    }
    try Self.familyStore(in: tool.appGroup)
    try Self.familyStore(in: clean.appGroup)
    try launchKilled(at: "import-batch-2", ["--batch-size", "3"])
    // Two saves of three objects made it (4 babies, 2 feeds); the rest did not, nor the record.
    let resumed = try launch(["--batch-size", "3"])
    #expect(resumed.status == 0, "\(resumed.stderr)")
    #expect(resumed.stdout.contains("new store before: 4 babies, 2 feeds, 0 diaper changes\n"), "\(resumed.stdout)")
    #expect(resumed.stdout.contains("import: wrote 0 babies, 6 feeds, 6 diaper changes; 6 already there, 2 duplicates skipped; migration log written"))
    #expect(resumed.stdout.contains("previous launch: did not finish (counted as a crash)\n"))
    // The killed launch never counted itself; the next counts it as a crash.
    #expect(resumed.stdout.contains("telemetry: launches 1, crashes 1, "))
    // The same store as an uninterrupted launch leaves.
    #expect(try clean.run(["--now", Self.now, "launch"], environment: Self.phone).status == 0)
    #expect(try exported(tool) == (try exported(clean)))
    let before = try tool.snapshot()
    #expect(try launch().stdout.hasPrefix("launch: nothing to do\n"))
    #expect(try tool.snapshot() == before)
  }

  @Test(arguments: ["started", "import-batch-1", "import-batch-6", "imported", "backfilled", "finished"])
  func aLaunchKilledAtAnyPointIsFinishedByTheNextAndThenNothingIsLeftToDo(_ point: String) throws {
    let clean = try BabydashProcess()
    defer {
      tool.removeAll()
      clean.removeAll()
    }
    try Self.familyStore(in: tool.appGroup)
    try Self.familyStore(in: clean.appGroup)
    try launchKilled(at: point, ["--batch-size", "3"])
    let resumed = try launch(["--batch-size", "3"])
    #expect(resumed.status == 0, "\(point): \(resumed.stderr)")
    // Killed at "finished", the launch had counted itself; at every point the kill is a crash.
    #expect(resumed.stdout.contains(point == "finished" ? "telemetry: launches 2, crashes 1, " : "telemetry: launches 1, crashes 1, "), "\(point): \(resumed.stdout)")
    #expect(try clean.run(["--now", Self.now, "launch"], environment: Self.phone).status == 0)
    #expect(try exported(tool) == (try exported(clean)), "\(point)")
    #expect(try tool.run(["stats"]).stdout.contains("migrationCompleted: schema"), "\(point)")
    let before = try tool.snapshot()
    #expect(try launch().stdout.hasPrefix("launch: nothing to do\n"), "\(point)")
    #expect(try tool.snapshot() == before, "\(point)")
  }

  @Test func aLaunchKilledJustBeforeTheRecordLeavesNoImportWithoutItsLogOrCutover() throws {
    defer { tool.removeAll() }
    try Self.familyStore(in: tool.appGroup)
    // "imported": every object, the log and the cutover are written; migrationCompleted is not.
    try launchKilled(at: "imported")
    let resumed = try launch()
    #expect(resumed.stdout.contains("import: wrote 0 babies, 0 feeds, 0 diaper changes; 18 already there, 2 duplicates skipped; migration log written"), "\(resumed.stdout)")
    #expect(try tool.run(["stats"]).stdout.contains("migrationCompleted: schema"))
    #expect(try tool.run(["flags", "set", "legacyImporter", "off"]).status == 0)
    #expect(try launch().stdout.contains("backout: nothing to hand back since the cutover\n"))
  }

  @Test func aLaunchKilledDuringTheBackfillIsFinishedByTheNext() throws {
    defer { tool.removeAll() }
    // Feeds logged while the cache was off: their amounts are for the backfill to find.
    #expect(try tool.run(["flags", "set", "lastFeedAmountCache", "off"]).status == 0)
    for name in ["Mia", "Noah", "Ava"] {
      #expect(try tool.run(at: "2026-02-28T08:00:00Z", ["baby", "add", name]).status == 0)
      #expect(try tool.run(at: "2026-02-28T09:00:00Z", ["feed", "log", name, "--start", "08:30", "--end", "08:50", "--amount", "90ml"]).status == 0)
    }
    #expect(try tool.run(["flags", "set", "lastFeedAmountCache", "on"]).status == 0)
    try launchKilled(at: "backfill-baby-1")
    let resumed = try launch()
    #expect(resumed.status == 0, "\(resumed.stderr)")
    #expect(resumed.stdout.contains("backfill: 2 of 3 babies received a last feed amount (1 had one, 0 without any amount); marked done"), "\(resumed.stdout)")
    #expect(resumed.stdout.contains("telemetry: launches 1, crashes 1, "))
    #expect(try launch().stdout.hasPrefix("launch: nothing to do\n"))
  }

  @Test func aSecondLaunchWhileOneIsAtWorkDoesNothingAndTheNextFinishes() throws {
    defer { tool.removeAll() }
    try Self.familyStore(in: tool.appGroup)
    let first = try launchStopped(at: "import-batch-1", ["--batch-size", "3"])
    let before = try tool.snapshot()
    let second = try launch()
    #expect(second.status == 0, "\(second.stderr)")
    #expect(second.stdout == "launch: another launch is at work (the app or another babydash); nothing done here\n")
    #expect(try tool.snapshot() == before)
    kill(first)
    let third = try launch()
    #expect(third.stdout.contains("import: wrote 1 baby, 8 feeds, 6 diaper changes; 3 already there, 2 duplicates skipped"), "\(third.stdout)")
  }

  @Test func aDamagedSwiftDataStoreIsReportedCountedAndExits65() throws {
    defer { tool.removeAll() }
    try Data("not a database".utf8).write(to: tool.appGroup.appendingPathComponent("BabyDashboard.sqlite"))
    let result = try launch()
    #expect(result.status == 65)
    #expect(result.stdout.contains("telemetry: launches 1, crashes 0, validation errors 1, "), "\(result.stdout)")
    #expect(result.stderr.hasPrefix("babydash: import: "), "\(result.stderr)")
  }

  @Test func theImporterOffForThisCohortLeavesTheSwiftDataStoreAlone() throws {
    defer { tool.removeAll() }
    try Self.familyStore(in: tool.appGroup)
    #expect(try tool.run(["flags", "set", "legacyImporter", "1"]).status == 0)
    let result = try launch()
    #expect(result.stdout.contains("import: not needed — the importer is off here (off: cohort 1 is in the control group)\n"), "\(result.stdout)")
    #expect(try tool.run(["flags", "set", "legacyImporter", "2"]).status == 0)
    #expect(try launch().stdout.contains("import: wrote 4 babies"))
  }
}

/// `kill(2)`, under a name the suite's own `kill(_:)` does not hide.
private func signalProcess(_ pid: pid_t, _ signal: Int32) -> Int32 {
  kill(pid, signal)
}
