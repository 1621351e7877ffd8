import BabyDashboard
import BabyDashboardTesting
import Foundation
import PlainStore
import Synchronization
import Testing

/// The launch step through its public API, on a real app-group folder: a SwiftData store built
/// by the fixture builder, the file key-value store, a file store opened only when needed.
@Suite struct BabyDashboardLaunchTests {
  let legacy: SwiftDataStoreFolder
  var appGroup: URL { legacy.store.deletingLastPathComponent() }
  var keyValues: FileKeyValueStore { FileKeyValueStore(appGroup: .current, directory: appGroup) }

  init() throws {
    legacy = try SwiftDataStoreFolder()
    try FileManager.default.createDirectory(at: legacy.store.deletingLastPathComponent(), withIntermediateDirectories: true)
  }

  /// A launch at the harness's fixed time, as phone-1 (cohort 1), recording the points it passes.
  func launch(batchSize: Int = 5, points: Tally<[String]>? = nil) -> BabyDashboardLaunch {
    let now = LegacyImportHarness.now
    var launch = BabyDashboardLaunch(
      appGroupDirectory: appGroup, keyValueStore: keyValues, deviceID: "phone-1", appVersion: AppVersion("2.1"), batchSize: batchSize,
      temporaryDirectory: legacy.readerTemporary, clock: { now })
    if let points { launch.checkpoint = { name in points.value.withLock { $0.append(name) } } }
    return launch
  }

  /// Runs a launch; `opened` counts the times it opened the store.
  func run(_ launch: BabyDashboardLaunch, opened: Tally<Int> = Tally(0)) -> LaunchReport {
    let group = appGroup
    return launch.run(openingStore: {
      opened.value.withLock { $0 += 1 }
      return try LegacyImportHarness.openStore(in: group)
    })
  }

  /// Every file under the app group with its bytes.
  func everyFile() throws -> [String: Data] {
    var files: [String: Data] = [:]
    let walker = FileManager.default.enumerator(at: appGroup, includingPropertiesForKeys: [.isRegularFileKey])
    while let url = walker?.nextObject() as? URL {
      guard try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true else { continue }
      files[url.path] = try Data(contentsOf: url)
    }
    return files
  }

  @Test func aFirstLaunchImportsBackfillsAndLogsAndTheNextOneOpensAndWritesNothing() throws {
    defer { legacy.remove() }
    try legacy.build(try SwiftDataStoreFolder.familyExport())
    let points = Tally<[String]>([])
    let report = run(launch(points: points))
    #expect(report.problems == [])
    #expect(report.newStoreBefore == StoreContentCounts(babies: 0, feeds: 0, diapers: 0))
    guard case .imported(let imported) = report.importStep else { Issue.record("\(report)"); return }
    #expect(imported.insertedCount == 18)
    #expect(report.swiftDataStore.companions == ["-wal", "-shm"])
    // 18 objects in saves of 5: four batches, then the backfill (the importer's own filled every value).
    #expect(points.value.withLock { $0 } == ["started", "import-batch-1", "import-batch-2", "import-batch-3", "import-batch-4", "imported", "backfilled", "finished"])
    #expect(try MigrationRecord.load(from: keyValues)?.schemaVersion == BabyDashboardSchema.version)
    #expect(try LastFeedAmountBackfillRecord.load(from: keyValues) != nil)

    // The migration log reads back with start, end, duration, counts and errors.
    let log = try #require(try MigrationLog.load(from: keyValues))
    #expect(log.lines.first == "legacy import of 'BabyDashboard.sqlite': imported")
    #expect(log.lines.contains("started:  2026-01-15T09:30:00.000Z"))
    #expect(log.lines.contains("duration: 0.000 s"))
    #expect(log.lines.contains { $0.hasPrefix("FeedSession") && $0.contains(" 9 ") })
    #expect(log.lines.last == "errors: none")
    let telemetry = try LaunchTelemetry.load(from: keyValues)
    #expect(telemetry.launches == 1 && telemetry.crashes == 0 && telemetry.objectsImported == 18)
    #expect(telemetry.cohort == 1 && telemetry.groups == ["lastFeedAmountCache": .enabled, "legacyImporter": .enabled])
    // Kept readable in the preferences file, not as base64.
    let preferences = String(decoding: try Data(contentsOf: AppGroup.current.keyValueFileURL(in: appGroup)), as: UTF8.self)
    #expect(!preferences.contains("binaryValues"), "\(preferences)")

    let before = try everyFile()
    let opened = Tally(0)
    let again = run(launch(), opened: opened)
    #expect(again.didNothing)
    #expect(opened.value.withLock { $0 } == 0)
    #expect(try everyFile() == before)
    #expect(again.description.hasPrefix("launch: nothing to do\n"))
    #expect(again.description.contains("import: not needed — completed for schema \(BabyDashboardSchema.version) at 2026-01-15T09:30:00.000Z"))
  }

  @Test func theImporterOffForThisDevicesCohortImportsNothingAndSaysWhy() throws {
    defer { legacy.remove() }
    try legacy.build(try SwiftDataStoreFolder.familyExport())
    try FlagDocument.modify(at: FlagDocument.url(in: appGroup)) { $0.entries[.legacyImporter] = .init(state: .cohort(percent: 1)) }
    let report = run(launch())
    #expect(report.importStep == LaunchReport.ImportStep.notNeeded("the importer is off here (off: cohort 1 is in the control group)"))
    #expect(try MigrationRecord.load(from: keyValues) == nil)
    #expect(report.telemetry?.groups["legacyImporter"] == DeviceCohort.Group.control)
    #expect(report.newStoreBefore?.isEmpty == true)  // opened for the backfill only
  }

  @Test func aDamagedSwiftDataStoreIsCountedAsAValidationErrorAndLoggedNotThrown() throws {
    defer { legacy.remove() }
    try Data("not a database".utf8).write(to: legacy.store)
    let report = run(launch())
    guard case .failed(let why) = report.importStep else { Issue.record("\(report)"); return }
    #expect(why.contains("BabyDashboard.sqlite"))
    #expect(report.telemetry?.validationErrors == 1)
    #expect(try MigrationLog.load(from: keyValues)?.lines.last?.hasPrefix("failed: ") == true)
    #expect(report.description.contains("problem: import: "))
    // The next launch tries again, and counts again.
    #expect(run(launch()).telemetry?.validationErrors == 2)
  }

  @Test func aLaunchThatDidNotFinishIsCountedAsACrashByTheNext() throws {
    defer { legacy.remove() }
    _ = run(launch())
    #expect(run(launch()).didNothing)
    // What a kill after "started" leaves: the started mark.
    try keyValues.set(Data(#"{"startedAt":"2026-01-15T09:29:00.000Z"}"#.utf8), forKey: "launchInProgress")
    let report = run(launch())
    #expect(report.previousLaunchInterrupted)
    #expect(report.telemetry?.crashes == 1)
    #expect(report.description.contains("previous launch: did not finish (counted as a crash)"))
    #expect(run(launch()).didNothing)
  }

  @Test func aDamagedFlagsDocumentIsReportedAndTheBuiltInsRun() throws {
    defer { legacy.remove() }
    let url = FlagDocument.url(in: appGroup)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(#"{"format": 1, "flags": {"legacyImporter": {"state": "maybe"}}}"#.utf8).write(to: url)
    let report = run(launch())
    #expect(report.problems.first?.hasPrefix("damaged at '\(url.path)': flag 'legacyImporter'") == true)
    #expect(report.telemetry?.flagDocumentRefusals == 1)
    #expect(report.flags[.legacyImporter].source == .builtIn)
  }
}

/// A value the launch's callbacks change from any thread.
final class Tally<Value: Sendable>: Sendable {
  let value: Mutex<Value>
  init(_ initial: Value) { value = Mutex(initial) }
}
