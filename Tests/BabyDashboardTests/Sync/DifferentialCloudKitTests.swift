import BabyDashboardTesting
import Foundation
import Testing

/// The differential judge (``DifferentialSyncTests``) with its devices exchanging through the
/// simulated CloudKit: every step's cache is the fold of its files, and after everything is
/// exchanged every device shows the same data, and what one device making every save in stamp
/// order shows. `DIFFERENTIAL_CLOUDKIT_SEEDS=N` runs more.
///
/// Copied stores included: its first runs found a copy skipping every record of its own id that
/// it lacked, so the copies never converged (seed 2); see `CloudExchange.write`.
@Suite struct DifferentialCloudKitTests {
  /// 300 seeds, as issue 56 asks: about 165 s of CPU (debug build, copied stores included),
  /// affordable once `_ByteView` stopped asking the runtime for metadata at every byte hashed.
  static let seedCount = DifferentialSyncTests.environment["DIFFERENTIAL_CLOUDKIT_SEEDS"].flatMap(Int.init) ?? 300

  /// Four parts, each on a thread of its own (see ``DifferentialSyncTests``).
  @Test(arguments: 0..<4)
  func devicesExchangingThroughCloudKitEndTheSame(part: Int) async throws {
    let report = try await onOwnThread(computing: true) { DifferentialSyncTests.run(seeds: Array(stride(from: part, to: Self.seedCount, by: 4)), throughCloudKit: true) }
    #expect(report.failures.isEmpty, "\(report.failures.joined(separator: "\n"))")
    if report.seeds >= 20 && report.failures.isEmpty {
      #expect(report.copies > 0 && report.checkedAgainstOneDevice >= report.seeds / 3)
    }
    print("DifferentialCloudKitTests part \(part): \(report.seeds) seeds, \(report.steps) steps, stores copied: \(report.copies), held to one device: \(report.checkedAgainstOneDevice)")
  }
}
