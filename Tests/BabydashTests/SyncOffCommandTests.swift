import Foundation
import Testing

/// Sync that says when it is off: a sync folder that does not exist is refused (a typo would
/// sync to nowhere) unless `sync join` or `--create` asks for it, and a store that synced through
/// a folder says so when none is given.
@Suite struct SyncOffCommandTests {
  let tool: BabydashProcess

  init() throws { tool = try BabydashProcess() }

  @Test func aSyncFolderThatDoesNotExistIsRefusedUnlessJoinOrCreateAsksForIt() throws {
    defer { tool.removeAll() }
    let sync = tool.appGroup.appendingPathComponent("Sync/BabyDashbaord")
    let before = try tool.snapshot()
    for arguments in [["status"], ["baby", "add", "Mia"], ["sync", "status"]] {
      let result = try tool.run(["--now", "2026-03-10T06:00:00Z", "--sync-folder", sync.path] + arguments)
      #expect(result.status == 66, "\(arguments): \(result.stderr)")
      #expect(
        result.stderr == "babydash: no sync folder at '\(sync.path)' (--sync-folder): check the path; "
          + "to start syncing there, run `babydash sync join` (or give --create)\n")
    }
    let fromEnvironment = try tool.run(["--now", "2026-03-10T06:00:00Z", "status"], environment: ["BABYDASH_SYNC_FOLDER": sync.path])
    #expect(fromEnvironment.status == 66)
    #expect(fromEnvironment.stderr.contains("(BABYDASH_SYNC_FOLDER)"))
    #expect(try tool.snapshot() == before, "a refused command creates nothing")
    #expect(!FileManager.default.fileExists(atPath: sync.path))

    let joined = try tool.run(["--now", "2026-03-10T06:00:00Z", "--sync-folder", sync.path, "sync", "join"])
    #expect(joined.status == 0, "\(joined.stderr)")
    #expect(joined.stdout == "Syncing through \(sync.path); nothing from other devices yet.\n")
    let other = tool.appGroup.appendingPathComponent("Other")
    let created = try tool.run(["--now", "2026-03-10T06:00:00Z", "--sync-folder", other.path, "--create", "baby", "add", "Leo"])
    #expect(created.status == 0, "\(created.stderr)")
  }

  @Test func aStoreThatSyncedThroughAFolderSaysSoWhenNoneIsGiven() throws {
    defer { tool.removeAll() }
    let sync = tool.appGroup.appendingPathComponent("Sync")
    #expect(try tool.run(["--now", "2026-03-10T06:00:00Z", "--sync-folder", sync.path, "sync", "join"]).status == 0)
    #expect(try tool.run(["--now", "2026-03-10T06:00:00Z", "--sync-folder", sync.path, "baby", "add", "Mia"]).status == 0)
    // A new shell, BABYDASH_SYNC_FOLDER forgotten.
    let status = try tool.run(["--now", "2026-03-10T07:00:00Z", "sync", "status"])
    #expect(status.status == 0, "\(status.stderr)")
    #expect(status.stdout == "Not syncing: no sync folder given (last used \(sync.path)): give --sync-folder or set BABYDASH_SYNC_FOLDER.\n")
    let list = try tool.run(["--now", "2026-03-10T07:00:00Z", "baby", "list"])
    #expect(
      list.stderr.hasPrefix(
        "babydash: warning: not syncing: no sync folder given (last used \(sync.path)); give --sync-folder or set BABYDASH_SYNC_FOLDER, "
          + "or the other phones see nothing of this\n"), "\(list.stderr)")
    // With the folder, nothing to say.
    #expect(try tool.run(["--now", "2026-03-10T07:00:00Z", "--sync-folder", sync.path, "baby", "list"]).stderr.isEmpty)
  }
}
