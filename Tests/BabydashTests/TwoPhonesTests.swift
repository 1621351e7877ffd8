import Foundation
import Testing

/// Two parents' phones, each with its own app group and sync folder, whose change files a sync
/// engine (here: a copy) carries to the other: once they hold the same files they show the same
/// dashboard and widget, byte for byte, and a phone that has never written shows the family.
@Suite struct TwoPhonesTests {
  /// Mom's and Dad's phones, each with its app group and a sync folder in it.
  struct Phones {
    let mom: BabydashProcess
    let dad: BabydashProcess
    var momSync: URL { mom.appGroup.appendingPathComponent("sync") }
    var dadSync: URL { dad.appGroup.appendingPathComponent("sync") }

    /// Each phone's sync folder exists, as a sync engine's does (a missing one is refused).
    init() throws {
      mom = try BabydashProcess()
      dad = try BabydashProcess()
      try FileManager.default.createDirectory(at: momSync, withIntermediateDirectories: true)
      try FileManager.default.createDirectory(at: dadSync, withIntermediateDirectories: true)
    }

    func removeAll() {
      mom.removeAll()
      dad.removeAll()
    }
  }

  /// Copies every change file of `from`'s sync folder that `to` lacks, as an engine would.
  static func carry(from: URL, to: URL) throws {
    let files = FileManager.default
    for device in try files.contentsOfDirectory(atPath: from.path) where !device.hasPrefix(".") {
      let target = to.appendingPathComponent(device)
      try files.createDirectory(at: target, withIntermediateDirectories: true)
      for name in try files.contentsOfDirectory(atPath: from.appendingPathComponent(device).path)
      where !name.hasPrefix(".") && !files.fileExists(atPath: target.appendingPathComponent(name).path) {
        try files.copyItem(at: from.appendingPathComponent(device).appendingPathComponent(name), to: target.appendingPathComponent(name))
      }
    }
  }

  /// Runs `babydash arguments…` on `phone` at `now`, its sync folder `folder`.
  @discardableResult
  static func on(_ phone: BabydashProcess, _ folder: URL, at now: String, _ arguments: [String]) throws -> BabydashProcess.Result {
    try phone.run(["--now", now, "--sync-folder", folder.path] + arguments)
  }

  @Test func twoPhonesThatHoldTheSameChangesShowTheSameDashboardAndWidget() throws {
    let phones = try Phones()
    defer { phones.removeAll() }
    let (mom, dad, momSync, dadSync) = (phones.mom, phones.dad, phones.momSync, phones.dadSync)
    #expect(try Self.on(mom, momSync, at: "2026-03-10T06:00:00Z", ["baby", "add", "Mia"]).status == 0)
    #expect(try Self.on(mom, momSync, at: "2026-03-10T06:01:00Z", ["baby", "add", "Leo"]).status == 0)
    try Self.carry(from: momSync, to: dadSync)
    // Dad's phone has never written: its first look shows the family.
    let first = try Self.on(dad, dadSync, at: "2026-03-10T06:05:00Z", ["baby", "list"])
    #expect(first.status == 0)
    #expect(first.stdout.contains("Mia") && first.stdout.contains("Leo"), "\(first.stdout)")
    #expect(first.stderr.contains("babydash: merged first: From "), "any command that merged says what: \(first.stderr)")
    #expect(first.stderr.contains("Mia added; Leo added."), "\(first.stderr)")
    // A partition: each phone logs a feed of Mia, Dad's the newer; only Mom logs Leo's.
    #expect(try Self.on(mom, momSync, at: "2026-03-10T07:30:00Z", ["feed", "log", "Mia", "--start", "07:00", "--end", "07:20", "--amount", "100ml"]).status == 0)
    #expect(try Self.on(mom, momSync, at: "2026-03-10T07:31:00Z", ["feed", "log", "Leo", "--start", "07:05", "--end", "07:25", "--amount", "4oz"]).status == 0)
    #expect(try Self.on(dad, dadSync, at: "2026-03-10T08:30:00Z", ["feed", "log", "Mia", "--start", "08:00", "--end", "08:15", "--amount", "90ml"]).status == 0)
    try Self.carry(from: momSync, to: dadSync)
    try Self.carry(from: dadSync, to: momSync)
    for command in [["status"], ["widget", "--family", "medium"]] {
      let shown = try [(mom, momSync), (dad, dadSync)].map { phone, folder in
        let result = try Self.on(phone, folder, at: "2026-03-10T09:00:00Z", command)
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout
      }
      #expect(shown[0] == shown[1], "\(command): the phones differ:\n\(shown[0])\n---\n\(shown[1])")
      if command == ["status"] {
        #expect(shown[0].contains("Prefill     90 mL"), "Mia's newest feed is 90 mL:\n\(shown[0])")
        #expect(shown[0].contains("Prefill     4 fl oz"), "\(shown[0])")
      }
    }
  }

  /// Dad's phone is restored from a backup of Mom's: both write under one device id. Mom
  /// logs a feed and compacts (her snapshot covers changes 1 and 2, and she deletes them); Dad
  /// logs another feed as his change 2. Once the files cross, no device would fold Dad's change
  /// 2 (Mom's snapshot stands for that number): Dad's phone, finding a snapshot under its id that
  /// it did not make, takes a new id and re-publishes under it what the snapshot covers. Both
  /// phones then show both feeds, and export the same data.
  @Test func aPhoneRestoredFromAnotherPhonesBackupLosesNoFeedWhenTheOtherCompacted() throws {
    let phones = try Phones()
    defer { phones.removeAll() }
    let (mom, dad, momSync, dadSync) = (phones.mom, phones.dad, phones.momSync, phones.dadSync)
    #expect(try Self.on(mom, momSync, at: "2026-03-10T06:00:00Z", ["baby", "add", "Mia"]).status == 0)
    for item in try FileManager.default.contentsOfDirectory(atPath: mom.appGroup.path) {
      try FileManager.default.copyItem(at: mom.appGroup.appendingPathComponent(item), to: dad.appGroup.appendingPathComponent(item))
    }
    #expect(try Self.on(mom, momSync, at: "2026-03-10T07:30:00Z", ["feed", "log", "Mia", "--start", "07:00", "--end", "07:20", "--amount", "100ml"]).status == 0)
    let compacted = try Self.on(mom, momSync, at: "2026-03-10T07:31:00Z", ["sync", "compact"])
    #expect(compacted.status == 0 && compacted.stdout.contains("Deleted 2 change files of this device"), "\(compacted.stdout)")
    #expect(try Self.on(dad, dadSync, at: "2026-03-10T08:30:00Z", ["feed", "log", "Mia", "--start", "08:00", "--end", "08:15", "--amount", "90ml"]).status == 0)
    try Self.carry(from: momSync, to: dadSync)
    try Self.carry(from: dadSync, to: momSync)
    #expect(try Self.on(dad, dadSync, at: "2026-03-10T09:00:00Z", ["sync", "now"]).status == 0)
    try Self.carry(from: dadSync, to: momSync)
    let exports = try [(mom, momSync), (dad, dadSync)].map { phone, folder in
      let history = try Self.on(phone, folder, at: "2026-03-10T09:05:00Z", ["history"]).stdout
      #expect(history.contains("100 mL") && history.contains("90 mL"), "both feeds are there:\n\(history)")
      let export = try Self.on(phone, folder, at: "2026-03-10T09:05:00Z", ["export"])
      #expect(export.status == 0, "\(export.stderr)")
      return export.stdout
    }
    #expect(exports[0] == exports[1], "the phones differ:\n\(exports[0])\n---\n\(exports[1])")
  }

  @Test func syncStatusOnlyLooksAndSaysWhatSyncNowWouldBring() throws {
    let phones = try Phones()
    defer { phones.removeAll() }
    let (mom, dad, momSync, dadSync) = (phones.mom, phones.dad, phones.momSync, phones.dadSync)
    #expect(try mom.run(["--now", "2026-03-10T06:00:00Z", "--sync-folder", momSync.path, "baby", "add", "Mia"]).status == 0)
    #expect(try dad.run(["--now", "2026-03-10T06:01:00Z", "--sync-folder", dadSync.path, "baby", "add", "Leo"]).status == 0)
    try Self.carry(from: dadSync, to: momSync)
    let before = try mom.snapshot()
    let status = try mom.run(["--now", "2026-03-10T06:05:00Z", "--sync-folder", momSync.path, "sync", "status"])
    #expect(status.status == 0)
    #expect(status.stdout.contains("1 change arrived, merged by the next command (or sync now)"), "\(status.stdout)")
    #expect(try mom.snapshot() == before, "sync status wrote or merged something")
    let now = try mom.run(["--now", "2026-03-10T06:06:00Z", "--sync-folder", momSync.path, "sync", "now"])
    #expect(now.stdout.hasPrefix("Merged 1 change file"), "\(now.stdout)")

    // A phone with only the others' changes: its status says so and creates nothing.
    let newPhone = try BabydashProcess()
    defer { newPhone.removeAll() }
    let newSync = newPhone.appGroup.appendingPathComponent("sync")
    try Self.carry(from: momSync, to: newSync)
    let empty = try newPhone.snapshot()
    let first = try newPhone.run(["--sync-folder", newSync.path, "sync", "status"])
    #expect(first.stdout.contains("holds other devices' changes"), "\(first.stdout)")
    #expect(try newPhone.snapshot() == empty)
  }

  @Test func syncNowSaysWhatTheOtherPhoneChangedInWords() throws {
    let phones = try Phones()
    defer { phones.removeAll() }
    let (mom, dad, momSync, dadSync) = (phones.mom, phones.dad, phones.momSync, phones.dadSync)
    func momRuns(_ now: String, _ arguments: [String]) throws -> BabydashProcess.Result {
      try mom.run(["--now", now, "--sync-folder", momSync.path] + arguments, environment: ["BABYDASH_DEVICE_NAME": "Mom's phone"])
    }
    func dadRuns(_ now: String, _ arguments: [String]) throws -> BabydashProcess.Result {
      try dad.run(["--now", now, "--sync-folder", dadSync.path] + arguments, environment: ["BABYDASH_DEVICE_NAME": "Dad's phone"])
    }
    #expect(try momRuns("2026-03-10T06:00:00Z", ["baby", "add", "Mia"]).status == 0)
    #expect(try momRuns("2026-03-10T06:01:00Z", ["baby", "add", "Leo"]).status == 0)
    #expect(try momRuns("2026-03-10T07:30:00Z", ["feed", "log", "Mia", "--start", "07:00", "--end", "07:20", "--amount", "110ml"]).status == 0)
    #expect(try momRuns("2026-03-10T07:31:00Z", ["feed", "log", "Leo", "--start", "06:40", "--end", "07:00", "--amount", "4oz"]).status == 0)
    try Self.carry(from: momSync, to: dadSync)
    let history = try dadRuns("2026-03-10T08:00:00Z", ["history"])
    let ids = history.stdout.split(separator: "\n").filter { $0.contains("Feed") }.map { String($0.split(separator: " ")[0]) }
    try #require(ids.count == 2, "\(history.stdout)")
    // The history lists the newest first: Mia's 07:00 feed, then Leo's 06:40.
    #expect(try dadRuns("2026-03-10T08:01:00Z", ["feed", "edit", ids[0], "--amount", "130ml"]).status == 0)
    #expect(try dadRuns("2026-03-10T08:02:00Z", ["feed", "delete", ids[1]]).status == 0)
    #expect(try dadRuns("2026-03-10T08:03:00Z", ["diaper", "Mia", "pee", "--at", "08:00"]).status == 0)
    try Self.carry(from: dadSync, to: momSync)
    let merged = try momRuns("2026-03-10T08:10:00Z", ["sync", "now"])
    #expect(merged.status == 0)
    #expect(
      merged.stdout.contains(
        "From Dad's phone: 1 diaper added; Mia's 07:00 feed amount changed to 130 mL (was 110 mL); Leo's 06:40 feed deleted."),
      "\(merged.stdout)")
    // Mom, who had Leo's feed on her screen, edits it: the tool says where it went.
    let edit = try momRuns("2026-03-10T08:11:00Z", ["feed", "edit", ids[1], "--memo", "#late"])
    #expect(edit.status == 65)
    #expect(edit.stderr.contains("the feed \(ids[1].lowercased()) was deleted on another device"), "\(edit.stderr)")
  }

  /// Mom logs Mia's feed 10:00–10:20; Dad, before it has reached his phone, notes its amount
  /// (`feed log Mia --start 10:00 --amount 150ml`, which on a phone that holds Mom's feed sets
  /// the amount and keeps 10:00–10:20). Once the files cross, both phones show what one phone
  /// making both saves shows: the end Dad never set stays, the feed is finished, and Mia can
  /// start her next one.
  @Test func aFeedsAmountNotedOnThePhoneWithoutItKeepsTheEndTheOtherPhoneLogged() throws {
    let phones = try Phones()
    defer { phones.removeAll() }
    let (mom, dad, momSync, dadSync) = (phones.mom, phones.dad, phones.momSync, phones.dadSync)
    #expect(try Self.on(mom, momSync, at: "2026-03-10T06:00:00Z", ["baby", "add", "Mia"]).status == 0)
    try Self.carry(from: momSync, to: dadSync)
    #expect(try Self.on(mom, momSync, at: "2026-03-10T10:25:00Z", ["feed", "log", "Mia", "--start", "10:00", "--end", "10:20"]).status == 0)
    #expect(try Self.on(dad, dadSync, at: "2026-03-10T10:30:00Z", ["feed", "log", "Mia", "--start", "10:00", "--amount", "150ml"]).status == 0)
    try Self.carry(from: momSync, to: dadSync)
    try Self.carry(from: dadSync, to: momSync)
    let shown = try [(mom, momSync), (dad, dadSync)].map { phone, folder in
      let history = try Self.on(phone, folder, at: "2026-03-10T10:40:00Z", ["history"])
      #expect(history.status == 0, "\(history.stderr)")
      return history.stdout
    }
    #expect(shown[0] == shown[1], "the phones differ:\n\(shown[0])\n---\n\(shown[1])")
    for history in shown {
      #expect(history.contains("Feed    20m, to 10:20 · 150 mL"), "one feed, 10:00–10:20, 150 mL:\n\(history)")
      #expect(!history.contains("in progress"), "\(history)")
    }
    for (phone, folder) in [(mom, momSync), (dad, dadSync)] {
      let start = try Self.on(phone, folder, at: "2026-03-10T12:00:00Z", ["feed", "start", "Mia"])
      #expect(start.status == 0, "Mia is not feeding: \(start.stderr)")
    }
  }

  /// Both phones log Mia's 07:00 feed while apart; when their files meet the two become one,
  /// which each phone says in words, and the merged-away id, still on its phone's screen,
  /// names the feed they became: an edit or a delete by it reaches that feed, and the
  /// tool says so.
  @Test func aFeedBothPhonesLoggedIsEditedAndDeletedByTheIDEitherPhoneShowed() throws {
    let phones = try Phones()
    defer { phones.removeAll() }
    let (mom, dad, momSync, dadSync) = (phones.mom, phones.dad, phones.momSync, phones.dadSync)
    #expect(try Self.on(mom, momSync, at: "2026-03-10T06:00:00Z", ["baby", "add", "Mia"]).status == 0)
    try Self.carry(from: momSync, to: dadSync)
    #expect(try Self.on(mom, momSync, at: "2026-03-10T07:30:00Z", ["feed", "log", "Mia", "--start", "07:00", "--amount", "100ml"]).status == 0)
    #expect(try Self.on(dad, dadSync, at: "2026-03-10T07:31:00Z", ["feed", "log", "Mia", "--start", "07:00", "--amount", "90ml"]).status == 0)
    func feedID(_ phone: BabydashProcess, _ folder: URL) throws -> String {
      let history = try Self.on(phone, folder, at: "2026-03-10T07:40:00Z", ["history"]).stdout
      let ids = history.split(separator: "\n").filter { $0.contains("Feed") }.map { String($0.split(separator: " ")[0]) }
      try #require(ids.count == 1, "\(history)")
      return ids[0]
    }
    let (momsID, dadsID) = (try feedID(mom, momSync), try feedID(dad, dadSync))
    try Self.carry(from: momSync, to: dadSync)
    try Self.carry(from: dadSync, to: momSync)
    let said = try [(mom, momSync), (dad, dadSync)].map { try Self.on($0, $1, at: "2026-03-10T07:39:00Z", ["sync", "now"]).stdout }
    // Each phone says it of the feed it held, and Mom's what the merge changed of hers (Dad's
    // amount, written after hers).
    #expect(said[0].contains("Mia's 07:00 feed, logged on both phones, kept once; Mia's 07:00 feed amount changed to 90 mL (was 100 mL)."), "\(said)")
    #expect(said[1].contains("Mia's 07:00 feed, logged on both phones, kept once."), "\(said)")
    #expect(!said.joined().contains("deleted") && !said.joined().contains("added"), "\(said)")
    let survivor = try feedID(mom, momSync)
    #expect(try feedID(dad, dadSync) == survivor, "one feed, the same on both phones")
    #expect([momsID, dadsID].contains(survivor))
    let (merged, phone, folder, other) = survivor == momsID ? (dadsID, dad, dadSync, momSync) : (momsID, mom, momSync, dadSync)

    let edit = try Self.on(phone, folder, at: "2026-03-10T07:41:00Z", ["feed", "edit", merged, "--memo", "#both"])
    #expect(edit.status == 0, "\(edit.stderr)")
    #expect(edit.stdout.contains("Updated feed \(survivor)"), "\(edit.stdout)")
    #expect(edit.stderr.contains("feed \(merged) merged into feed \(survivor) (both phones logged it"), "\(edit.stderr)")
    try Self.carry(from: folder, to: other)
    for (each, eachFolder) in [(mom, momSync), (dad, dadSync)] {
      let history = try Self.on(each, eachFolder, at: "2026-03-10T07:42:00Z", ["history"]).stdout
      #expect(history.contains("\"#both\""), "\(history)")
    }
    let delete = try Self.on(phone, folder, at: "2026-03-10T07:43:00Z", ["feed", "delete", String(merged.prefix(4))])
    #expect(delete.status == 0, "\(delete.stderr)")
    #expect(delete.stdout.contains("Deleted feed \(survivor)"), "\(delete.stdout)")
    #expect(try Self.on(phone, folder, at: "2026-03-10T07:44:00Z", ["history"]).stdout.contains("No feeds or diaper changes yet."))

    // The old id names a feed deleted since: each phone says where it went, and changes nothing.
    let gone = "the feed \(merged) merged into feed \(survivor) (both phones logged it, for the same baby and time), which was deleted"
    let here = try Self.on(phone, folder, at: "2026-03-10T07:45:00Z", ["feed", "edit", merged, "--memo", "#again"])
    #expect(here.status == 65)
    #expect(here.stderr.contains(gone + " (07:43): nothing was changed"), "\(here.stderr)")
    try Self.carry(from: folder, to: other)
    let otherPhone = survivor == momsID ? mom : dad
    #expect(try Self.on(otherPhone, other, at: "2026-03-10T07:46:00Z", ["history"]).stdout.contains("No feeds or diaper changes yet."))
    let before = try otherPhone.snapshot()
    let there = try Self.on(otherPhone, other, at: "2026-03-10T07:47:00Z", ["feed", "delete", merged])
    #expect(there.status == 65)
    #expect(there.stderr.contains(gone + " on another device (merged 07:46): nothing was changed"), "\(there.stderr)")
    #expect(try otherPhone.snapshot() == before)
  }
}
