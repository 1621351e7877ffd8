import Foundation
import PlainStore
import PlainStoreTesting

/// The differential run's devices exchanging through a simulated CloudKit instead of the fake
/// engine: each device is signed in to one of two accounts and carries its files by its own
/// `sync()`, and the cloud meets them with fetches delivered late, twice, out of order or
/// dropped. The owner ("mum") shares its zone with the other parent ("dad"), who accepts, leaves
/// and is stopped at random, and accepts again before the end: every device ends on one zone.
extension DifferentialRun {
  /// A new device's carrier: the run's space, or its cloud signed in to `account`; else the folder.
  func carrier(account: String) -> SyncCarrier {
    if let space { return .memory(space) }
    guard let cloud else { return .folder }
    return .simulatedCloudKit(cloud, account: account)
  }

  /// The share of mum's zone with dad: accepted at a full exchange, so that every device ends
  /// on one zone; in one partly exchange of six, accepted, left or stopped.
  mutating func moveTheShare(_ cloud: SimulatedCloudKit, partly: Bool) {
    guard let participants = cloud.participants(of: "mum") else { return }  // no zone before mum's first sync
    if partly && random.next(below: 6) != 0 { return }
    if !participants.contains("dad") {
      cloud.share("mum", with: "dad")
      cloud.device(signedInAs: "dad").acceptShare(from: "mum")
      log.append("dad accepts mum's share")
    } else if partly && random.next(below: 2) == 0 {
      cloud.device(signedInAs: "dad").leaveShare(of: "mum")
      log.append("dad leaves mum's share")
    } else if partly {
      cloud.stopSharing("mum")
      log.append("mum stops sharing")
    }
  }

  /// One exchange: every device (`partly`, some of them) syncs, in random order, sending its
  /// files and fetching the others'. Returns whether any device's files or the zone's records
  /// changed, or a fetch is still to be delivered badly: a sync that only sent changes no
  /// file of its own, and the others have yet to fetch what it sent.
  mutating func exchange(through cloud: SimulatedCloudKit, partly: Bool) throws -> Bool {
    if partly && random.next(below: 3) == 0 {
      cloud.deliverNextFetch([.late, .twice, .outOfOrder, .dropped][random.next(below: 4)])
    }
    moveTheShare(cloud, partly: partly)
    var order = Array(devices.indices).shuffled(using: &random)
    if partly { order = Array(order.prefix(1 + random.next(below: order.count))) }
    let records = cloud.recordNames(of: "mum") + cloud.recordNames(of: "dad")
    var changed = false
    for index in order {
      let before = devices[index].changeFiles()
      _ = try devices[index].container.sync()
      changed = changed || devices[index].changeFiles() != before
    }
    return changed || cloud.recordNames(of: "mum") + cloud.recordNames(of: "dad") != records || cloud.faultsWaiting > 0
  }
}
