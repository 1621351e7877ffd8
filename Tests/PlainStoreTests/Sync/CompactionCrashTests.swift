import BabyDashboardTesting
import Foundation
import Testing

@testable import PlainStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A process killed while it compacts the change files — writing its snapshot, deleting its
/// older snapshots and its acknowledged change files — leaves a store that opens with every
/// change, and whose cache, thrown away, is rebuilt with every change from what is left. Every
/// kill is real: half aim at the snapshot's writing (after the child's `phase compact:
/// snapshot`), half at the deletions (after `phase compact: delete`), and each step must be hit
/// often enough.
/// The open that checks does not compact: it reads what the kill left.
@Suite struct CompactionCrashTests {
  static let kills = 100
  static let ownCommits = 40

  @Test func aCompactionKilledAtAnyMomentLosesNothing() async throws {
    let (phases, failure) = try await onOwnThread { try Self.killRounds() }
    #expect(failure == nil, "\(failure ?? "")")
    #expect(phases.shortfalls(["compact: snapshot": Self.kills / 5, "compact: delete": Self.kills / 5]) == [], "\(phases)")
  }

  /// The kill rounds, on a thread of their own: where the kills landed, and the first round
  /// that lost anything.
  static func killRounds() throws -> (phases: KillPhases, failure: String?) {
    let template = MultiProcessFolder()
    let other = MultiProcessFolder()
    let folder = MultiProcessFolder()
    defer {
      for each in [template, other, folder] { each.remove() }
    }
    let expected = try Self.makeStoreToCompact(at: template, other: other)
    // How long an uninterrupted snapshot's writing takes here (from `phase compact: snapshot`
    // to `phase compact: delete`; it was folded and encoded before, without the lock), so the
    // kills aimed at it spread over all of it.
    var durations: [Double] = []
    for _ in 0..<3 {
      try Self.fresh(folder, from: template)
      let child = try MultiProcessChild(["compact", folder.store.path])
      _ = child.waitForLine(startingWith: "phase compact: snapshot", timeout: .seconds(60))
      let started = Date()
      _ = child.waitForLine(startingWith: "phase compact: delete", timeout: .seconds(60))
      durations.append(Date().timeIntervalSince(started))
      guard child.waitForExit() == 0 else { return (KillPhases(), "an uninterrupted compaction failed") }
    }
    var duration = durations.min()!

    var random = SplitMix64(seed: 0xC0_4AC7)
    var phases = KillPhases()
    var killedWhileDeleting = 0
    // The deletions take a few milliseconds: kills aimed at them wait for their phase line,
    // then a moment within a window that narrows when the kill came after them.
    var deleteWindow: UInt64 = 3_000
    let options = StoreOptions(author: "check", watchesOtherProcesses: false)
    for round in 0..<Self.kills {
      try Self.fresh(folder, from: template)
      let child = try MultiProcessChild(["compact", folder.store.path])
      let aimsAtDeletions = round % 2 == 1
      _ = child.waitForLine(startingWith: aimsAtDeletions ? "phase compact: delete" : "phase compact: snapshot", timeout: .seconds(60))
      let started = Date()
      usleep(UInt32(aimsAtDeletions ? random.next() % deleteWindow : UInt64(duration * Double(random.next() % 1000) / 1000 * 1_000_000)))
      child.kill()
      let phase = phases.record(child, killed: child.waitForExit() == -SIGKILL)
      if !aimsAtDeletions && phase == "compact: delete" {
        duration = min(duration, Date().timeIntervalSince(started))  // the machine got faster: aim earlier
      } else if phase == "finished" || phase == "after the work" || phase == "compact: done" {
        if !aimsAtDeletions { duration = min(duration, Date().timeIntervalSince(started)) }  // the machine got faster: aim earlier
        if aimsAtDeletions { deleteWindow = max(deleteWindow * 3 / 4, 200) }
      } else if aimsAtDeletions {
        deleteWindow = min(deleteWindow * 11 / 10, 50_000)
      }
      let device = try Self.ownDevice(folder)
      let left = try FileManager.default.contentsOfDirectory(atPath: folder.store.appendingPathComponent("changes/\(device)").path)
      let changeFiles = left.filter { $0.hasSuffix(".json") && !$0.hasPrefix("snapshot-") && $0 != "device.json" }.count
      if changeFiles > 0 && changeFiles < Self.ownCommits { killedWhileDeleting += 1 }

      let found = try folder.open(options).newBackgroundContext().fetch(FetchDescriptor<MultiProcessItem>())
      if Set(found.map(\.id)) != expected { return (phases, "round \(round): \(found.count) objects, \(expected.count) expected") }
      try FileManager.default.removeItem(at: folder.store.appendingPathComponent("local"))
      let rebuilt = try folder.open(options).newBackgroundContext().fetch(FetchDescriptor<MultiProcessItem>())
      if Set(rebuilt.map(\.id)) != expected {
        return (phases, "round \(round), cache rebuilt: \(rebuilt.count) objects, \(expected.count) expected")
      }
    }
    print(
      "CompactionCrashTests: \(Self.kills) rounds, kills by phase: \(phases) (\(killedWhileDeleting) between the first deletion and the last; a snapshot is written in \(String(format: "%.1f", duration * 1000)) ms), every change there after each"
    )
    if killedWhileDeleting < Self.kills / 20 {
      return (phases, "only \(killedWhileDeleting) kills landed between the first deletion and the last, at least \(Self.kills / 20) wanted")
    }
    return (phases, nil)
  }

  /// This device: `ownCommits` commits. The other device: a copy of them, 3 commits of its own,
  /// and a snapshot that acknowledges them all — so this device's compaction deletes all its
  /// change files. Returns the ids of every object.
  private static func makeStoreToCompact(at folder: MultiProcessFolder, other: MultiProcessFolder) throws -> Set<UUID> {
    let options = StoreOptions(author: "setup", watchesOtherProcesses: false)
    let own = FormatOneStore.items(Self.ownCommits * 2)
    let container = try folder.open(options)
    for batch in 0..<Self.ownCommits {
      let context = container.newBackgroundContext()
      for item in own[(batch * 2)..<(batch * 2 + 2)] { context.insert(item) }
      try context.save()
    }
    let device = try Self.ownDevice(folder)
    try Self.copyFolder(folder.store.appendingPathComponent("changes/\(device)"), to: other.store.appendingPathComponent("changes/\(device)"))
    let foreign = FormatOneStore.items(15, seed: 1000).map { item in
      var item = item
      item.writer = "other phone"  // not the unique key of one of this device's
      return item
    }
    let second = try other.open(options)
    _ = try second.sync()
    for batch in 0..<3 {
      let context = second.newBackgroundContext()
      for item in foreign[(batch * 5)..<(batch * 5 + 5)] { context.insert(item) }
      try context.save()
    }
    _ = try second.compactChanges()
    let otherDevice = try Self.ownDevice(other)
    try Self.copyFolder(other.store.appendingPathComponent("changes/\(otherDevice)"), to: folder.store.appendingPathComponent("changes/\(otherDevice)"))
    return Set((own + foreign).map(\.id))
  }

  private static func ownDevice(_ folder: MultiProcessFolder) throws -> String {
    try String(contentsOf: folder.store.appendingPathComponent("device-id"), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
  }

  private static func fresh(_ folder: MultiProcessFolder, from template: MultiProcessFolder) throws {
    try? FileManager.default.removeItem(at: folder.store)
    try FileManager.default.createDirectory(at: folder.folder, withIntermediateDirectories: true)
    try FileManager.default.copyItem(at: template.store, to: folder.store)
  }

  private static func copyFolder(_ source: URL, to target: URL) throws {
    try? FileManager.default.removeItem(at: target)
    try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
    try FileManager.default.copyItem(at: source, to: target)
  }
}
