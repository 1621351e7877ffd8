import Foundation
import PlainStore

/// The step the app runs at launch and on coming to the foreground: finds what the move off
/// SwiftData still needs, does it, and says what it did.
///
/// One run, holding the launch lock (another launch at work makes it return at once, doing
/// nothing):
/// 1. resolves the flags for this device (``RolloutFlags``: the flags document, this device's
///    switches, the built-ins; its cohort from its device id, taken once and kept);
/// 2. reads the migration record, the backfill's done marker and whether the last launch
///    finished, and looks for the SwiftData store (`BabyDashboard.sqlite`, `-wal`, `-shm`);
/// 3. with the importer off after this phone's cutover, opens the store and reports what to hand
///    back to the SwiftData store (``MigrationBackout``) — unless the store's truth has not
///    changed since a launch found nothing to hand back (``StoreContainer/truthDigest(ofStoreAt:options:)``);
/// 4. reads what the family's devices publish about the change-file formats they read (two
///    versions of the app side by side): ``LaunchReport/versionNotice``;
/// 5. if everything is done, returns at once, having opened nothing and written nothing;
/// 6. else marks the launch as started, opens the new store and counts what it holds, runs the
///    import (``LegacyImporter``, in batches, through ``SwiftDataStoreReader``) and writes its
///    ``MigrationLog``, runs the Phase A backfill (``LastFeedAmountCache/backfill(from:flags:afterEach:)``)
///    and records ``LastFeedAmountBackfillRecord``, adds the launch to ``LaunchTelemetry``, and
///    clears the started mark.
///
/// Every step is idempotent (the importer skips what the store holds; the backfill replaces no
/// value; the records are written last), so a launch killed anywhere is finished by the next one,
/// which counts the kill as a crash. Failures are reported in the ``LaunchReport`` and counted,
/// never thrown.
///
/// ```swift
/// let launch = BabyDashboardLaunch(appGroupDirectory: folder, keyValueStore: keyValues,
///                                  appVersion: AppVersion("2.1"), clock: { Date() })
/// let report = await launch.runInBackground(openingStore: { container })
/// if !report.didNothing { logger.info("\(report)") }
/// ```
public struct BabyDashboardLaunch: Sendable {
  /// The app group's folder: the SwiftData store and the flags document are looked for there.
  public var appGroupDirectory: URL
  /// The app group's key-value store: flags switches, records, markers, log and telemetry.
  public var keyValueStore: any KeyValueStore
  /// This device's id for the cohorts, or `nil` for the one kept in ``keyValueStore`` (taken at
  /// the first launch).
  public var deviceID: String?
  /// The running app's version, checked against each flag's minimum; `nil` checks none.
  public var appVersion: AppVersion?
  /// Objects per save of the import.
  public var batchSize: Int
  /// Where the SwiftData store is copied aside to be read.
  public var temporaryDirectory: URL
  /// The time source of the reports and records; pass a fixed one in tests.
  public var clock: @Sendable () -> Date
  /// Told when the step passes a named point: `started`, `import-batch-N` (after the N-th saved
  /// batch), `imported` (log and cutover written, `migrationCompleted` not yet), `backfill-baby-N`
  /// (after the N-th value written), `backfilled`, `finished`. For progress, and for the tests that kill a launch at one of them.
  public var checkpoint: (@Sendable (String) -> Void)?
  /// How the app opens its store (its sync folder, its carrier): the launch reads there what the
  /// family's devices publish about the versions they run (``LaunchReport/versionNotice``),
  /// without opening the store.
  public var storeOptions = StoreOptions()

  public init(
    appGroupDirectory: URL, keyValueStore: any KeyValueStore, deviceID: String? = nil, appVersion: AppVersion? = nil,
    batchSize: Int = LegacyImporter.defaultBatchSize, temporaryDirectory: URL = FileManager.default.temporaryDirectory,
    clock: @escaping @Sendable () -> Date
  ) {
    self.appGroupDirectory = appGroupDirectory
    self.keyValueStore = keyValueStore
    self.deviceID = deviceID
    self.appVersion = appVersion
    self.batchSize = max(1, batchSize)
    self.temporaryDirectory = temporaryDirectory
    self.clock = clock
  }

  /// The lock one launch holds while it decides and works, so that the app and another process
  /// (a second `babydash launch`) never import at once: `Rollout/launch.lock` in the app group.
  public static func lockURL(inAppGroup groupDirectory: URL) -> URL {
    groupDirectory.appendingPathComponent("Rollout", isDirectory: true).appendingPathComponent("launch.lock", isDirectory: false)
  }

  /// Runs the step; `openingStore` is called only when there is work (the app passes its open
  /// container). If another launch holds the launch lock, returns at once having done nothing
  /// (``LaunchReport/anotherLaunchAtWork``): that one does the work.
  public func run(openingStore: () throws -> StoreContainer) -> LaunchReport {
    do {
      // The kernel lets go of the lock when its holder ends, however it ends.
      return try DurableFile.withExclusiveLock(Self.lockURL(inAppGroup: appGroupDirectory), timeout: .zero) {
        runHoldingLock(openingStore: openingStore)
      }
    } catch let error as StoreError where error.code == .locked {
      return unstarted(anotherLaunchAtWork: true, problems: [])
    } catch {
      return unstarted(anotherLaunchAtWork: false, problems: ["the launch lock could not be taken: \(error)"])
    }
  }

  /// The report of a launch that did not start.
  private func unstarted(anotherLaunchAtWork: Bool, problems: [String]) -> LaunchReport {
    let now = clock()
    let why = anotherLaunchAtWork ? "another launch is at work" : "the launch did not start"
    var report = LaunchReport(
      startedAt: now, finishedAt: now,
      flags: RolloutFlags.resolve(document: .success(nil), preferences: [:], cohort: deviceID.map(DeviceCohort.init), appVersion: appVersion),
      swiftDataStore: SwiftDataStoreLocation(inAppGroup: appGroupDirectory), newStoreBefore: nil, importStep: .notNeeded(why),
      backfillStep: .notNeeded(why), previousLaunchInterrupted: false, telemetry: nil, problems: problems)
    report.anotherLaunchAtWork = anotherLaunchAtWork
    return report
  }

  private func runHoldingLock(openingStore: () throws -> StoreContainer) -> LaunchReport {
    let startedAt = clock()
    var problems: [String] = []
    let rollout: RolloutFlags
    // One read of the preferences for every decision: a launch with nothing to do stays a few
    // file reads long, whatever the store holds.
    var preferences: any KeyValueStore = keyValueStore
    do {
      preferences = try KeyValueSnapshot(of: keyValueStore)
      let id = try deviceID ?? DeviceCohort.storedDeviceID(in: preferences) ?? DeviceCohort.deviceID(in: keyValueStore)
      rollout = try RolloutFlags.load(inAppGroup: appGroupDirectory, keyValueStore: preferences, deviceID: id, appVersion: appVersion)
    } catch {
      // Without the preferences nothing can be decided safely: the built-ins say what runs.
      problems.append("the preferences could not be read: \(error)")
      rollout = RolloutFlags.resolve(document: .success(nil), preferences: [:], cohort: deviceID.map(DeviceCohort.init), appVersion: appVersion)
    }
    if let problem = rollout.documentProblem { problems.append(problem.description) }
    let flags = rollout.flags
    let legacy = SwiftDataStoreLocation(inAppGroup: appGroupDirectory)
    var report = LaunchReport(
      startedAt: startedAt, finishedAt: startedAt, flags: rollout, swiftDataStore: legacy, newStoreBefore: nil,
      importStep: .notNeeded(""), backfillStep: .notNeeded(""), previousLaunchInterrupted: false, telemetry: nil, problems: problems)
    report.changeFormats = StoreContainer.changeFormats(ofStoreAt: AppGroup.storeURL(in: appGroupDirectory), options: storeOptions)

    // What is left to do: only reads so far.
    let record: MigrationRecord?
    let backfillDone: LastFeedAmountBackfillRecord?
    let cutOver: Bool
    do {
      cutOver = try preferences.data(forKey: MigrationBackout.cutoverKey) != nil
      record = try MigrationRecord.load(from: preferences)
      backfillDone = try LastFeedAmountBackfillRecord.load(from: preferences)
      report.previousLaunchInterrupted = try LaunchInProgress.isSet(in: preferences)
    } catch {
      report.problems.append("\(error)")
      report.importStep = .failed("the launch records could not be read")
      report.backfillStep = .failed("the launch records could not be read")
      report.finishedAt = clock()
      return report
    }
    let importNeeded: Bool
    if !flags.legacyImporter {
      importNeeded = false
      report.importStep = .notNeeded("the importer is off here (\(rollout[.legacyImporter].reason))")
    } else if let record, !MigrationRecord.importerShouldRun(flags: flags, record: record, schemaVersion: BabyDashboardSchema.version) {
      importNeeded = false
      report.importStep = .notNeeded("completed for schema \(record.schemaVersion) at \(ISO8601.formatMilliseconds(record.completedAt))")
    } else if !legacy.exists {
      importNeeded = false
      report.importStep = .notNeeded("no SwiftData store in the app group")
    } else {
      importNeeded = true
    }
    let backfillNeeded: Bool
    if !flags.lastFeedAmountCache {
      backfillNeeded = false
      report.backfillStep = .notNeeded("the last feed amount cache is off here (\(rollout[.lastFeedAmountCache].reason))")
    } else if let backfillDone {
      backfillNeeded = false
      report.backfillStep = .notNeeded("done at \(backfillDone.completedAt)")
    } else {
      backfillNeeded = true
    }
    // Importer off after this phone's cutover: what the app wrote since goes back to SwiftData.
    let backoutNeeded = !flags.legacyImporter && cutOver
    if backoutNeeded {
      // Taken before the open: whatever the open itself writes (a file restored from the
      // journal, a compaction) costs the next launch one more open, never a handback.
      let digest = Data(StoreContainer.truthDigest(ofStoreAt: AppGroup.storeURL(in: appGroupDirectory), options: storeOptions).utf8)
      do {
        if try preferences.data(forKey: MigrationBackout.nothingToHandBackKey) == digest {
          report.backoutStep = .unchanged
        } else {
          let handback = try MigrationBackout.handback(from: try openingStore(), keyValueStore: preferences)
          report.backoutStep = handback.map { .handBack($0) } ?? .notNeeded("no cutover in the store")
          if handback?.changes.isEmpty == true { try keyValueStore.set(digest, forKey: MigrationBackout.nothingToHandBackKey) }
        }
      } catch {
        report.backoutStep = .failed("\(error)")
        report.problems.append("backout: \(error)")
      }
    }
    guard importNeeded || backfillNeeded || report.previousLaunchInterrupted || !report.problems.isEmpty else {
      report.finishedAt = clock()
      return report
    }

    var telemetry: LaunchTelemetry
    do { telemetry = try LaunchTelemetry.load(from: preferences) } catch {
      report.problems.append("\(error)")
      telemetry = LaunchTelemetry()
    }
    telemetry.launches += 1
    if report.previousLaunchInterrupted { telemetry.crashes += 1 }
    if rollout.documentProblem != nil { telemetry.flagDocumentRefusals += 1 }
    do { try LaunchInProgress.set(startedAt: startedAt, in: keyValueStore) } catch { report.problems.append("\(error)") }
    checkpoint?("started")

    if importNeeded || backfillNeeded {
      do {
        let container = try openingStore()
        report.newStoreBefore = try container.newBackgroundContext().contentCounts()
        if importNeeded { report.importStep = runImport(into: container, legacy: legacy, flags: flags, telemetry: &telemetry) }
        if backfillNeeded { report.backfillStep = runBackfill(on: container, flags: flags, telemetry: &telemetry) }
      } catch {
        report.problems.append("the store could not be opened: \(error)")
        telemetry.importFailures += importNeeded ? 1 : 0
        telemetry.backfillErrors += backfillNeeded ? 1 : 0
        if importNeeded { report.importStep = .failed("the store could not be opened") }
        if backfillNeeded { report.backfillStep = .failed("the store could not be opened") }
      }
    }
    if case .failed(let why) = report.importStep { report.problems.append("import: \(why)") }
    if case .failed(let why) = report.backfillStep { report.problems.append("backfill: \(why)") }

    telemetry.cohort = rollout.cohort?.number
    telemetry.groups = rollout.groups
    telemetry.appVersion = appVersion?.description
    if let last = report.problems.last { telemetry.lastError = last }
    report.finishedAt = clock()
    telemetry.updatedAt = ISO8601.formatMilliseconds(report.finishedAt)
    do { try telemetry.save(to: keyValueStore) } catch { report.problems.append("the telemetry could not be written: \(error)") }
    report.telemetry = telemetry
    checkpoint?("finished")
    do { try LaunchInProgress.clear(in: keyValueStore) } catch { report.problems.append("\(error)") }
    return report
  }

  /// Runs ``run(openingStore:)`` off the caller's thread.
  public func runInBackground(openingStore: @escaping @Sendable () throws -> StoreContainer) async -> LaunchReport {
    await Task.detached(priority: .utility) { self.run(openingStore: openingStore) }.value
  }

  /// The import, through the one importer; its log is written whatever the outcome.
  private func runImport(
    into container: StoreContainer, legacy: SwiftDataStoreLocation, flags: FeatureFlags, telemetry: inout LaunchTelemetry
  ) -> LaunchReport.ImportStep {
    var importer = LegacyImporter(container: container, keyValueStore: keyValueStore, flags: flags, batchSize: batchSize, clock: clock)
    let (checkpoint, batchSize) = (self.checkpoint, self.batchSize)
    importer.progress = { written, _ in checkpoint?("import-batch-\((written + batchSize - 1) / batchSize)") }
    let reader = SwiftDataStoreReader(fileURL: legacy.fileURL, source: SwiftDataStoreLocation.fileName, temporaryDirectory: temporaryDirectory)
    let keyValueStore = self.keyValueStore
    // Written before migrationCompleted, so that a kill leaves neither without the other: the
    // log, and the cutover from which the store keeps what a backout hands back.
    importer.beforeRecording = { completed in
      try MigrationLog(completed).save(to: keyValueStore)
      try MigrationBackout.markCutover(in: container, keyValueStore: keyValueStore)
      checkpoint?("imported")
    }
    let startedAt = clock()
    do {
      let imported = try importer.run(reader)
      telemetry.objectsImported += imported.insertedCount
      if !imported.errors.isEmpty {
        do { try MigrationLog(imported).save(to: keyValueStore) } catch {
          return .failed("imported, but the migration log could not be written: \(error)")
        }
        telemetry.importFailures += 1
        return .failed("imported with \(imported.errors.count) error(s), first: \(imported.errors[0])")
      }
      return .imported(imported)
    } catch {
      let failure = error as? LegacyImportError
      switch failure?.code {
      case .badData?, .newerVersion?: telemetry.validationErrors += 1
      case .verificationFailed?: telemetry.divergences += 1
      default: telemetry.importFailures += 1
      }
      do {
        try MigrationLog(failed: error, report: failure?.report, startedAt: startedAt, finishedAt: clock()).save(to: keyValueStore)
      } catch let logError {
        return .failed("\(error); the migration log could not be written either: \(logError)")
      }
      return .failed("\(error)")
    }
  }

  /// Phase A's backfill, through the one backfill, and its done marker.
  private func runBackfill(on container: StoreContainer, flags: FeatureFlags, telemetry: inout LaunchTelemetry) -> LaunchReport.BackfillStep {
    let cache = LastFeedAmountCache(store: keyValueStore)
    let checkpoint = self.checkpoint
    do {
      guard let backfilled = try cache.backfill(from: container.newBackgroundContext(), flags: flags, afterEach: { checkpoint?("backfill-baby-\($0)") })
      else { return .notNeeded("the last feed amount cache is off here") }
      checkpoint?("backfilled")
      try LastFeedAmountBackfillRecord(completedAt: clock(), report: backfilled).save(to: keyValueStore)
      telemetry.babiesAtBackfill = backfilled.babies
      telemetry.babiesBackfilled = backfilled.backfilled
      return .backfilled(backfilled)
    } catch {
      telemetry.backfillErrors += 1
      return .failed("\(error)")
    }
  }
}
