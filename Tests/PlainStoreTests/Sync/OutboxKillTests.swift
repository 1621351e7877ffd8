import BabyDashboardTesting
import Foundation
import Testing

@testable import PlainStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A process killed while it moves the outbox into the sync folder (plainstore-stress opening a
/// store whose commits were made signed out, its carrier there again): after every kill each
/// file is in the outbox or in the sync folder, whole, with its bytes, and the next open
/// finishes the move with every change shown.
@Suite struct OutboxKillTests {
  static let rounds = 40
  static let commits = 60

  @Test func aMoveKilledAtAnyMomentLosesNothingAndTheNextOpenFinishesIt() async throws {
    let (report, failure) = try await onOwnThread { () throws -> (String, String?) in
      let folder = MultiProcessFolder()
      defer { folder.remove() }
      var random = SplitMix64(seed: 0x0B_0C5)
      var phases = KillPhases()
      var midMove = 0
      var window: UInt64 = 20_000
      for round in 0..<Self.rounds {
        try? FileManager.default.removeItem(at: folder.store)
        // Commits made signed out: every change file waits in the outbox.
        let cloud = SimulatedUbiquityContainer()
        var options = StoreOptions(author: "phone", watchesOtherProcesses: false)
        options.transport = cloud.transport
        var ids: [UUID] = []
        do {
          let container = try folder.open(options)
          let context = container.newBackgroundContext()
          context.insert(MultiProcessItem(id: UUID(), writer: "before", batch: 0, part: 0, at: Date(timeIntervalSince1970: 1_768_469_400)))
          try context.save()
          cloud.setAvailable(false)
          for n in 0..<Self.commits {
            let item = MultiProcessItem(id: UUID(), writer: "r\(round)", batch: n, part: 0, at: Date(timeIntervalSince1970: 1_768_469_400 + Double(n)))
            ids.append(item.id)
            context.insert(item)
            try context.save()
          }
        }
        let outbox = folder.store.appendingPathComponent("outbox")
        let changes = folder.store.appendingPathComponent("changes")
        var waiting: [String: Data] = [:]  // "<device>/<name>" → bytes
        for device in try FileManager.default.contentsOfDirectory(atPath: outbox.path) {
          for name in try FileManager.default.contentsOfDirectory(atPath: outbox.appendingPathComponent(device).path) {
            waiting[device + "/" + name] = try Data(contentsOf: outbox.appendingPathComponent(device).appendingPathComponent(name))
          }
        }
        guard waiting.count == Self.commits else { return ("", "round \(round): \(waiting.count) files in the outbox") }

        // Opened with a plain folder: its carrier is there, and the open moves the outbox.
        let child = try MultiProcessChild(["open", folder.store.path])
        // The kill lands after the move has begun (the child says so), a random while into it.
        _ = child.waitForLine(startingWith: "phase outbox", timeout: .seconds(60))
        usleep(UInt32(random.next() % window))
        child.kill()
        let killed = child.waitForExit() == -SIGKILL
        let phase = phases.record(child, killed: killed)
        if phase != "finished" {
          window = min(window * 11 / 10, 500_000)
        } else {
          window = max(window * 3 / 4, 2_000)
        }
        // Nothing lost: each file in the outbox or in the sync folder, with its bytes.
        var moved = 0
        for (key, bytes) in waiting.sorted(by: { $0.key < $1.key }) {
          let inOutbox = FileManager.default.contents(atPath: outbox.appendingPathComponent(key).path)
          let inChanges = FileManager.default.contents(atPath: changes.appendingPathComponent(key).path)
          if inChanges != nil { moved += 1 }
          guard inOutbox == bytes || inChanges == bytes, inOutbox.map({ $0 == bytes }) ?? true, inChanges.map({ $0 == bytes }) ?? true else {
            return ("", "round \(round): \(key) is in neither place whole")
          }
        }
        if killed && moved > 0 && moved < waiting.count { midMove += 1 }
        let next = try folder.open(StoreOptions(author: "check", watchesOtherProcesses: false))
        let found = try next.newBackgroundContext().fetch(FetchDescriptor<MultiProcessItem>())
        guard Set(ids).isSubset(of: Set(found.map(\.id))), found.count == Self.commits + 1 else {
          return ("", "round \(round): \(found.count) objects after the next open, \(Self.commits + 1) expected")
        }
        guard !FileManager.default.fileExists(atPath: outbox.path) else {
          let left = FileManager.default.enumerator(atPath: outbox.path)?.allObjects.map { "\($0)" }.sorted() ?? []
          let blocked = (try? next.syncStatus())??.outboxBlocked
          return ("", "round \(round): the next open left the outbox, holding \(left) (the child: \(phase), having moved \(moved); blocked: \(blocked ?? "no"))")
        }
        for (key, bytes) in waiting where FileManager.default.contents(atPath: changes.appendingPathComponent(key).path) != bytes {
          return ("", "round \(round): \(key) moved with other bytes")
        }
      }
      return ("\(Self.rounds) rounds, kills by phase: \(phases), \(midMove) killed mid-move", midMove >= Self.rounds / 8 ? nil : "only \(midMove) kills landed mid-move: \(phases)")
    }
    #expect(failure == nil, "\(failure ?? "")")
    print("OutboxKillTests: \(report)")
  }
}
