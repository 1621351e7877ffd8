import BabyDashboardTesting
import Foundation
import Testing

/// Issue #13: every file of the app group, damaged every way a disk, a sync engine or a person
/// can damage it, under a read, `check` and a write — recovered, refused or tolerated; never a
/// hang, a crash, an empty view or a loss.
@Suite struct DamageMatrixTests {
  @Test func everyDamagedFileIsRecoveredRefusedOrToleratedByEveryCommand() async throws {
    let matrix = try DamageMatrix.make()
    defer { matrix.removeAll() }
    let cases = matrix.cases
    let started = ContinuousClock.now
    // On a thread of its own: minutes of waiting for children must not hold a shared thread.
    let results = try await onOwnThread { () -> [DamageMatrix.Outcome] in
      let outcomes = Collected<DamageMatrix.Outcome>(count: cases.count, initial: .skipped("not run"))
      TimedProcess.forEach(cases.count, width: 4) { index in outcomes.set(index, matrix.run(cases[index])) }
      return outcomes.all
    }
    var tally: [String: Int] = [:]
    var broke: [String] = []
    var skipped: Set<String> = []
    for (item, outcome) in zip(cases, results) {
      switch outcome {
      case .recovered: tally["recovered", default: 0] += 1
      case .refused: tally["refused", default: 0] += 1
      case .tolerated: tally["tolerated", default: 0] += 1
      case .skipped(let reason): skipped.insert("\(item.damage): \(reason)")
      case .broke(let why):
        tally["broke", default: 0] += 1
        broke.append("\(item.label): \(why)")
      }
    }
    let tried = tally.values.reduce(0, +)
    print(
      "damage matrix: \(matrix.files.count) files × \(StoreDamage.allCases.count) damages × \(DamageMatrix.Command.allCases.count) commands: "
        + "tried \(tried) / recovered \(tally["recovered", default: 0]) / refused \(tally["refused", default: 0]) / "
        + "tolerated \(tally["tolerated", default: 0]) / broke \(tally["broke", default: 0]) "
        + "(\(cases.count - tried) not applicable or skipped) in \(ContinuousClock.now - started)")
    for reason in skipped.sorted() where reason.contains("skipped") { print("damage matrix: \(reason)") }
    for line in broke { print("damage matrix broke: \(line)") }
    #expect(broke.isEmpty, "\(broke.count) cases broke:\n\(broke.joined(separator: "\n"))")
    #expect(tried > 500 || ProcessInfo.processInfo.environment["DAMAGE_MATRIX_ONLY"] != nil)
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
