import Foundation
import Testing

/// `babydash sync status` begins in a parent's words: whether the phones sync, what waits on this
/// phone to be sent, what waits to be downloaded, and the last change from the other phone.
@Suite struct SyncStatusWordsTests {
  static func lines(_ output: String) -> [String] {
    output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { line in
      ["Syncing ", "To send ", "To download ", "Last arrival "].contains { line.hasPrefix($0) }
    }
  }

  @Test func syncStatusSaysSyncingIsOnNothingWaitsAndWhichPhoneTheLastChangeCameFrom() throws {
    let mom = try BabydashProcess()
    let dad = try BabydashProcess()
    defer {
      mom.removeAll()
      dad.removeAll()
    }
    let momSync = mom.appGroup.appendingPathComponent("sync")
    let dadSync = dad.appGroup.appendingPathComponent("sync")
    for folder in [momSync, dadSync] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
    let before = try mom.run(["--now", "2026-03-10T06:00:00Z", "--sync-folder", momSync.path, "baby", "add", "Mia"])
    #expect(before.status == 0)
    let alone = try mom.run(["--now", "2026-03-10T06:02:00Z", "--sync-folder", momSync.path, "sync", "status"])
    #expect(Self.lines(alone.stdout).last == "Last arrival nothing from another phone yet", "\(alone.stdout)")
    let dadEnv = ["BABYDASH_DEVICE_NAME": "Dad's phone"]
    #expect(try dad.run(["--now", "2026-03-10T07:31:00Z", "--sync-folder", dadSync.path, "baby", "add", "Leo"], environment: dadEnv).status == 0)
    try TwoPhonesTests.carry(from: dadSync, to: momSync)
    let status = try mom.run(["--now", "2026-03-10T08:00:00Z", "--sync-folder", momSync.path, "sync", "status"])
    #expect(status.status == 0)
    #expect(
      Self.lines(status.stdout) == [
        "Syncing      on",
        "To send      nothing",
        "To download  nothing",
        "Last arrival from Dad's phone, written 07:31",
      ], "\(status.stdout)")

    // Dad names his phone anew: Mom's phone says the new name (#57: a new name was ignored).
    let renamed = ["BABYDASH_DEVICE_NAME": "Dad's Pixel"]
    #expect(try dad.run(["--now", "2026-03-10T08:10:00Z", "--sync-folder", dadSync.path, "diaper", "Leo", "pee"], environment: renamed).status == 0)
    try TwoPhonesTests.carry(from: dadSync, to: momSync)
    let later = try mom.run(["--now", "2026-03-10T08:20:00Z", "--sync-folder", momSync.path, "sync", "status"])
    #expect(Self.lines(later.stdout).last == "Last arrival from Dad's Pixel, written 08:10", "\(later.stdout)")
  }

  @Test func aChangeTheAppMadeSignedOutIsCountedAsWaitingToBeSentAndSyncNowSendsIt() throws {
    let mom = try BabydashProcess()
    defer { mom.removeAll() }
    let sync = mom.appGroup.appendingPathComponent("sync")
    try FileManager.default.createDirectory(at: sync, withIntermediateDirectories: true)
    #expect(try mom.run(["--now", "2026-03-10T06:00:00Z", "--sync-folder", sync.path, "baby", "add", "Mia"]).status == 0)
    #expect(try mom.run(["--now", "2026-03-10T07:02:00Z", "--sync-folder", sync.path, "diaper", "Mia", "poo", "--at", "07:01"]).status == 0)
    // As the app leaves it after a diaper logged signed out of iCloud: its change file in the outbox.
    let device = try #require(try FileManager.default.contentsOfDirectory(atPath: sync.path).first { !$0.hasPrefix(".") })
    let outbox = mom.appGroup.appendingPathComponent("BabyDashboard.store/outbox").appendingPathComponent(device)
    try FileManager.default.createDirectory(at: outbox, withIntermediateDirectories: true)
    let file = "000000000002.json"
    try FileManager.default.moveItem(at: sync.appendingPathComponent(device).appendingPathComponent(file), to: outbox.appendingPathComponent(file))

    let before = try mom.snapshot()
    let status = try mom.run(["--now", "2026-03-10T08:00:00Z", "--sync-folder", sync.path, "sync", "status"])
    #expect(status.status == 0)
    #expect(Self.lines(status.stdout).dropFirst().first == "To send      1 change waiting on this phone, the oldest from 07:02", "\(status.stdout)")
    #expect(try mom.snapshot() == before, "sync status only looks: the outbox stays")

    #expect(try mom.run(["--now", "2026-03-10T08:01:00Z", "--sync-folder", sync.path, "sync", "now"]).status == 0)
    #expect(FileManager.default.fileExists(atPath: sync.appendingPathComponent(device).appendingPathComponent(file).path), "sent: in the sync folder")
    #expect(!FileManager.default.fileExists(atPath: outbox.path))
    let after = try mom.run(["--now", "2026-03-10T08:02:00Z", "--sync-folder", sync.path, "sync", "status"])
    #expect(Self.lines(after.stdout).dropFirst().first == "To send      nothing", "\(after.stdout)")
  }
}
