import Foundation
import Testing

/// Nothing in the future, from any door: one rule for "now" (a minute of clock skew) that a typed
/// time, a restore and an import obey, and that names what a device with a wrong clock brought by
/// sync, in the merge report, `check` and `sync status`, without ever blocking `feed start`.
@Suite struct FutureEventsCommandTests {
  /// A backup written by a device whose clock said 2030, restored on one that says 2026.
  @Test func aRestoreOfEventsAheadOfTheClockIsRefusedByNameUnlessYes() throws {
    let wrongClock = try BabydashProcess()
    let phone = try BabydashProcess()
    defer {
      wrongClock.removeAll()
      phone.removeAll()
    }
    #expect(try wrongClock.run(at: "2030-01-01T08:00:00Z", ["baby", "add", "Leo"]).status == 0)
    #expect(try wrongClock.run(at: "2030-01-01T10:30:00Z", ["feed", "log", "Leo", "--start", "10:00", "--end", "10:20"]).status == 0)
    let backup = wrongClock.appGroup.appendingPathComponent("backup.json")
    try Data(try wrongClock.run(at: "2030-01-01T10:30:00Z", ["export"]).stdout.utf8).write(to: backup)

    let before = try phone.snapshot()
    let refused = try phone.run(at: "2026-12-06T14:00:00Z", ["import", backup.path])
    #expect(refused.status == 65, "\(refused.stderr)")
    #expect(refused.stderr.contains("cannot restore 'backup.json': 3 times are ahead of this device's clock (2026-12-06T14:00:00Z): baby "))
    #expect(refused.stderr.contains("(Leo) added 2030-01-01T08:00:00Z; feed "))
    #expect(refused.stderr.contains(" starts 2030-01-01T10:00:00Z; feed "))
    #expect(refused.stderr.contains("run again with --yes to write them as they are — nothing was written"))
    #expect(try phone.snapshot() == before, "a refused restore writes nothing")

    let confirmed = try phone.run(at: "2026-12-06T14:00:00Z", ["import", backup.path, "--yes"])
    #expect(confirmed.status == 0, "\(confirmed.stderr)")
    #expect(confirmed.stdout.hasPrefix("Restored 'backup.json': wrote 1 baby, 1 feed and 0 diaper changes"), "\(confirmed.stdout)")
  }

  /// A legacy JSON export with a feed dated ahead of now is refused the same way.
  @Test func anImportOfEventsAheadOfTheClockIsRefusedByNameUnlessYes() throws {
    let phone = try BabydashProcess()
    defer { phone.removeAll() }
    try FileManager.default.createDirectory(at: phone.appGroup, withIntermediateDirectories: true)
    let legacy = phone.appGroup.appendingPathComponent("legacy.json")
    try Data(
      """
      {"format": "BabyDashboard.SwiftDataExport", "version": 1, "exportedAt": "2027-06-01T10:00:00Z",
       "babyProfiles": [{"id": "7D0C5C8E-6B2A-4E8B-9A43-5A2F9A1C0001", "name": "Mia", "feedTerm": 10800}],
       "feedSessions": [{"profileID": "7D0C5C8E-6B2A-4E8B-9A43-5A2F9A1C0001", "startTime": "2027-06-01T09:00:00Z", "endTime": "2027-06-01T09:20:00Z"}],
       "diaperChanges": []}
      """.utf8
    ).write(to: legacy)
    let before = try phone.snapshot()
    let refused = try phone.run(at: "2026-12-06T14:00:00Z", ["import", legacy.path])
    #expect(refused.status == 65, "\(refused.stderr)")
    #expect(refused.stderr.contains("3 times are ahead of this device's clock (2026-12-06T14:00:00Z): baby "), "\(refused.stderr)")
    #expect(refused.stderr.contains(" starts 2027-06-01T09:00:00Z"), "\(refused.stderr)")
    #expect(try phone.snapshot() == before, "a refused import writes nothing")
    let confirmed = try phone.run(at: "2026-12-06T14:00:00Z", ["import", legacy.path, "--yes"])
    #expect(confirmed.status == 0, "\(confirmed.stderr)")
  }

  /// Grandma's tablet, its clock six months ahead, logs a feed; the family's data merges, is
  /// named wherever a parent looks, and never stops the next `feed start`.
  @Test func aFeedFromADeviceWhoseClockIsAheadMergesIsNamedAndBlocksNothing() throws {
    let phones = try TwoPhonesTests.Phones()
    defer { phones.removeAll() }
    let (mom, tablet, momSync, tabletSync) = (phones.mom, phones.dad, phones.momSync, phones.dadSync)
    func onTablet(at now: String, _ arguments: [String]) throws -> BabydashProcess.Result {
      try tablet.run(["--now", now, "--sync-folder", tabletSync.path] + arguments, environment: ["BABYDASH_DEVICE_NAME": "Grandma's tablet"])
    }
    func onMom(at now: String, _ arguments: [String]) throws -> BabydashProcess.Result {
      try mom.run(["--now", now, "--sync-folder", momSync.path] + arguments, environment: ["BABYDASH_DEVICE_NAME": "Mom's phone"])
    }
    #expect(try onMom(at: "2026-12-06T08:00:00Z", ["baby", "add", "Leo"]).status == 0)
    #expect(try onMom(at: "2026-12-06T09:30:00Z", ["feed", "log", "Leo", "--start", "09:00", "--end", "09:20"]).status == 0)
    try TwoPhonesTests.carry(from: momSync, to: tabletSync)
    #expect(try onTablet(at: "2027-06-01T09:40:00Z", ["feed", "log", "Leo", "--start", "09:00", "--end", "09:20"]).status == 0)
    try TwoPhonesTests.carry(from: tabletSync, to: momSync)

    let merged = try onMom(at: "2026-12-06T12:00:00Z", ["sync", "now"])
    #expect(merged.status == 0, "\(merged.stderr)")
    #expect(merged.stdout.contains("From Grandma's tablet: 1 feed added; Grandma's tablet logged Leo's feed for 2027-06-01 09:00: its clock may be wrong."), "\(merged.stdout)")

    // The later feed blocks nothing: a feed starts, with a warning naming the slip and its fix.
    let started = try onMom(at: "2026-12-06T12:00:00Z", ["feed", "start", "Leo"])
    #expect(started.status == 0, "\(started.stderr)")
    #expect(started.stdout == "Leo started feeding at 12:00.\n")
    #expect(started.stderr.contains("babydash: warning: Leo's feed of 2027-06-01 09:00 ("), "\(started.stderr)")
    #expect(started.stderr.contains("is dated ahead of this device's clock: the clock of the device that logged it may be wrong; fix it with `babydash feed edit "))
    let finished = try onMom(at: "2026-12-06T12:20:00Z", ["feed", "finish", "Leo", "--amount", "90ml"])
    #expect(finished.status == 0, "the feed started is the one in progress: \(finished.stderr)")
    let status = try onMom(at: "2026-12-06T12:20:00Z", ["status"])
    #expect(!status.stdout.contains("in 177d"), "the dashboard's last feed is not the one ahead: \(status.stdout)")

    let check = try onMom(at: "2026-12-06T12:20:00Z", ["check"])
    #expect(check.status == 0, "\(check.stderr)")
    #expect(check.stdout.contains("warning: Leo's feed of 2027-06-01 09:00 ("), "\(check.stdout)")
    let sync = try onMom(at: "2026-12-06T12:20:00Z", ["sync", "status"])
    #expect(sync.stdout.contains("Dated ahead of this device's clock (merged: the data is the family's):\n  Leo's feed of 2027-06-01 09:00 ("), "\(sync.stdout)")
  }
}
