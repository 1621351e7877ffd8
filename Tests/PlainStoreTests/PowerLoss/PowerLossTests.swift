import BabyDashboardTesting
import Foundation
import Testing

/// Issue #31: every on-disk state a power loss may leave during each kind of work the store
/// does, opened by a real process: it opens, with every acknowledged commit and nothing else.
/// `POWERLOSS_STATES` (default 60) bounds the states opened per scenario, sampled with
/// `POWERLOSS_SEED`; Scripts/check-flushes.sh runs this suite once per flush it removes.
@Suite struct PowerLossTests {
  typealias Scenario = PowerLossExplorer.Scenario

  /// At least this many distinct states opened per scenario (fewer exist only if the operation
  /// stopped doing its work).
  static let floors: [String: Int] = [
    "a new store's first commits": 40, "a small commit": 30, "a large commit": 10, "the journal's settling in a commit": 40, "the journal's settling at open": 6,
    "change compaction": 35, "segment compaction": 40, "a cache rebuild": 30, "history pruning": 20, "a merge": 30, "the format-1 migration": 30,
    "a schema migration": 40,
  ]

  static func stress(_ arguments: [String], _ store: URL) throws {
    let run = try ToolRun.run(try MultiProcessChild.executableURL(), [arguments[0], store.path] + arguments.dropFirst(), scratch: store.deletingLastPathComponent())
    guard run.status == 0 else { throw ToolRun.Failed(description: "plainstore-stress \(arguments) exited \(run.status): \(run.stderr)") }
  }

  static func files(under folder: URL) -> [String: Data] {
    var files: [String: Data] = [:]
    guard let walker = FileManager.default.enumerator(atPath: folder.path) else { return [:] }
    for case let path as String in walker {
      let url = folder.appendingPathComponent(path)
      if let data = try? Data(contentsOf: url) { files[path] = data }
    }
    return files
  }

  /// This device's change files.
  static func ownChanges(_ store: URL) -> [String] {
    files(under: store.appendingPathComponent("changes")).keys.filter { $0.hasSuffix(".json") && !$0.hasSuffix("device.json") }.sorted()
  }

  static func changed(_ before: URL, _ after: URL, under part: String) -> Bool {
    files(under: before).filter { $0.key.hasPrefix(part) } != files(under: after).filter { $0.key.hasPrefix(part) }
  }

  static var scenarios: [Scenario] {
    [
      Scenario(
        name: "a new store's first commits", prepare: { _ in },
        mode: "write", arguments: ["--writer", "b", "--commits", "2"], expectation: .writer("b")),
      Scenario(
        name: "a small commit", prepare: { try stress(["write", "--writer", "a", "--commits", "3"], $0) },
        mode: "write", arguments: ["--writer", "b", "--commits", "2"], expectation: .writer("b")),
      Scenario(
        name: "a large commit", prepare: { try stress(["write", "--writer", "a", "--commits", "2"], $0) },
        mode: "write", arguments: ["--writer", "big", "--commits", "1", "--parts", "1500"], expectation: .writer("big"),
        check: { _, after in
          // Over the journal's record limit (256 KB) and the concurrent-write threshold (1,000 changes).
          let large = files(under: after.appendingPathComponent("changes")).values.contains { $0.count > 256 * 1024 }
          return large ? nil : "no change file over 256 KB"
        }),
      Scenario(
        name: "the journal's settling in a commit",
        prepare: { store in
          // Commits until the journal is near its settle size (64 KB): the next two cross it.
          for round in 0..<60 where (try? Data(contentsOf: store.appendingPathComponent("local/journal")))?.count ?? 0 < 52_000 {
            try stress(["write", "--writer", "a\(round)", "--commits", "1", "--parts", "40"], store)
          }
        },
        mode: "write", arguments: ["--writer", "b", "--commits", "2", "--parts", "40"], expectation: .writer("b"),
        check: { before, after in
          let size = { (store: URL) in (try? Data(contentsOf: store.appendingPathComponent("local/journal")))?.count ?? 0 }
          return size(after) < size(before) ? nil : "the journal was not emptied (\(size(before)) bytes before, \(size(after)) after)"
        }),
      Scenario(
        name: "the journal's settling at open",
        prepare: { store in
          try stress(["write", "--writer", "a", "--commits", "3"], store)
          // A power loss took the newest change file's data; its record is in the journal.
          let newest = ownChanges(store).last!
          try Data().write(to: store.appendingPathComponent("changes/\(newest)"))
        },
        mode: "open", expectation: .unchanged,
        check: { _, after in
          ownChanges(after).allSatisfy { (try? Data(contentsOf: after.appendingPathComponent("changes/\($0)")))?.isEmpty == false }
            ? nil : "a change file is still empty"
        }),
      Scenario(
        name: "change compaction", prepare: { try stress(["write", "--writer", "a", "--commits", "6"], $0) },
        mode: "compact", expectation: .unchanged,
        check: { before, after in ownChanges(after).count < ownChanges(before).count ? nil : "no change file went" }),
      Scenario(
        name: "segment compaction", prepare: { try stress(["write", "--writer", "a", "--commits", "3"], $0) },
        mode: "write", arguments: ["--writer", "b", "--commits", "2", "--threshold", "4"], expectation: .writer("b"),
        check: { before, after in changed(before, after, under: "local/segments") ? nil : "no segment was written" }),
      Scenario(
        name: "history pruning",
        prepare: { store in
          try stress(["write", "--writer", "a", "--commits", "10", "--threshold", "4", "--retention", "0"], store)
          try stress(["reader", "--name", "widget"], store)
        },
        mode: "reader", arguments: ["--name", "widget", "--consume-through", "9", "--prune-through", "9"], expectation: .unchanged,
        check: { before, after in changed(before, after, under: "local/log") ? nil : "no log record was removed" }),
      Scenario(
        name: "a cache rebuild",
        prepare: { store in
          try stress(["write", "--writer", "a", "--commits", "4"], store)
          try Data().write(to: store.appendingPathComponent("local/rebuild"))
        },
        mode: "open", expectation: .unchanged,
        check: { _, after in
          FileManager.default.fileExists(atPath: after.appendingPathComponent("local/rebuild").path) ? "the rebuild marker is still there" : nil
        }),
      Scenario(
        name: "a merge",
        prepare: { store in
          // 63 transactions since the last compaction: the merge is the 64th, and compacts.
          try stress(["write", "--writer", "a", "--commits", "63", "--threshold", "1000"], store)
          let other = store.deletingLastPathComponent().appendingPathComponent("other.store")
          try stress(["write", "--writer", "o", "--commits", "4", "--parts", "5"], other)
          for device in try FileManager.default.contentsOfDirectory(atPath: other.appendingPathComponent("changes").path) {
            try FileManager.default.copyItem(
              at: other.appendingPathComponent("changes/\(device)"), to: store.appendingPathComponent("changes/\(device)"))
          }
          try FileManager.default.removeItem(at: other)
        },
        mode: "open", expectation: .unchanged,
        check: { before, after in changed(before, after, under: "local/segments") ? nil : "the merge was not compacted into segments" }),
      Scenario(
        name: "the format-1 migration", prepare: { try FormatOneStore.write(FormatOneStore.items(40), to: $0) },
        mode: "open", expectation: .unchanged,
        check: { _, after in ownChanges(after).isEmpty ? "no change file was written" : nil }),
      Scenario(
        name: "a schema migration",
        prepare: { try SchemaMigrationCrashTests.writeVersion1(SchemaMigrationCrashTests.items(60), to: $0) },
        mode: "open", arguments: ["--schema", "2"], expectation: .unchanged, openArguments: ["--schema", "2"],
        check: { before, after in changed(before, after, under: "store.json") ? nil : "store.json was not rewritten" }),
    ]
  }

  @Test func everyStateAPowerLossMayLeaveOpensWithEveryAcknowledgedCommitAndNothingElse() async throws {
    #if os(Linux)
      let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("powerloss-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(at: scratch) }
      let explorer: PowerLossExplorer
      switch try PowerLossExplorer.make(scratch: scratch) {
      case .success(let made): explorer = made
      case .failure(let reason):
        if ProcessInfo.processInfo.environment["CI"] == "true" { Issue.record("the power-loss explorer cannot run on CI: \(reason)") }
        else { print("PowerLossTests: skipped: \(reason)") }
        return
      }
      let only = ProcessInfo.processInfo.environment["POWERLOSS_SCENARIO"]
      let scenarios = Self.scenarios.filter { only == nil || $0.name == only }
      let started = ContinuousClock.now
      let reports = try await onOwnThread { try scenarios.map { try explorer.explore($0) } }
      for report in reports {
        print("PowerLoss: \(report.name): \(report.operations); \(report.states) states opened, \(report.failures.count) failed")
        for failure in report.failures.prefix(5) { print("PowerLoss: \(report.name): \(failure)") }
        #expect(report.failures.isEmpty, "\(report.name): \(report.failures.prefix(5).joined(separator: "\n"))")
        let floor = min(Self.floors[report.name] ?? 1, explorer.statesPerScenario)
        #expect(report.states >= floor, "\(report.name): \(report.states) states, at least \(floor) wanted")
      }
      print("PowerLoss: \(reports.map(\.states).reduce(0, +)) states in \(ContinuousClock.now - started)")
    #else
      print("PowerLossTests: skipped: the LD_PRELOAD shim is Linux-only")
    #endif
  }
}
