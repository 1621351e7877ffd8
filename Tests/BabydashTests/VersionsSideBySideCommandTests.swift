import BabyDashboard
import Foundation
import PlainStore
import Testing

/// Two versions of the app in one family (a phased release): another phone runs a newer program,
/// which reads and writes change-file format 3 (`StoreOptions.newestChangeFormat`; `babydash`
/// acts as one under `BABYDASH_TEST_CHANGE_FORMAT`). `sync status` names the file this one cannot
/// read yet, and `launch` says who should update.
@Suite struct VersionsSideBySideCommandTests {
  static let then = Date(timeIntervalSince1970: 1_768_460_000)  // 2026-01-15T06:53:20Z

  @Test func syncStatusAndLaunchNameTheNewerPhoneAndTheOneNotUpdatedYet() throws {
    let tool = try BabydashProcess()
    defer { tool.removeAll() }
    let changes = tool.appGroup.appendingPathComponent("BabyDashboard.store/changes")
    func device(_ store: String, _ name: String, reads: Int) throws -> StoreContainer {
      var options = StoreOptions(clock: { Self.then }, watchesOtherProcesses: false, syncFolder: changes, deviceName: name)
      options.newestChangeFormat = reads
      return try StoreContainer.file(at: tool.appGroup.appendingPathComponent(store), schema: BabyDashboardSchema.current, options: options)
    }
    func add(_ baby: String, on container: StoreContainer) throws {
      let context = container.newBackgroundContext()
      context.insert(BabyProfile(id: UUID(), name: baby, createdAt: Self.then))
      try context.save()
    }

    // Mum's phone, updated first, writes in format 3 before this one has written anything.
    let mum = try device("mum.store", "Mum's phone", reads: 3)
    try add("Leo", on: mum)
    let mumID = try #require(try mum.syncStatus()?.thisDevice)
    #expect(try tool.run(at: "2026-01-15T08:00:00Z", ["baby", "add", "Mia"]).status == 0)

    let status = try tool.run(at: "2026-01-15T08:01:00Z", ["sync", "status"])
    #expect(status.status == 0, "\(status.stderr)")
    #expect(
      status.stdout.contains(
        "changes/\(mumID)/000000000001.json: written in change-file format 3 by Mum's phone; this app reads up to 2 — update it"),
      "\(status.stdout)")
    let list = try tool.run(at: "2026-01-15T08:01:00Z", ["baby", "list"])
    #expect(list.stdout.contains("Mia") && !list.stdout.contains("Leo"), "\(list.stdout)")
    let launch = try tool.run(["--now", "2026-01-15T08:02:00Z", "launch"])
    #expect(launch.stdout.contains("versions: Another phone (Mum's phone) runs a newer version; update this one"), "\(launch.stdout)\(launch.stderr)")

    // Grandma's tablet stays on today's app; this one, updated, folds Mum's file and waits for
    // the tablet before it writes the new format.
    try add("Ava", on: try device("grandma.store", "Grandma's tablet", reads: 2))
    let updated = ["BABYDASH_TEST_CHANGE_FORMAT": "3"]
    let waiting = try tool.run(["--now", "2026-01-15T08:03:00Z", "launch"], environment: updated)
    #expect(waiting.stdout.contains("versions: Waiting for Grandma's tablet to update before the new format is used"), "\(waiting.stdout)")
    let all = try tool.run(["--now", "2026-01-15T08:04:00Z", "baby", "list"], environment: updated)
    #expect(all.stdout.contains("Leo") && all.stdout.contains("Mia") && all.stdout.contains("Ava"), "\(all.stdout)")
  }
}
