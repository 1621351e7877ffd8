import Foundation
import Testing

/// iCloud Drive's placeholders (`.NAME.icloud`) through `babydash`: a change file that is not
/// downloaded, this device's own (evicted) or another device's, leaves every command working,
/// is never written again beside its placeholder, and `sync status` and `check` name it.
@Suite struct PlaceholderCommandTests {
  /// The one device folder in a `changes/` folder, for a store only one device wrote.
  static func deviceFolder(in changes: URL) throws -> URL {
    let names = try FileManager.default.contentsOfDirectory(atPath: changes.path).filter { !$0.hasPrefix(".") }
    return changes.appendingPathComponent(try #require(names.count == 1 ? names.first : nil))
  }

  /// Turns a file into its placeholder, as iOS does when it evicts it; returns its bytes.
  static func evict(_ name: String, in folder: URL) throws -> Data {
    let bytes = try Data(contentsOf: folder.appendingPathComponent(name))
    try FileManager.default.removeItem(at: folder.appendingPathComponent(name))
    try Data("placeholder".utf8).write(to: folder.appendingPathComponent(".\(name).icloud"))
    return bytes
  }

  @Test func anEvictedOwnChangeFileLeavesEveryCommandWorkingAndIsNeverWrittenAgain() throws {
    let tool = try BabydashProcess()
    defer { tool.removeAll() }
    #expect(try tool.run(at: "2026-01-15T06:00:00Z", ["baby", "add", "Mia"]).status == 0)
    #expect(try tool.run(at: "2026-01-15T07:00:00Z", ["feed", "log", "Mia", "--start", "06:30", "--end", "06:45"]).status == 0)
    #expect(try tool.run(at: "2026-01-15T10:00:00Z", ["feed", "log", "Mia", "--start", "09:30", "--end", "09:45"]).status == 0)
    let folder = try Self.deviceFolder(in: tool.appGroup.appendingPathComponent("BabyDashboard.store/changes"))
    _ = try Self.evict("000000000002.json", in: folder)

    let check = try tool.run(at: "2026-01-15T10:05:00Z", ["check"])
    #expect(check.status == 0, "\(check.stderr)")
    #expect(check.stdout.contains("/000000000002.json' is not downloaded here (a placeholder stands for it): this device merged it already, all its data is shown"))
    #expect(check.stdout.contains("ok: 1 baby, 2 feeds"), "\(check.stdout)")
    let status = try tool.run(at: "2026-01-15T10:05:00Z", ["sync", "status"])
    #expect(status.status == 0)
    #expect(status.stdout.contains("Not downloaded here (in the cloud, whole; a placeholder stands for each; read once downloaded):\n  BabyDashboard.store/changes/\(folder.lastPathComponent)/000000000002.json\n"), "\(status.stdout)")
    #expect(try tool.run(at: "2026-01-15T13:00:00Z", ["feed", "log", "Mia", "--start", "12:30", "--end", "12:45"]).status == 0)

    let names = Set(try FileManager.default.contentsOfDirectory(atPath: folder.path))
    #expect(!names.contains("000000000002.json"), "written again beside its placeholder: \(names.sorted())")
    #expect(names.isSuperset(of: [".000000000002.json.icloud", "000000000003.json", "000000000004.json"]))
  }

  @Test func anotherDevicesFileNotDownloadedIsWaitingNotDamageAndArrivesOnceDownloaded() throws {
    let laptop = try BabydashProcess()
    let phone = try BabydashProcess()
    defer {
      laptop.removeAll()
      phone.removeAll()
    }
    let sync = laptop.appGroup.appendingPathComponent("Sync")
    try FileManager.default.createDirectory(at: sync, withIntermediateDirectories: true)
    let shared = ["BABYDASH_SYNC_FOLDER": sync.path]
    #expect(try laptop.run(["--now", "2026-01-15T06:00:00Z", "baby", "add", "Mia"], environment: shared).status == 0)
    #expect(try laptop.run(["--now", "2026-01-15T07:00:00Z", "feed", "log", "Mia", "--start", "06:30", "--end", "06:45"], environment: shared).status == 0)
    let folder = try Self.deviceFolder(in: sync)
    let bytes = try Self.evict("000000000002.json", in: folder)

    let merged = try phone.run(["--now", "2026-01-15T07:05:00Z", "sync", "now"], environment: shared)
    #expect(merged.status == 0 && merged.stdout.hasPrefix("Merged 1 change file."), "\(merged.stdout)\(merged.stderr)")
    let check = try phone.run(["--now", "2026-01-15T07:05:00Z", "check"], environment: shared)
    #expect(check.status == 0, "\(check.stderr)")
    #expect(check.stdout.contains("note: waiting for 'Sync/\(folder.lastPathComponent)/000000000002.json' to download (a placeholder stands for it): nothing is lost; its changes are shown once it is"), "\(check.stdout)")
    #expect(check.stdout.contains("ok: 1 baby, 0 feeds"))
    let status = try phone.run(["--now", "2026-01-15T07:05:00Z", "sync", "status"], environment: shared)
    #expect(status.stdout.contains("  Sync/\(folder.lastPathComponent)/000000000002.json — waiting for it: its changes are not shown yet"), "\(status.stdout)")
    #expect(!status.stdout.contains("Not arrived yet"), "not downloaded is not damage")

    try bytes.write(to: folder.appendingPathComponent("000000000002.json"))
    try FileManager.default.removeItem(at: folder.appendingPathComponent(".000000000002.json.icloud"))
    let after = try phone.run(["--now", "2026-01-15T07:10:00Z", "check"], environment: shared)
    #expect(after.status == 0 && after.stdout.contains("ok: 1 baby, 1 feed"), "\(after.stdout)\(after.stderr)")
  }
}
