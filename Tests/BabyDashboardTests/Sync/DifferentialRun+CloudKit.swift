import Foundation
import PlainStore
import PlainStoreTesting

/// The differential run's devices exchanging through a simulated CloudKit instead of the fake
/// engine: each device is signed in to one account and carries its files by its own `sync()`,
/// and the cloud meets them with fetches delivered late, twice, out of order or dropped.
extension DifferentialRun {
  /// A new device's carrier: the run's space, or its cloud signed in to the family; else the folder.
  func carrier() -> SyncCarrier {
    if let space { return .memory(space) }
    guard let cloud else { return .folder }
    return .simulatedCloudKit(cloud, account: "family")
  }

  /// One exchange: every device (`partly`, some of them) syncs, in random order, sending its
  /// files and fetching the others'. Returns whether any device's files or the zone's records
  /// changed, or a fetch is still to be delivered badly: a sync that only sent changes no
  /// file of its own, and the others have yet to fetch what it sent.
  mutating func exchange(through cloud: SimulatedCloudKit, partly: Bool) throws -> Bool {
    if partly && random.next(below: 3) == 0 {
      cloud.deliverNextFetch([.late, .twice, .outOfOrder, .dropped][random.next(below: 4)])
    }
    var order = Array(devices.indices).shuffled(using: &random)
    if partly { order = Array(order.prefix(1 + random.next(below: order.count))) }
    let records = cloud.recordNames(of: "family")
    var changed = false
    for index in order {
      let before = devices[index].changeFiles()
      _ = try devices[index].container.sync()
      changed = changed || devices[index].changeFiles() != before
    }
    return changed || cloud.recordNames(of: "family") != records || cloud.faultsWaiting > 0
  }
}
