import Foundation
import PlainStore
import PlainStoreTesting

/// `cloud-sync`: opens the store with the simulated CloudKit whose server side lives in the
/// file `--cloud` names (shared with the parent and the other children: ``SimulatedCloudKit``'s
/// `sharedAt`), syncs — sends this device's files, then fetches `--fetch-batch` records a batch
/// (default 1) — and prints `synced <items>`. `--kill-at PHASE` ends the process with SIGKILL the
/// moment the sync reaches PHASE (`cloudkit: sent`, `cloudkit: batch 3 written`, `cloudkit:
/// batch 3 saved`): a real kill, nothing cleaned up, at exactly that step.
struct CloudSyncMode {
  let arguments: StressArguments

  func run() throws {
    let killAt = try arguments.value(StressOptions.killAt, default: "")
    let cloudFile = try arguments.value(StressOptions.cloud, default: "")
    guard !cloudFile.isEmpty else { throw StressUsageError("cloud-sync needs --cloud FILE") }
    let cloud = SimulatedCloudKit(
      sharedAt: URL(fileURLWithPath: cloudFile), fetchBatchSize: try arguments.value(StressOptions.fetchBatch, default: 1))
    var options = StoreOptions(author: "cloud-sync", watchesOtherProcesses: false)
    options.carrier = .simulatedCloudKit(cloud, account: "family")
    options.phaseObserver = { phase in
      StressOutput.phase(phase)
      if phase == killAt { kill(getpid(), SIGKILL) }
    }
    StressOutput.phase("open")
    let container = try StoreContainer.file(at: arguments.store, schema: StressSchema.v1, options: options)
    try container.sync()
    StressOutput.line("synced \(try container.newBackgroundContext().fetch(FetchDescriptor<StressItem>()).count)")
  }
}
