import Foundation
import Testing

/// Damage is never an empty store, and there is a way out: a file where the store's folder
/// belongs is "in the way" (65), a damaged snapshot of this device's own is said by every
/// command, and `salvage --output FILE` keeps everything still readable.
@Suite struct SalvageCommandTests {
  let tool: BabydashProcess

  init() throws { tool = try BabydashProcess() }

  var store: URL { tool.appGroup.appendingPathComponent("BabyDashboard.store") }

  @Test func aFileWhereTheStoreBelongsIsAFileInTheWay() throws {
    defer { tool.removeAll() }
    try FileManager.default.createDirectory(at: tool.appGroup, withIntermediateDirectories: true)
    try Data("not a store".utf8).write(to: store)
    let message = "babydash: a file is in the way: '\(store.path)' is a file where the store's folder belongs — move it aside "
      + "(it was not read or changed), or give another folder with --app-group\n"
    for arguments in [["status"], ["baby", "add", "Mia"], ["export"], ["check"]] {
      let result = try tool.run(at: "2026-03-10T06:00:00Z", arguments)
      #expect(result.status == 65, "\(arguments): \(result.stderr)")
      #expect(result.stderr == message, "\(arguments)")
      #expect(result.stdout.isEmpty, "never 'No babies yet': \(result.stdout)")
    }
    #expect(try Data(contentsOf: store) == Data("not a store".utf8))
  }

  @Test func aDamagedOwnSnapshotIsSaidByEveryCommandAndSalvageKeepsWhatIsReadable() throws {
    defer { tool.removeAll() }
    #expect(try tool.run(at: "2026-03-10T06:00:00Z", ["baby", "add", "Mia"]).status == 0)
    #expect(try tool.run(at: "2026-03-10T06:00:00Z", ["sync", "compact"]).status == 0)
    #expect(try tool.run(at: "2026-03-10T06:10:00Z", ["baby", "add", "Leo"]).status == 0)
    let changes = store.appendingPathComponent("changes")
    let device = try #require(try FileManager.default.contentsOfDirectory(atPath: changes.path).first)
    let snapshotName = try #require(
      try FileManager.default.contentsOfDirectory(atPath: changes.appendingPathComponent(device).path).first { $0.hasPrefix("snapshot-") })
    let snapshot = changes.appendingPathComponent(device).appendingPathComponent(snapshotName)
    try Data("garbage".utf8).write(to: snapshot)
    let relative = "BabyDashboard.store/changes/\(device)/\(snapshotName)"

    // While the cache holds its data, every command works and says so.
    let list = try tool.run(at: "2026-03-10T07:00:00Z", ["baby", "list"])
    #expect(list.status == 0, "\(list.stderr)")
    #expect(list.stdout.contains("Mia") && list.stdout.contains("Leo"))
    #expect(list.stderr.contains("babydash: warning: this device's own change file '\(relative)' is damaged: "), "\(list.stderr)")
    #expect(list.stderr.contains("run `babydash salvage --output FILE` now"))
    let kept = tool.appGroup.appendingPathComponent("kept.json")
    let first = try tool.run(at: "2026-03-10T07:00:00Z", ["salvage", "--output", kept.path])
    #expect(first.status == 0, "\(first.stderr)")
    #expect(first.stdout.hasPrefix("Salvaged 2 babies, 0 feeds and 0 diaper changes to \(kept.path).\n"), "\(first.stdout)")
    #expect(first.stdout.contains("  \(relative) (what it held was read from the local cache)\n"))

    // The cache lost (this device keeps its id): every command refuses, naming the way out.
    let local = store.appendingPathComponent("local")
    let deviceID = try Data(contentsOf: local.appendingPathComponent("device-id"))
    try FileManager.default.removeItem(at: local)
    try FileManager.default.createDirectory(at: local, withIntermediateDirectories: true)
    try deviceID.write(to: local.appendingPathComponent("device-id"))
    let status = try tool.run(at: "2026-03-10T07:00:00Z", ["export"])
    #expect(status.status == 65)
    #expect(status.stderr.contains("damaged at '\(relative)'") && status.stderr.contains("`babydash salvage --output FILE` exports everything still readable."), "\(status.stderr)")
    let salvaged = tool.appGroup.appendingPathComponent("salvaged.json")
    let before = try tool.snapshot()
    let second = try tool.run(at: "2026-03-10T07:00:00Z", ["salvage", "--output", salvaged.path])
    #expect(second.status == 0, "\(second.stderr)")
    #expect(second.stdout == """
      Salvaged 1 baby, 0 feeds and 0 diaper changes to \(salvaged.path).
      Damaged (restore them from a backup or another device's copy of changes/ if you can):
        \(relative)

      """)
    var after = try tool.snapshot()
    after.removeValue(forKey: "salvaged.json")
    #expect(after == before, "salvage changes nothing of the store")
    // The salvaged backup restores.
    let fresh = try BabydashProcess()
    defer { fresh.removeAll() }
    let restored = try fresh.run(at: "2026-03-10T08:00:00Z", ["import", salvaged.path])
    #expect(restored.status == 0, "\(restored.stderr)")
  }
}
