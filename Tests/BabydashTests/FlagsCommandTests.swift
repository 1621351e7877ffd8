import BabyDashboard
import Foundation
import Testing

/// `babydash flags` and `flags set`: the rollout flags, their sources and this device's cohort.
@Suite struct FlagsCommandTests {
  let tool: BabydashProcess
  /// phone-1 is cohort 1 (DeviceCohortTests).
  let phone = ["BABYDASH_DEVICE_ID": "phone-1"]

  init() throws { tool = try BabydashProcess() }

  var document: URL { FlagDocument.url(in: tool.appGroup) }

  @Test func withoutADocumentEveryFlagShowsItsBuiltInValue() throws {
    defer { tool.removeAll() }
    let result = try tool.run(["flags"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.hasPrefix("""
      flag                 state  source    here  group    why
      lastFeedAmountCache  on     built-in  on    enabled  on for every device
      legacyImporter       on     built-in  on    enabled  on for every device
      """), "\(result.stdout)")
    #expect(result.stdout.contains("this device: no cohort yet"))
    #expect(try tool.snapshot().isEmpty)  // looking writes nothing
  }

  @Test func aSetFlagIsReadBackWithItsSourceAndThisDevicesCohortAndGroup() throws {
    defer { tool.removeAll() }
    let set = try tool.run(["flags", "set", "legacyImporter", "1%", "--owner", "Sungdoo: Phase B", "--minimum-app-version", "2.1"])
    #expect(set.status == 0, "\(set.stderr)")
    #expect(set.stdout == "Set legacyImporter to 1% in \(document.path).\n  owner \"Sungdoo: Phase B\", from app 2.1\n")
    let atOne = try tool.run(["flags", "--app-version", "2.1"], environment: phone)
    #expect(atOne.stdout.contains("legacyImporter       1%     flags.json  off   control  off: cohort 1 is in the control group\n"), "\(atOne.stdout)")
    #expect(atOne.stdout.contains("this device: cohort 1 (device id phone-1)\n"))
    // Grown to 5 %, the same phone is in; the owner and the minimum stay.
    #expect(try tool.run(["flags", "set", "legacyImporter", "5"]).status == 0)
    let atFive = try tool.run(["flags", "--app-version", "2.1"], environment: phone)
    #expect(atFive.stdout.contains("legacyImporter       5%     flags.json  on    enabled  on: cohort 1 is below 5\n"), "\(atFive.stdout)")
    #expect(atFive.stdout.contains("legacyImporter: owner \"Sungdoo: Phase B\", from app 2.1\n"))
    let tooOld = try tool.run(["flags", "--app-version", "2.0"], environment: phone)
    #expect(tooOld.stdout.contains("off: app 2.0 is older than the 2.1 it needs"))
  }

  @Test func aHandEditedDocumentIsReadAsItIs() throws {
    defer { tool.removeAll() }
    try FileManager.default.createDirectory(at: document.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(#"{ "format": 1, "flags": { "lastFeedAmountCache": { "state": "off", "owner": "backed out 2026-12-06" } } }"#.utf8).write(to: document)
    let result = try tool.run(["flags"], environment: phone)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("lastFeedAmountCache  off    flags.json  off   outside  off for every device\n"), "\(result.stdout)")
    // And the app obeys it: a set keeps the hand-written entry.
    #expect(try tool.run(["flags", "set", "legacyImporter", "off"]).status == 0)
    let document = try #require(try FlagDocument.load(from: document))
    #expect(document.entries[.lastFeedAmountCache] == FlagDocument.Entry(state: .off, owner: "backed out 2026-12-06"))
  }

  @Test func aDamagedDocumentIsRefusedByNameAndTheBuiltInsAreShown() throws {
    defer { tool.removeAll() }
    try FileManager.default.createDirectory(at: document.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(#"{"format": 1, "flags": {"legacyImporter": {"state": "20 percent"}}}"#.utf8).write(to: document)
    let result = try tool.run(["flags"])
    #expect(result.status == 65)
    #expect(result.stdout.contains("legacyImporter       on     built-in"))
    #expect(result.stderr.hasPrefix(
      "babydash: damaged at '\(document.path)': flag 'legacyImporter': state \"20 percent\" is not \"off\", \"on\" or a percentage from 0 to 100"),
      "\(result.stderr)")
    // A set does not overwrite what it cannot read (only the writers' lock file may appear).
    let before = try tool.snapshot()
    #expect(try tool.run(["flags", "set", "legacyImporter", "on"]).status == 65)
    #expect(try tool.snapshot().filter { !$0.key.hasSuffix(".lock") } == before)
  }

  @Test func importObeysTheFlagsDocument() throws {
    defer { tool.removeAll() }
    #expect(try tool.run(["flags", "set", "legacyImporter", "off"]).status == 0)
    let family = ImportCommandTests.fixtures.appendingPathComponent("legacy/family.json").path
    let result = try tool.run(["import", family])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("skipped: the legacy importer is off"), "\(result.stdout)")
  }

  @Test(arguments: [
    (["flags", "set", "nope", "on"], "babydash: no flag 'nope': the flags are lastFeedAmountCache, legacyImporter"),
    (["flags", "set", "legacyImporter", "120"], "babydash: bad state '120' for legacyImporter: expected \"off\", \"on\" or a percentage from 0 to 100"),
    (["flags", "--app-version", "two"], "babydash: bad value 'two' for --app-version: a version such as 2.1 or 2.1.3"),
  ])
  func aBadNameStateOrVersionIsAUsageError(_ arguments: [String], _ message: String) throws {
    defer { tool.removeAll() }
    let result = try tool.run(arguments)
    #expect(result.status == 64)
    #expect(result.stderr.hasPrefix(message + "\n"), "\(result.stderr)")
  }
}
