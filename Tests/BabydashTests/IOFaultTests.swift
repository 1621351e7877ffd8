import BabyDashboardTesting
import Foundation
import PlainStore
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Issue #13: an I/O fault at every write, fsync, rename, unlink, open and mkdir of a commit, a
/// compaction and a merge. What the command reports is what is on disk — exit 0 exactly when its
/// change is durable in a change file, a failure leaving nothing of it visible — and the store
/// opens afterwards with every acknowledged commit.
@Suite struct IOFaultTests {
  /// A command on a prepared copy of the seed, and the kind of work the faults land in.
  struct Scenario: Sendable {
    var name: String
    var group: URL
    var arguments: [String]
    var writes: Bool
    /// Where faults go, when not everywhere the command touches: a part of the path.
    var faultsIn: String? = nil
  }

  struct Tally: Sendable {
    var injected = 0, matched = 0, warned = 0
    var mismatched: [String] = []
  }

  @Test func theExitStatusOfEveryCommandUnderAnInjectedFaultIsWhatIsOnDisk() async throws {
    #if os(Linux)
      let matrix = try DamageMatrix.make()
      defer { matrix.removeAll() }
      guard let injection = try Self.injection(in: matrix) else { return }
      let scenarios = try Self.scenarios(matrix)
      var total = Tally()
      let started = ContinuousClock.now
      // On a thread of its own: minutes of waiting for children must not hold a shared thread.
      let runs = try await onOwnThread { try scenarios.map { try Self.inject(injection, $0, matrix) } }
      for (scenario, (tally, points)) in zip(scenarios, runs) {
      #expect(!scenario.name.contains("compact") || points.contains { $0.path.contains("/segments/") }, "\(scenario.name) did not compact")
        print(
          "I/O faults: \(scenario.name): injected \(tally.injected) / matched \(tally.matched) / mismatched \(tally.mismatched.count) (exit 0 with a warning: \(tally.warned))"
        )
        total.injected += tally.injected
        total.matched += tally.matched
        total.warned += tally.warned
        total.mismatched += tally.mismatched.map { "\(scenario.name): \($0)" }
      }
      print(
        "I/O faults: injected \(total.injected) / matched \(total.matched) / mismatched \(total.mismatched.count) in \(ContinuousClock.now - started)")
      for line in total.mismatched { print("I/O faults mismatched: \(line)") }
      #expect(total.mismatched.isEmpty, "\(total.mismatched.joined(separator: "\n"))")
      #expect(total.injected > 60)
    #else
      CannotRun.report("I/O faults", "the LD_PRELOAD shim is Linux-only")
    #endif
  }

  /// Issue #31: a commit whose journal record cannot be flushed, and whose record the journal
  /// then cannot be cut back to drop (every ftruncate fails too): the command fails, and no
  /// later open saves the commit after all — the record is spoiled in place.
  @Test func aFailedCommitWhoseJournalCannotBeCutBackDoesNotComeBack() throws {
    #if os(Linux)
      let matrix = try DamageMatrix.make()
      defer { matrix.removeAll() }
      guard let injection = try Self.injection(in: matrix) else { return }
      let write = ["--now", DamageMatrix.now, "diaper", "Mia", "pee"]
      let probe = matrix.scratch.appendingPathComponent("probe")
      try FileManager.default.copyItem(at: matrix.seed, to: probe)
      let flush = try #require(
        try injection.points(probe, write, scratch: matrix.scratch).first { $0.operation == "fsync" && $0.path.hasSuffix("local/journal") })
      let group = matrix.scratch.appendingPathComponent("group")
      try FileManager.default.copyItem(at: matrix.seed, to: group)
      let (result, hit) = try injection.run(group, write, scratch: matrix.scratch, fault: flush, extra: ["FAULT_ALSO": "truncate"])
      #expect(hit)
      #expect(result.status == 74, "\(result.stderr)")
      // The system's reason in words, no errno number: "I/O error at '…': cannot flush to disk: Input/output error".
      #expect(result.stderr.hasPrefix("babydash: I/O error at '"), "\(result.stderr)")
      let export = try DamageMatrix.run(group, DamageMatrix.now, ["export"], scratch: matrix.scratch, expect: 0)
      #expect(export.stdout == matrix.baselineExport, "the failed commit came back")
    #else
      CannotRun.report("I/O faults", "the LD_PRELOAD shim is Linux-only")
    #endif
  }

  /// The shim built into `matrix`'s scratch folder; nil, reported as a test that cannot run
  /// here, where it cannot be built.
  static func injection(in matrix: DamageMatrix, sourceLocation: SourceLocation = #_sourceLocation) throws -> FaultInjection? {
    switch try FaultInjection.build(into: matrix.scratch) {
    case .success(let built): return built
    case .failure(let reason):
      CannotRun.report("I/O faults", "\(reason)", sourceLocation: sourceLocation)
      return nil
    }
  }

  /// A commit; a commit that compacts; a read and a write that merge another device's change.
  static func scenarios(_ matrix: DamageMatrix) throws -> [Scenario] {
    func copy(_ name: String) throws -> URL {
      let group = matrix.scratch.appendingPathComponent("scenario-\(name)")
      try FileManager.default.copyItem(at: matrix.seed, to: group)
      return group
    }
    let commit = try copy("commit")
    let compaction = try copy("compaction")
    // 62 commits after the last compaction and the one after it: the next one compacts (the
    // threshold is 64 local transactions).
    for minute in 0..<62 {
      let now = String(format: "2026-01-14T%02d:%02d:00Z", 10 + minute / 60, minute % 60)
      try DamageMatrix.run(compaction, now, ["diaper", "Mia", minute.isMultiple(of: 2) ? "pee" : "poo"], scratch: matrix.scratch, expect: 0)
    }
    let merge = try copy("merge")
    let other = matrix.scratch.appendingPathComponent("scenario-other-device")
    let changes = merge.appendingPathComponent("BabyDashboard.store/changes").path
    try DamageMatrix.run(other, "2026-01-15T08:20:00Z", ["--sync-folder", changes, "baby", "add", "Ava", "--created-at", "2026-01-12T08:00:00Z"], scratch: matrix.scratch, expect: 0)
    try FileManager.default.removeItem(at: other)
    let mergeWrite = try copy("merge-write")
    try FileManager.default.removeItem(at: mergeWrite)
    try FileManager.default.copyItem(at: merge, to: mergeWrite)
    let rebuild = try copy("rebuild")
    try FileManager.default.removeItem(at: rebuild.appendingPathComponent("BabyDashboard.store/local/manifest.json"))
    let write = ["--now", DamageMatrix.now, "diaper", "Mia", "pee"]
    let read = ["--now", DamageMatrix.now, "status"]
    let largeImport = try copy("large-import")
    let export = matrix.scratch.appendingPathComponent("large-export.json")
    try Data(largeExport(feeds: 1_100).utf8).write(to: export)
    return [
      Scenario(
        name: "import of 1,101 objects in one save (its change file written on a thread of its own)", group: largeImport,
        arguments: ["--now", DamageMatrix.now, "import", export.path], writes: true,
        // The store's files only: a fault in the key-value store after the commit (the cache
        // backfill, migrationCompleted) leaves the records imported and says so, by design; the
        // rule above is one commit's.
        faultsIn: "/BabyDashboard.store/"),
      Scenario(name: "commit", group: commit, arguments: write, writes: true),
      Scenario(name: "commit that compacts", group: compaction, arguments: write, writes: true),
      Scenario(name: "read that merges", group: merge, arguments: read, writes: false),
      Scenario(name: "write that merges", group: mergeWrite, arguments: write, writes: true),
      Scenario(name: "read that rebuilds the cache", group: rebuild, arguments: read, writes: false),
    ]
  }

  /// A SwiftData-era JSON export of one baby and `feeds` feeds, three hours apart: imported in
  /// one save, a commit large enough to write its change file on a thread of its own.
  static func largeExport(feeds: Int) -> String {
    let baby = "55555555-5555-4555-8555-555555555555"
    let start = ISO8601.parse("2025-06-01T00:00:00Z")!
    let sessions = (0..<feeds).map { index in
      let time = start.addingTimeInterval(Double(index) * 3 * 3600)
      return """
        {"profileID": "\(baby)", "startTime": "\(ISO8601.format(time))", \
        "endTime": "\(ISO8601.format(time.addingTimeInterval(1200)))", "amountValue": \(100 + index % 50), "amountUnitSymbol": "ml"}
        """
    }
    return """
      {"format": "BabyDashboard.SwiftDataExport", "version": 1, "exportedAt": "2026-01-10T08:00:00Z",
      "babyProfiles": [{"id": "\(baby)", "name": "Ava", "feedTerm": 10800}],
      "feedSessions": [\(sessions.joined(separator: ",\n"))], "diaperChanges": []}
      """
  }

  /// This device's change files, by name.
  static func ownChanges(_ group: URL) throws -> Set<String> {
    let store = group.appendingPathComponent("BabyDashboard.store")
    let device = try String(contentsOf: store.appendingPathComponent("device-id"), encoding: .utf8)
      .trimmingCharacters(in: .whitespacesAndNewlines)
    let names = try FileManager.default.contentsOfDirectory(atPath: store.appendingPathComponent("changes/\(device)").path)
    return Set(names.filter { !$0.hasPrefix(".") && $0 != "device.json" })
  }

  static func inject(_ injection: FaultInjection, _ scenario: Scenario, _ matrix: DamageMatrix) throws -> (Tally, [FaultInjection.Point]) {
    let scratch = matrix.scratch
    let probe = scratch.appendingPathComponent("probe-\(UUID().uuidString)")
    try FileManager.default.copyItem(at: scenario.group, to: probe)
    let points = try injection.points(probe, scenario.arguments, scratch: scratch).filter { point in
      scenario.faultsIn.map(point.path.contains) ?? true
    }
    try FileManager.default.removeItem(at: probe)
    // What the command leaves without a fault, and what the store held before it.
    let clean = scratch.appendingPathComponent("clean-\(UUID().uuidString)")
    try FileManager.default.copyItem(at: scenario.group, to: clean)
    let export = ["--now", DamageMatrix.now, "export"]
    let before = try DamageMatrix.run(clean, DamageMatrix.now, ["export"], scratch: scratch, expect: 0).stdout
    let outputClean = try DamageMatrix.run(clean, DamageMatrix.now, Array(scenario.arguments.dropFirst(2)), scratch: scratch, expect: 0)
    let after = try DamageMatrix.run(clean, DamageMatrix.now, ["export"], scratch: scratch, expect: 0).stdout
    try FileManager.default.removeItem(at: clean)
    let ownBefore = try ownChanges(scenario.group)

    let results = Collected<FaultResult>(count: points.count, initial: .notHit)
    TimedProcess.forEach(points.count, width: 4) { index in
      let point = points[index]
      let folder = scratch.appendingPathComponent("fault-\(UUID().uuidString)")
      defer { try? FileManager.default.removeItem(at: folder) }
      do {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let group = folder.appendingPathComponent("group")
        try FileManager.default.copyItem(at: scenario.group, to: group)
        let code = point.operation == "write" ? ENOSPC : EIO
        let (result, hit) = try injection.run(group, scenario.arguments, scratch: folder, fault: point, errno: code)
        guard hit else { return results.set(index, .notHit) }
        let label = "\(point.operation) #\(point.nth) (\(point.path.split(separator: "/").suffix(3).joined(separator: "/")))"
        guard let status = result.status else { return results.set(index, .mismatched("\(label): hang")) }
        guard !result.signalled, [0, 65, 74].contains(status) else {
          return results.set(index, .mismatched("\(label): exit \(status) \(result.signalled ? "(a crash)" : ""): \(result.stderr.prefix(300))"))
        }
        let reopened = try DamageMatrix.run(group, DamageMatrix.now, Array(export.dropFirst(2)), scratch: folder)
        guard reopened.status == 0 else {
          let how = reopened.status.map { "exits \($0)\(reopened.signalled ? " (a crash)" : "")" } ?? "hangs (no end within \(Int(DamageMatrix.deadline)) s)"
          return results.set(index, .mismatched("\(label): exit \(status), then opening the store \(how): \(reopened.stderr.prefix(300))"))
        }
        let created = try ownChanges(group).subtracting(ownBefore)
        if scenario.writes {
          if status == 0 {
            guard created.count == 1, DamageMatrix.normalized(reopened.stdout, known: before) == DamageMatrix.normalized(after, known: before) else {
              return results.set(index, .mismatched("\(label): exit 0 but \(created.count) change files, export \(DamageMatrix.normalized(reopened.stdout, known: before) == DamageMatrix.normalized(after, known: before) ? "as expected" : "without the change")"))
            }
          } else {
            guard created.isEmpty, reopened.stdout == before else {
              return results.set(index, .mismatched("\(label): exit \(status) but \(created.count) change files are there, export \(reopened.stdout == before ? "as before" : "with the change"): \(result.stderr.prefix(200))"))
            }
          }
        } else {
          guard created.isEmpty, reopened.stdout == after else {
            return results.set(index, .mismatched("\(label): exit \(status), then the export lacks what had arrived"))
          }
          if status == 0, result.stdout != outputClean.stdout {
            return results.set(index, .mismatched("\(label): exit 0 with another view than without the fault"))
          }
        }
        let check = try DamageMatrix.run(group, DamageMatrix.now, ["check"], scratch: folder)
        guard check.status == 0 else {
          return results.set(index, .mismatched("\(label): check after it fails: \(check.stderr.prefix(300))"))
        }
        results.set(index, .matched(warned: status == 0 && result.stderr.contains("warning")))
      } catch {
        results.set(index, .mismatched("\(point.operation) #\(point.nth): the harness failed: \(error)"))
      }
    }
    var tally = Tally()
    for result in results.all {
      switch result {
      case .notHit: break
      case .matched(let warned):
        tally.injected += 1
        tally.matched += 1
        if warned { tally.warned += 1 }
      case .mismatched(let why):
        tally.injected += 1
        tally.mismatched.append(why)
      }
    }
    return (tally, points)
  }
}

private enum FaultResult: Sendable {
  case notHit, matched(warned: Bool), mismatched(String)
}
