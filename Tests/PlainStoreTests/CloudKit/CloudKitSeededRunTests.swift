import BabyDashboardTesting
import Foundation
import PlainStoreTesting
import Testing

@testable import PlainStore

/// Seeded runs of three phones writing, syncing and meeting the cloud's faults (fetches late,
/// twice, out of order or dropped, any error code, throttling, the zone lost, deleted or reset)
/// and compacting their changes (whose records the next send deletes), in random order; at the
/// end, after enough syncs, every phone holds every record the server holds, the server holds
/// of each phone exactly its files (no record of one it compacted away), and every phone shows
/// the same objects as a fourth phone that fetched everything at once — the incremental merge
/// judged by a rebuild.
@Suite struct CloudKitSeededRunTests {
  /// SplitMix64: the same run for the same seed, on every machine.
  struct Random {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return Int((z ^ (z >> 31)) % UInt64(bound))
    }
  }

  /// The codes a run may meet: all but `userDeletedZone`, which stops a phone until it signs in
  /// again (CloudKitErrorTests covers it).
  static let faults = CloudKitErrorTests.requestCodes.filter { $0 != .userDeletedZone }

  /// 300 seeds in four parts, each part's seeds one after another on a thread of its own:
  /// minutes of blocking work must not hold the few threads every test's async work shares (as
  /// 300 cases run side by side on them did: every live-query test of the run waited out its
  /// deadline behind them).
  @Test(arguments: 0..<4)
  func threePhonesEndAlikeWhateverTheCloudDoes(part: Int) async throws {
    let runs = try await onOwnThread(computing: true) {
      try stride(from: part + 1, through: 300, by: 4).map { seed in try Self.run(seed: seed) }
    }
    let failures = runs.flatMap(\.failures)
    #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    // Runs whose compactions deleted no record prove nothing of the deletions.
    #expect(runs.filter { $0.deletions > 0 }.count >= runs.count / 4, "too few runs deleted records")
  }

  /// One seeded run: what went wrong, in words (none: the phones end alike), and how many delete
  /// requests reached the server.
  static func run(seed: Int) throws -> (failures: [String], deletions: Int) {
    var failures: [String] = []
    let family = try CloudFamily(cloud: SimulatedCloudKit(requestLimit: 5, fetchBatchSize: 4))
    defer { family.remove() }
    let cloud = family.cloud
    var random = Random(state: UInt64(seed))
    let phones = try (1...3).map { try family.open($0) }
    var nextID = 1
    for _ in 0..<60 {
      let phone = phones[random.next(3)]
      let context = phone.newBackgroundContext()
      let owners = try context.fetch(FetchDescriptor<Owner>())
      switch random.next(13) {
      case 0...3:
        context.insert(Owner(id: Sample.id(nextID), name: "n\(nextID)"))
        nextID += 1
        try context.save()
      case 4:
        guard var owner = owners.isEmpty ? nil : owners[random.next(owners.count)] else { continue }
        owner.name = "n\(nextID)"
        nextID += 1
        context.update(owner)
        try context.save()
      case 5:
        guard let owner = owners.isEmpty ? nil : owners[random.next(owners.count)] else { continue }
        context.delete(owner)
        try context.save()
      case 6:
        cloud.deliverNextFetch([.late, .twice, .outOfOrder, .dropped][random.next(4)])
      case 7:
        cloud.failNext([.save, .fetch, .createZone][random.next(3)], with: CloudError(Self.faults[random.next(Self.faults.count)], retryAfter: 5))
      case 8:
        cloud.advance(by: 10)
      case 9:
        switch random.next(3) {  // the zone gone: lost, deleted by a program, or reset
        case 0: cloud.loseZone(of: "family")
        case 1: cloud.deleteZone(of: "family", reason: .deleted)
        default: cloud.deleteZone(of: "family", reason: .encryptedDataReset)
        }
      case 10:
        _ = try phone.compactChanges()
      default:
        try phone.sync()
      }
    }
    // Faults still queued are met now, each ending a sync at most: enough rounds, each past
    // every retry-after, bring every phone through them.
    for _ in 0..<30 {
      cloud.advance(by: 60)
      for phone in phones { try phone.sync() }
    }
    // Faults of a zone's creation wait for a phone that has none yet: the judge meets them.
    let judge = try family.open(4)
    for _ in 0...cloud.faultsWaiting {
      cloud.advance(by: 60)
      try judge.sync()
    }
    if cloud.faultsWaiting != 0 { failures.append("seed \(seed): \(cloud.faultsWaiting) faults never met") }
    for (index, phone) in phones.enumerated() {
      let (mine, judged) = (try phone.names(), try judge.names())
      if mine != judged { failures.append("phone \(index + 1), seed \(seed): \(mine) vs \(judged)") }
      // A phone keeps the files whose records their owner deleted: it holds what is on the server,
      // and the server, of its own, exactly what it holds.
      let files = Set(try family.files(index + 1).keys.map { $0.replacingOccurrences(of: "/", with: "_") })
      let server = Set(cloud.recordNames(of: "family"))
      if !server.isSubset(of: files) { failures.append("phone \(index + 1), seed \(seed): not every record's file") }
      let own = testDevice(0xc1 + index).text + "_"
      if server.filter({ $0.hasPrefix(own) }) != files.filter({ $0.hasPrefix(own) }) {
        failures.append("phone \(index + 1), seed \(seed): the server holds other records of its own than its files")
      }
    }
    return (failures, cloud.deleteRequestSizes.count)
  }
}
