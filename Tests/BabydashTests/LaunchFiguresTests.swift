import BabyDashboard
import Foundation
import SwiftDataStoreBuilder
import Testing

/// The launch step's figures on a large SwiftData store, printed for the closing note:
/// the first launch (import in batches and backfill), the Phase A backfill alone, and a launch
/// with everything done. Timings stay out of the ordinary runs (two shared cores make them
/// noise); run it with `BABYDASH_LAUNCH_FIGURES=50000 swift test --skip-build --filter LaunchFiguresTests`.
@Suite struct LaunchFiguresTests {
  static let objects = Int(ProcessInfo.processInfo.environment["BABYDASH_LAUNCH_FIGURES"] ?? "") ?? 0

  /// `objects` records: 4 babies, then feeds and diapers in turn, a few minutes apart.
  static func export(objects: Int) -> LegacyExport {
    let start = Date(timeIntervalSince1970: 1_700_000_000)
    let babies = (0..<4).map { LegacyBabyProfile(id: UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", $0))!, name: "Baby \($0)") }
    var feeds: [LegacyFeedSession] = []
    var diapers: [LegacyDiaperChange] = []
    for index in 0..<(objects - babies.count) {
      let baby = babies[(index / 2) % babies.count].id
      let time = start.addingTimeInterval(Double(index) * 300)
      if index % 2 == 0 {
        feeds.append(LegacyFeedSession(profileID: baby, startTime: time, endTime: time.addingTimeInterval(900), amountValue: 90, amountUnitSymbol: "ml"))
      } else {
        diapers.append(LegacyDiaperChange(profileID: baby, timestamp: time, type: index % 3 == 0 ? .poo : .pee))
      }
    }
    return LegacyExport(exportedAt: start, babyProfiles: babies, feedSessions: feeds, diaperChanges: diapers)
  }

  /// The launch step's time as `--timing` prints it, in milliseconds.
  static func stepTime(_ result: BabydashProcess.Result) -> Double {
    let line = result.stderr.split(separator: "\n").first { $0.hasPrefix("launch step: ") } ?? ""
    return Double(line.dropFirst("launch step: ".count).dropLast(" ms".count)) ?? .nan
  }

  @Test(.enabled(if: objects > 0)) func launchFigures() throws {
    let tool = try BabydashProcess()
    defer { tool.removeAll() }
    try SwiftDataStoreBuilder().write(Self.export(objects: Self.objects), to: tool.appGroup.appendingPathComponent("BabyDashboard.sqlite"))
    let phone = ["BABYDASH_DEVICE_ID": "phone-1"]

    let first = try tool.run(["launch", "--timing"], environment: phone)
    #expect(first.status == 0, "\(first.stderr)")
    #expect(first.stdout.contains("import: wrote 4 babies"))

    // Phase A's backfill alone: its marker and the values removed, as before Phase A reached this phone.
    // The preferences `babydash` keeps: one app group for every build of the tool (`.release`).
    let keyValues = FileKeyValueStore(appGroup: .release, directory: tool.appGroup)
    try keyValues.modify { values in values = values.filter { !$0.key.hasPrefix("lastFeedAmount") } }
    let backfill = try tool.run(["launch", "--timing"], environment: phone)
    #expect(backfill.stdout.contains("backfill: 4 of 4 babies received a last feed amount"), "\(backfill.stdout)")

    var noOps: [Double] = []
    var processes: [Double] = []
    for _ in 0..<21 {
      let started = ContinuousClock.now
      let result = try tool.run(["launch", "--timing"], environment: phone)
      let elapsed = ContinuousClock.now - started
      #expect(result.stdout.hasPrefix("launch: nothing to do\n"))
      noOps.append(Self.stepTime(result))
      processes.append(Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
    }
    noOps.sort()
    processes.sort()

    // On coming to the foreground the app calls the step again in a warm process: measured here,
    // through the library, on the same app group (a fresh process pays ICU's collation data
    // once, for the preferences file's sorted-key checksum).
    let launch = BabyDashboardLaunch(
      appGroupDirectory: tool.appGroup, keyValueStore: keyValues, deviceID: "phone-1", clock: { Date() })
    var warm: [Double] = []
    for _ in 0..<101 {
      let started = ContinuousClock.now
      let report = launch.run(openingStore: { throw CocoaError(.featureUnsupported) })  // a no-op opens nothing
      let elapsed = ContinuousClock.now - started
      #expect(report.didNothing)
      warm.append(Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
    }
    warm.sort()
    print("""
      LaunchFiguresTests (\(Self.objects) objects): first launch (import + backfill) \(Self.stepTime(first)) ms; \
      Phase A backfill alone \(Self.stepTime(backfill)) ms; no-op launch step in a fresh babydash over 21 runs: min \(noOps[0]) ms, \
      median \(noOps[10]) ms, max \(noOps[20]) ms; whole babydash process median \(processes[10]) ms; \
      no-op step again in a warm process over 101 runs: min \(warm[0]) ms, median \(warm[50]) ms, max \(warm[100]) ms
      """)
  }
}
