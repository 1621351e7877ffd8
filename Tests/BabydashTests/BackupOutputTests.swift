import Foundation
import Testing

/// Backups that cannot lie: `export` of a folder that holds no store is 66 and writes nothing,
/// and `export --output FILE` replaces FILE atomically, so a failure leaves the old backup.
@Suite struct BackupOutputTests {
  let tool: BabydashProcess

  init() throws { tool = try BabydashProcess() }

  @Test func exportingAFolderWithoutAStoreIs66AndWritesNothing() throws {
    defer { tool.removeAll() }
    let mistyped = tool.appGroup.appendingPathComponent("mistyped")
    let result = try tool.run(["--app-group", mistyped.path, "export"])
    #expect(result.status == 66, "\(result.stderr)")
    #expect(result.stdout.isEmpty)
    #expect(
      result.stderr == "babydash: no store at '\(mistyped.path)/BabyDashboard.store': nothing to export — "
        + "check --app-group or $BABYDASH_APP_GROUP, or start one here with babydash baby add NAME\n")
    #expect(!FileManager.default.fileExists(atPath: mistyped.path), "a refused export creates no folder")

    // The nightly script's good backup stays as it was.
    try FileManager.default.createDirectory(at: tool.appGroup, withIntermediateDirectories: true)
    let backup = tool.appGroup.appendingPathComponent("backup.json")
    try Data("the good backup\n".utf8).write(to: backup)
    let again = try tool.run(["--app-group", mistyped.path, "export", "--output", backup.path])
    #expect(again.status == 66, "\(again.stderr)")
    #expect(try Data(contentsOf: backup) == Data("the good backup\n".utf8))
  }

  /// The screens refuse a folder with no store as `export` does: a script that saves the
  /// dashboard, or a parent with a mistyped `--app-group`, must not take nothing for the family —
  /// and drawing the widget there must not create the app group's folder.
  @Test func theScreensOfAFolderWithoutAStoreAre66AndWriteNothing() throws {
    defer { tool.removeAll() }
    let mistyped = tool.appGroup.appendingPathComponent("mistyped")
    for (command, verb) in [(["status"], "show"), (["history"], "show"), (["widget"], "draw"), (["baby", "list"], "list")] {
      let result = try tool.run(["--app-group", mistyped.path] + command)
      #expect(result.status == 66, "\(command): \(result.stderr)")
      #expect(result.stdout.isEmpty, "\(command): \(result.stdout)")
      #expect(result.stderr.hasPrefix("babydash: no store at '\(mistyped.path)/BabyDashboard.store': nothing to \(verb) — "), "\(result.stderr)")
      #expect(!FileManager.default.fileExists(atPath: mistyped.path), "\(command) created the folder")
    }
    // Once a baby is added there, the same screens show her.
    #expect(try tool.run(["--app-group", mistyped.path, "baby", "add", "Mia"]).status == 0)
    let status = try tool.run(["--app-group", mistyped.path, "status"])
    #expect(status.status == 0, "\(status.stderr)")
    #expect(status.stdout.contains("Mia"))
  }

  @Test func exportToAFileWritesWhatStandardOutputWouldAndLeavesNoTemporaryFile() throws {
    defer { tool.removeAll() }
    #expect(try tool.run(at: "2026-03-10T06:00:00Z", ["baby", "add", "Mia"]).status == 0)
    #expect(try tool.run(at: "2026-03-10T07:30:00Z", ["feed", "log", "Mia", "--start", "07:00", "--end", "07:20", "--amount", "100ml"]).status == 0)
    let folder = tool.appGroup.appendingPathComponent("backups")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let backup = folder.appendingPathComponent("backup.json")
    try Data("yesterday's backup\n".utf8).write(to: backup)
    let written = try tool.run(at: "2026-03-10T08:00:00Z", ["export", "--output", backup.path])
    #expect(written.status == 0, "\(written.stderr)")
    #expect(written.stdout == "Wrote the backup to \(backup.path).\n")
    let printed = try tool.run(at: "2026-03-10T08:00:00Z", ["export"]).stdout
    #expect(String(decoding: try Data(contentsOf: backup), as: UTF8.self) == printed)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["backup.json"], "no temporary file is left")

    // A failure leaves the old backup: a folder that is not there, or a folder in FILE's place.
    let nowhere = tool.appGroup.appendingPathComponent("no-such-folder/backup.json")
    let refused = try tool.run(at: "2026-03-10T08:00:00Z", ["export", "--output", nowhere.path])
    #expect(refused.status == 74, "\(refused.stderr)")
    #expect(refused.stderr == "babydash: cannot write '\(nowhere.path)': the folder '\(nowhere.deletingLastPathComponent().path)' does not exist\n")
    let inTheWay = try tool.run(at: "2026-03-10T08:00:00Z", ["export", "--output", folder.path])
    #expect(inTheWay.status != 0)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["backup.json"])
    #expect(String(decoding: try Data(contentsOf: backup), as: UTF8.self) == printed)
  }
}
