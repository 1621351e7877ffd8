import BabyDashboard
import BabyDashboardFixtures
import BabyDashboardTesting
import Foundation
import Testing

@Suite struct RolloutFlagsTests {
  func resolve(
    _ document: FlagDocument? = nil, preferences: [FeatureFlags.Flag: Bool] = [:], device: String? = "phone-1", app: String? = nil
  ) -> RolloutFlags {
    RolloutFlags.resolve(
      document: .success(document), preferences: preferences, cohort: device.map(DeviceCohort.init), appVersion: app.flatMap(AppVersion.init))
  }

  @Test func theDocumentWinsOverThisDevicesSwitchWhichWinsOverTheBuiltIns() {
    let document = FlagDocument(entries: [.legacyImporter: .init(state: .off)])
    let flags = resolve(document, preferences: [.legacyImporter: true, .lastFeedAmountCache: false])
    #expect(flags[.legacyImporter].source == .document)
    #expect(flags[.lastFeedAmountCache].source == .preferences)
    #expect(flags.flags == FeatureFlags(lastFeedAmountCache: false, legacyImporter: false))
    let builtIn = resolve()
    #expect(builtIn.values.allSatisfy { $0.source == .builtIn })
    #expect(builtIn.flags == .defaults)
  }

  @Test func aCohortPercentageIsOnForTheEnabledGroupOnly() {
    // phone-1 is cohort 1: in at 2 %, the control group at 1 %, outside at 1 % for cohort 40.
    let at = { (percent: Int, device: String) in
      resolve(FlagDocument(entries: [.legacyImporter: .init(state: FlagState(percent: percent)!)]), device: device)[.legacyImporter]
    }
    #expect(at(2, "phone-1").isOn && at(2, "phone-1").group == .enabled)
    #expect(!at(1, "phone-1").isOn && at(1, "phone-1").group == .control)
    #expect(at(1, "phone-1").reason == "off: cohort 1 is in the control group")
    let noID = resolve(FlagDocument(entries: [.legacyImporter: .init(state: .cohort(percent: 99))]), device: nil)[.legacyImporter]
    #expect(!noID.isOn && noID.group == .outside)
  }

  @Test func anAppOlderThanTheMinimumKeepsTheFlagOffAndOutOfTheComparison() {
    let document = FlagDocument(entries: [.legacyImporter: .init(state: .on, minimumAppVersion: AppVersion("2.1"))])
    #expect(!resolve(document, app: "2.0.9")[.legacyImporter].isOn)
    #expect(resolve(document, app: "2.0.9")[.legacyImporter].group == .outside)
    #expect(resolve(document, app: "2.0.9")[.legacyImporter].reason == "off: app 2.0.9 is older than the 2.1 it needs")
    #expect(resolve(document, app: "2.1")[.legacyImporter].isOn)
    #expect(resolve(document, app: nil)[.legacyImporter].isOn)  // no version given: not checked
  }

  @Test func aDamagedDocumentIsReportedAndTheOtherSourcesAreUsed() throws {
    let folder = try TemporaryDirectory("RolloutFlags")
    defer { folder.remove() }
    let url = FlagDocument.url(in: folder.url)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(#"{"format": 1, "flags": {"legacyImporter": {"state": "of"}}}"#.utf8).write(to: url)
    let keyValues = InMemoryKeyValueStore()
    try FeatureFlags.set(.lastFeedAmountCache, to: false, in: keyValues)
    let flags = try RolloutFlags.load(inAppGroup: folder.url, keyValueStore: keyValues, deviceID: "phone-1", appVersion: nil)
    #expect(flags.documentProblem?.path == url.path)
    #expect(flags.documentProblem?.detail.hasPrefix(#"flag 'legacyImporter': state "of" is not"#) == true)
    #expect(flags.flags == FeatureFlags(lastFeedAmountCache: false, legacyImporter: true))
    #expect(flags.groups == ["lastFeedAmountCache": .outside, "legacyImporter": .enabled])
  }
}
