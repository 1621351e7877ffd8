import BabyDashboardTesting
import Foundation
import Testing

@testable import PlainStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A process killed while it merges other devices' change files into its cache: the next open
/// holds exactly the fold of every file, whatever the moment of the kill.
@Suite struct MergeCrashTests {
  static let kills = 100
  static let foreign = DeviceID("0000000000000000000000000000f00d")!

  /// Another device's changes: `files` files of `perFile` items each, and a delete of one item
  /// of this device's.
  static func writeForeignChanges(to store: URL, round: Int, files: Int, perFile: Int, deleting: UUID) throws -> [MultiProcessItem] {
    let folder = ChangeFolder(url: store.appendingPathComponent("changes"), displayName: "changes")
    var items: [MultiProcessItem] = []
    for sequence in 1...files {
      let batch = (0..<perFile).map { n in
        MultiProcessItem(
          id: UUID(), writer: "f\(round)", batch: sequence, part: n,
          at: Date(timeIntervalSince1970: 1_768_469_400 + Double((sequence * perFile + n) % 30) * 7 * 86_400))
      }
      items += batch
      var objects = try batch.map { ObjectChange(entity: "StressItem", id: $0.id, kind: .upsert, fields: try EntityFields.of($0)) }
      if sequence == files { objects.append(ObjectChange(entity: "StressItem", id: deleting, kind: .delete, fields: nil)) }
      try folder.write(
        ChangeFile(
          device: foreign, sequence: sequence, hlc: HybridLogicalClock.wallBits(Date(timeIntervalSince1970: 1_800_000_000)) + UInt64(sequence),
          author: "other phone", timestamp: Date(timeIntervalSince1970: 1_800_000_000), schemaVersion: 1, objects: objects))
    }
    return items
  }

  /// The open after each kill is the one that finishes the merge: that is what this checks.
  @Test func aMergeKilledAtAnyMomentLosesNothing() async throws {
    let (phases, failure) = try await onOwnThread { () throws -> (KillPhases, String?) in
      let folder = MultiProcessFolder()
      defer { folder.remove() }
      var random = SplitMix64(seed: 0x3E_26E)
      var phases = KillPhases()
      let prepare = { (round: Int) throws -> (own: [MultiProcessItem], arrived: [MultiProcessItem]) in
        try? FileManager.default.removeItem(at: folder.store)
        let own = FormatOneStore.items(30, seed: round)
        do {
          let container = try folder.open(StoreOptions(author: "own", watchesOtherProcesses: false))
          let context = container.newBackgroundContext()
          for item in own { context.insert(item) }
          try context.save()
        }
        return (own, try Self.writeForeignChanges(to: folder.store, round: round, files: 12, perFile: 15, deleting: own[0].id))
      }
      // The kills land at random within a window that follows how long an open and merge
      // takes on this machine at this moment: narrower after a merge that finished first,
      // wider after one that was killed. A fixed window lets a fast or idle machine finish
      // most merges before their kill, and a loaded one kill most before they begin.
      var window: UInt64 = 80_000
      for round in 0..<Self.kills {
        let (own, arrived) = try prepare(round)
        let child = try MultiProcessChild(["open", folder.store.path])
        _ = child.waitForLine(startingWith: "phase merge", timeout: .seconds(60))  // past start-up and the open's first reads
        usleep(UInt32(random.next() % window))
        child.kill()
        if phases.record(child, killed: child.waitForExit() == -SIGKILL) == "merge" {
          window = min(window * 11 / 10, 500_000)
        } else {
          window = max(window * 3 / 4, 2_000)
        }
        let expected = Set((own.dropFirst() + arrived).map(\.id))
        let found = try folder.open(StoreOptions(author: "check", watchesOtherProcesses: false)).newBackgroundContext()
          .fetch(FetchDescriptor<MultiProcessItem>())
        if Set(found.map(\.id)) != expected { return (phases, "round \(round): \(found.count) objects, \(expected.count) expected") }
      }
      return (phases, nil)
    }
    #expect(failure == nil, "\(failure ?? "")")
    print("MergeCrashTests: \(Self.kills) rounds, kills by phase: \(phases); the next open held every change each time")
    #expect(phases.shortfalls(["merge": Self.kills / 2]) == [], "\(phases)")
  }
}
