import BabyDashboardTesting
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Issue #13: every file of the app group, damaged every way a disk, a sync engine or a person
/// can damage it, under a read, `check` and a write — recovered, refused or tolerated; never a
/// hang, a crash, an empty view, a refused cache file or a lost write.
@Suite struct DamageMatrixTests {
  /// How many cases ended each way.
  struct Tally: Sendable, CustomStringConvertible {
    var tried = 0, recovered = 0, refused = 0, tolerated = 0, broke = 0, skipped = 0
    var description: String {
      "tried \(tried) / recovered \(recovered) / refused \(refused) / tolerated \(tolerated) / broke \(broke) (\(skipped) not applicable)"
    }
  }

  /// Every damage but mode 000 (``everyUnreadableFileIsRecoveredRefusedOrToleratedByEveryCommand()``).
  /// The floors are the run CI makes (README, "Storage faults"): fewer cases of an outcome mean
  /// cases stopped being tried, or a case changed its outcome — look at which.
  @Test func everyDamagedFileIsRecoveredRefusedOrToleratedByEveryCommand() async throws {
    let tally = try await Self.run(StoreDamage.allCases.filter { $0 != .unreadable }, label: "damage matrix")
    guard ProcessInfo.processInfo.environment["DAMAGE_MATRIX_ONLY"] == nil else { return }
    #expect(tally.tried >= 975, "\(tally)")
    #expect(tally.recovered >= 403, "\(tally)")
    #expect(tally.refused >= 203, "\(tally)")
    #expect(tally.tolerated >= 369, "\(tally)")
  }

  /// Mode 000, which does not stop root: as another user only (`.ci/run` runs this test with
  /// `setpriv`); on CI as root it fails rather than pass having tried nothing.
  @Test func everyUnreadableFileIsRecoveredRefusedOrToleratedByEveryCommand() async throws {
    guard geteuid() != 0 else {
      return CannotRun.report(
        "damage matrix, mode 000",
        "the tests run as root, whom mode 000 does not stop — run this test as another user (.ci/run runs it with setpriv as nobody)")
    }
    let tally = try await Self.run([.unreadable], label: "damage matrix, mode 000")
    guard ProcessInfo.processInfo.environment["DAMAGE_MATRIX_ONLY"] == nil else { return }
    #expect(tally.tried >= 66, "\(tally)")
    #expect(tally.recovered >= 26, "\(tally)")
    #expect(tally.refused >= 20, "\(tally)")
    #expect(tally.tolerated >= 20, "\(tally)")
  }

  /// Runs the cases of `damages`, prints the tally and every broken case, and expects none.
  static func run(_ damages: [StoreDamage], label: String) async throws -> Tally {
    let matrix = try DamageMatrix.make()
    defer { matrix.removeAll() }
    let cases = matrix.cases(damages)
    let started = ContinuousClock.now
    // On a thread of its own: minutes of waiting for children must not hold a shared thread.
    let results = try await onOwnThread { () -> [DamageMatrix.Outcome] in
      let outcomes = Collected<DamageMatrix.Outcome>(count: cases.count, initial: .skipped("not run"))
      TimedProcess.forEach(cases.count, width: 4) { index in outcomes.set(index, matrix.run(cases[index])) }
      return outcomes.all
    }
    var tally = Tally()
    var broke: [String] = []
    var skipped: Set<String> = []
    for (item, outcome) in zip(cases, results) {
      switch outcome {
      case .recovered: tally.recovered += 1
      case .refused: tally.refused += 1
      case .tolerated: tally.tolerated += 1
      case .skipped(let reason):
        tally.skipped += 1
        skipped.insert("\(item.damage): \(reason)")
      case .broke(let why):
        tally.broke += 1
        broke.append("\(item.label): \(why)")
      }
    }
    tally.tried = tally.recovered + tally.refused + tally.tolerated + tally.broke
    print(
      "\(label): \(matrix.files.count) files × \(damages.count) damages × \(DamageMatrix.Command.allCases.count) commands: \(tally) in \(ContinuousClock.now - started)")
    for reason in skipped.sorted() where reason.contains("skipped") { print("\(label): \(reason)") }
    for line in broke { print("\(label) broke: \(line)") }
    #expect(broke.isEmpty, "\(broke.count) cases broke:\n\(broke.joined(separator: "\n"))")
    return tally
  }

  /// Reads never write: on a store whose cache is whole, `status`, `export`, `history`, `check`
  /// and `sync status` leave every file under the app group as it was. (Merging change files
  /// that arrived from another device into local/ is a cache write, and allowed: the README's
  /// file-format section says so.)
  @Test func readingAStoreWhoseCacheIsWholeWritesNothing() throws {
    let matrix = try DamageMatrix.make()
    defer { matrix.removeAll() }
    let before = FileTree.snapshot(matrix.seed)
    for command in [["status"], ["export"], ["history"], ["check"], ["sync", "status"], ["baby", "list"], ["stats"]] {
      let result = try DamageMatrix.run(matrix.seed, DamageMatrix.now, command, scratch: matrix.scratch)
      #expect(result.status == 0, "\(command): \(result.stderr)")
      let changed = FileTree.differences(before, FileTree.snapshot(matrix.seed))
      #expect(changed.isEmpty, "\(command) wrote: \(changed)")
    }
  }
}
