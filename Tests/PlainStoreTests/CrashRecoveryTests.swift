import Foundation
import PlainStore
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension MultiProcessTests {
  /// A writer killed with SIGKILL at random moments of its commits and compactions.
  @Suite struct CrashRecoveryTests {
    static let kills = 100

    @Test func killedWriterLeavesEveryReturnedCommitAndNoPartialOne() throws {
      let shared = MultiProcessFolder()
      defer { shared.remove() }
      do {
        let setup = try shared.open()
        try setup.historyReader(named: "audit").markConsumed(through: HistoryToken(sequence: 0))
      }
      var random = SplitMix64(seed: 0x5EED_0F_C4A5)
      var reported: [ReportedCommit] = []
      var audited = 0
      var roundsWithLeftovers = 0
      var phases = KillPhases()
      for round in 0..<Self.kills {
        let writer = "k\(round)"
        // Compact every third commit and keep two logs, so kills land in compactions and pruning too.
        let child = try MultiProcessChild([
          "write", shared.store.path, "--writer", writer, "--commits", "0", "--parts", "2",
          "--threshold", "3", "--retention", "2",
        ])
        if random.next() % 8 == 0 {
          _ = child.waitForLine(startingWith: "phase open", timeout: .seconds(30))
          usleep(UInt32(random.next() % 2_000))  // while it opens the store
        } else {
          _ = child.waitForLine(startingWith: "ready", timeout: .seconds(30))
          usleep(UInt32(random.next() % 120_000))  // while it commits and compacts
        }
        child.kill()
        let status = child.waitForExit()
        try #require(status == -SIGKILL, "round \(round): the writer ended by itself with \(status): \(child.errorText)")
        phases.record(child, killed: true)
        reported += child.lines.compactMap { ReportedCommit(line: $0, writer: writer) }
        if !Self.temporaryFiles(in: shared.store).isEmpty { roundsWithLeftovers += 1 }

        // The store opens (leftover temporary files ignored), with every returned commit whole.
        let container = try shared.open()
        let items = try container.newBackgroundContext().fetch(FetchDescriptor<MultiProcessItem>())
        try Self.expectWholeCommits(items, reported, round: round)
        if round % 10 == 9 { audited = try Self.audit(container, reported, consumedThrough: audited) }
      }

      // The next writer cleans the leftovers; history holds every transaction once.
      let container = try shared.open()
      let context = container.newBackgroundContext()
      context.insert(MultiProcessItem(id: UUID(), writer: "final", batch: 0, part: 0, at: Date(timeIntervalSince1970: 0)))
      try context.save()
      #expect(Self.temporaryFiles(in: shared.store) == [])
      audited = try Self.audit(container, reported, consumedThrough: audited)
      #expect(audited == container.currentToken.sequence)
      #expect(phases.shortfalls(["open": 3, "committing": Self.kills / 2]) == [], "\(phases)")
      print("CrashRecoveryTests: \(Self.kills) kills survived (by phase: \(phases)), \(reported.count) returned commits all present, \(audited) transactions audited, leftover temporary files after \(roundsWithLeftovers) kills")
    }

    @Test func creationKilledBeforeStoreJSONStillOpensAndIsCleaned() throws {
      let shared = MultiProcessFolder()
      defer { shared.remove() }
      // What a process killed between creating the folders and writing store.json leaves.
      for folder in ["local/segments", "local/log"] {
        try FileManager.default.createDirectory(at: shared.store.appendingPathComponent(folder), withIntermediateDirectories: true)
      }
      try Data().write(to: shared.store.appendingPathComponent("local/lock"))
      try Data("{\"formatVer".utf8).write(to: shared.store.appendingPathComponent(".store.json.1.2.tmp"))
      try Data("{".utf8).write(to: shared.store.appendingPathComponent("local/log/.00000001.json.1.3.tmp"))

      let container = try shared.open()
      let context = container.newBackgroundContext()
      context.insert(MultiProcessItem(id: UUID(), writer: "w", batch: 0, part: 0, at: Date(timeIntervalSince1970: 0)))
      #expect(try context.save().transaction?.sequence == 1)
      #expect(Self.temporaryFiles(in: shared.store) == [])
      #expect(try shared.open().newBackgroundContext().fetchCount(FetchDescriptor<MultiProcessItem>()) == 1)
    }

    /// Every commit a writer reported is there with its ids, and every batch has both parts.
    static func expectWholeCommits(_ items: [MultiProcessItem], _ reported: [ReportedCommit], round: Int) throws {
      let byID = Dictionary(uniqueKeysWithValues: items.map { ($0.id, $0) })
      for commit in reported {
        let found = commit.ids.compactMap { byID[$0] }
        try #require(
          found.count == commit.ids.count && found.allSatisfy { $0.writer == commit.writer && $0.batch == commit.batch },
          "round \(round): \(commit.writer) batch \(commit.batch) (transaction \(commit.sequence)) returned but is missing")
      }
      let batches = Dictionary(grouping: items) { "\($0.writer)/\($0.batch)" }
      for (batch, parts) in batches {
        try #require(parts.map(\.part).sorted() == [0, 1], "round \(round): batch \(batch) is partial: parts \(parts.map(\.part))")
      }
    }

    /// Reads the history the audit reader has not consumed: consecutive sequences, each reported
    /// commit under its own sequence with its ids; then consumes it, letting compaction prune.
    static func audit(_ container: StoreContainer, _ reported: [ReportedCommit], consumedThrough: Int) throws -> Int {
      let reader = container.historyReader(named: "audit")
      #expect(try reader.token() == HistoryToken(sequence: consumedThrough))
      let pending = try reader.pending()
      let last = container.currentToken.sequence
      #expect(pending.map(\.sequence) == Array(consumedThrough + 1..<last + 1))
      let bySequence = Dictionary(uniqueKeysWithValues: pending.map { ($0.sequence, $0) })
      for commit in reported where commit.sequence > consumedThrough {
        let transaction = try #require(bySequence[commit.sequence], "transaction \(commit.sequence) is not in the history")
        #expect(transaction.author == commit.writer)
        #expect(transaction.changes[MultiProcessItem.entityName]?.inserted == commit.ids.sorted(by: uuidOrder))
      }
      try reader.markConsumed(through: HistoryToken(sequence: last))
      return last
    }

    /// The temporary files interrupted atomic writes left, in every folder of the store.
    static func temporaryFiles(in store: URL) -> [String] {
      ["", "local", "local/segments", "local/log"].flatMap { folder in
        let names = (try? FileManager.default.contentsOfDirectory(atPath: store.appendingPathComponent(folder).path)) ?? []
        return names.filter { $0.hasPrefix(".") && $0.hasSuffix(".tmp") }.map { folder + "/" + $0 }
      }
    }
  }
}

/// A small seeded generator, so that a failing run of kill moments can be replayed.
struct SplitMix64: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
