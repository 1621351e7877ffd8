import BabyDashboardTesting
import Foundation
import PlainStore
import Testing

/// The differential judge (``DifferentialSyncTests``) over in-memory devices: the same seeded
/// operations, every cache checked against a rebuild of its files after every step, every
/// device ending with the same data as one device making the saves in stamp order — with the
/// stores in memory and their files carried by a ``MemorySyncSpace`` at each sync. An in-memory
/// store is the same machine as a store on disk, so it is held to the same judge; and a family
/// of file and in-memory devices syncing through one space ends the same too.
///
/// Copies of a store, lost caches of in-memory devices and `babydash` processes need folders
/// on disk, and the fake engine's partial and doubled deliveries need its folders: those runs
/// are ``DifferentialSyncTests``'s. `DIFFERENTIAL_MEMORY_SEEDS=N` runs more seeds.
@Suite struct InMemoryDifferentialSyncTests {
  static let seedCount = DifferentialSyncTests.environment["DIFFERENTIAL_MEMORY_SEEDS"].flatMap(Int.init) ?? 160
  static let parts = 4

  /// Seeds that once failed beyond the default count, run in part 0 of every run. 246, 619,
  /// 747, 805, 948 and 1500: an insert that merged into a stored object whose values it already
  /// held (or an edit addressed to an alias) changed nothing in the cache, so nothing noted that
  /// the survivor had been written, and an older write of it arriving later was merged alone
  /// over the newer one (`WriteStamps.note`). 1799: a merge of
  /// arrivals alone took a feed logged at another's start, arriving with the other's delete,
  /// as never having met it, the other seeded as holding its start only since its last edit
  /// (`keyHeldBeforeItsSeed`).
  static let regressionSeeds = [246, 619, 747, 805, 948, 1500, 1799]

  /// Every `parts`-th seed from `part` (and in part 0 the regression seeds beyond them), or with
  /// `DIFFERENTIAL_SEED=N` that one alone (in part 0), its steps printed.
  static func seeds(part: Int, of parts: Int, below count: Int) -> [Int] {
    if let one = DifferentialSyncTests.environment["DIFFERENTIAL_SEED"].flatMap(Int.init) { return part == 0 ? [one] : [] }
    return Array(stride(from: part, to: count, by: parts)) + (part == 0 ? regressionSeeds.filter { $0 >= count } : [])
  }

  @Test(arguments: 0..<parts)
  func inMemoryDevicesEndTheSameAsOneDeviceMakingTheirSaves(part: Int) async throws {
    // Blocking work: on a thread of its own, so that the pool's threads stay free.
    let seeds = Self.seeds(part: part, of: Self.parts, below: Self.seedCount)
    let report = try await onOwnThread(computing: true) { DifferentialSyncTests.run(seeds: seeds, media: .memory) }
    #expect(report.failures.isEmpty, "\(report.failures.joined(separator: "\n"))")
    print("InMemoryDifferentialSyncTests part \(part): \(report.seeds) seeds, \(report.steps) steps, \(report.checkedAgainstOneDevice) held to one device")
    if report.seeds >= 20 && report.failures.isEmpty {
      #expect(report.checkedAgainstOneDevice == report.seeds, "a run without copies is always held to one device")
      #expect(report.merges.arrivalOnly > 0 && report.merges.full > 0)
    }
  }

  @Test(arguments: 0..<2)
  func aFamilyOfFileAndInMemoryDevicesEndsTheSame(part: Int) async throws {
    let seeds = Self.seeds(part: part, of: 2, below: Self.seedCount / 4)
    let report = try await onOwnThread(computing: true) { DifferentialSyncTests.run(seeds: seeds, media: .mixed) }
    #expect(report.failures.isEmpty, "\(report.failures.joined(separator: "\n"))")
    print("InMemoryDifferentialSyncTests mixed part \(part): \(report.seeds) seeds, \(report.steps) steps")
  }
}
