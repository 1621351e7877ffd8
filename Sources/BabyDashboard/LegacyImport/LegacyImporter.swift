import Foundation
import PlainStore

/// Imports SwiftData-era data into the store (Phase B, <doc:Importer>), through any
/// ``LegacyStoreReader``.
///
/// One run: check the feature flag and `migrationCompleted`; read and validate the whole source
/// (bad data stops it before anything is written); insert, in one background context and in
/// batches, the babies (with `createdAt` backfilled from their earliest feed or diaper, else the
/// run's start time), feeds and diapers (with a uuid derived from their unique key, orphans kept
/// with no baby, unit symbols made canonical), skipping what the store already holds by its
/// unique keys; verify counts and relationships; backfill ``LastFeedAmountCache``; record
/// ``MigrationRecord``. Running it again, or after a crash part-way, changes nothing and adds
/// nothing it should not.
///
/// ```swift
/// let importer = LegacyImporter(container: container, keyValueStore: keyValueStore, clock: { Date() })
/// let report = try importer.run(LegacyJSONExportReader(fileURL: url), dryRun: false, force: false)
/// print(report)
/// ```
public struct LegacyImporter: Sendable {
  /// Objects per save unless told otherwise: bounded transactions for large sources.
  public static let defaultBatchSize = 5000
  /// The author of the transactions the importer commits.
  public static let author = "legacy-import"

  /// The store to import into.
  public let container: StoreContainer
  /// Where the feature flags, `migrationCompleted` and the last-feed-amount cache live.
  public let keyValueStore: any KeyValueStore
  /// The flags to obey, or `nil` to load them from ``keyValueStore``.
  public var flags: FeatureFlags?
  /// Objects per save.
  public var batchSize: Int
  /// The time source for the report and the migration start time.
  public let clock: @Sendable () -> Date
  /// Told after each saved batch how many objects of how many are written (for a progress line).
  public var progress: (@Sendable (_ written: Int, _ total: Int) -> Void)?
  /// Asked before the first batch and after each saved one (after ``progress``): true stops the
  /// import there with ``LegacyImportError/Code/stopped`` (the app going to the background,
  /// Ctrl-C in `babydash import`). What was saved stays; a second run finishes.
  public var shouldStop: (@Sendable () -> Bool)?
  /// Told the report of a completed import just before `migrationCompleted` is saved: what must
  /// be written with the import (the launch step's migration log and cutover) is written here,
  /// so that a kill never leaves the record without it. What it throws stops the run unrecorded.
  public var beforeRecording: (@Sendable (LegacyImportReport) throws -> Void)?
  /// Test hooks (failures injected between batches, changes before verification).
  /// Whether a legacy baby may take the name of a baby the store holds with another id (the
  /// tracker's same-name rule, ``Tracker/sharedNames(writing:allowingSameName:)``); off, such an
  /// import is refused before anything is written.
  public var allowsSameName = false
  /// Whether events dated ahead of the clock may be imported (``Tracker/aheadOfNow(_:now:)``); off,
  /// such an import is refused, each one named, before anything is written.
  public var allowsFuture = false
  var hooks = LegacyImportHooks()

  /// An importer into `container`.
  ///
  /// - Parameters:
  ///   - container: the store.
  ///   - keyValueStore: the app group's key-value store.
  ///   - flags: the flags to obey; `nil` reads them from `keyValueStore`.
  ///   - batchSize: objects per save (at least 1).
  ///   - clock: the time source; pass a fixed one in tests.
  public init(
    container: StoreContainer, keyValueStore: any KeyValueStore, flags: FeatureFlags? = nil,
    batchSize: Int = LegacyImporter.defaultBatchSize, clock: @escaping @Sendable () -> Date
  ) {
    self.container = container
    self.keyValueStore = keyValueStore
    self.flags = flags
    self.batchSize = max(1, batchSize)
    self.clock = clock
  }

  /// Runs the import from `reader`.
  ///
  /// - Parameters:
  ///   - reader: the legacy source.
  ///   - dryRun: read, validate and count against the store, and write nothing (no records,
  ///     no cache values, no `migrationCompleted`).
  ///   - force: run even though `migrationCompleted` says an import finished for this schema.
  /// - Returns: the report; its outcome says when the run was skipped (flag off, completed).
  /// - Throws: ``LegacyImportError``: unreadable source or bad data (nothing written), a store
  ///   failure (batches saved so far stay; a re-run completes them), a verification mismatch
  ///   (with the report), a key-value store failure.
  @discardableResult
  public func run(_ reader: any LegacyStoreReader, dryRun: Bool = false, force: Bool = false) throws -> LegacyImportReport {
    let source = reader.source
    let startedAt = clock()
    func kvError(_ error: any Error, _ what: String) -> LegacyImportError {
      LegacyImportError(code: .keyValueStore, source: source, detail: "\(what): \(error)")
    }

    let flags: FeatureFlags
    do { flags = try self.flags ?? FeatureFlags.load(from: keyValueStore) } catch { throw kvError(error, "cannot read the feature flags") }
    guard flags.legacyImporter else {
      return LegacyImportReport(source: source, outcome: .skippedFeatureFlagOff, startedAt: startedAt, finishedAt: clock())
    }
    let record: MigrationRecord?
    do { record = try MigrationRecord.load(from: keyValueStore) } catch { throw kvError(error, "cannot read migrationCompleted") }
    if let record, !force,
      !MigrationRecord.importerShouldRun(flags: flags, record: record, schemaVersion: BabyDashboardSchema.version)
    {
      return LegacyImportReport(
        source: source, outcome: .skippedAlreadyCompleted(record), startedAt: startedAt, finishedAt: clock())
    }

    let export = try reader.read()
    try export.validate(source: source)
    let plan = LegacyImportPlan(export: export, migrationStart: startedAt)

    let context = container.newBackgroundContext(author: Self.author)
    var report = LegacyImportReport(
      source: source, outcome: dryRun ? .dryRun : .imported, forced: force, startedAt: startedAt, finishedAt: startedAt,
      babyProfiles: plan.profileCounts, feedSessions: plan.feedCounts, diaperChanges: plan.diaperCounts)
    let tracker = Tracker(context: context, schema: container.schema, cache: nil, flags: flags, now: clock)
    let pending = try storeCall(source) { try missingObjects(of: plan, with: tracker, report: &report) }
    _ = try tracker.sharedNames(writing: pending.compactMap { $0 as? BabyProfile }, allowingSameName: allowsSameName)
    if !allowsFuture,
      let ahead = Tracker.aheadOfNow(
        Tracker.times(of: plan.profiles.map(\.value), plan.feeds.map(\.value), plan.diapers.map(\.value)), now: startedAt)
    {
      throw LegacyImportError(code: .badData, source: source, detail: ahead + "; nothing was imported")
    }
    guard !dryRun else {
      report.finishedAt = clock()
      return report
    }

    try write(pending, with: tracker, source: source)
    let check = container.newBackgroundContext(author: Self.author)
    try hooks.beforeVerification?(check)
    let mismatches = try storeCall(source) { try verify(plan, in: check) }
    guard mismatches.isEmpty else {
      report.errors = mismatches
      report.finishedAt = clock()
      throw LegacyImportError(
        code: .verificationFailed, source: source,
        detail: "\(mismatches.count) mismatch\(mismatches.count == 1 ? "" : "es") between the source and the store, first: "
          + "\(mismatches[0]) — migrationCompleted was not recorded; run the import again, which adds what is missing.",
        report: report)
    }

    report.cacheBackfill = backfillCache(plan, from: check, errors: &report.errors)
    report.finishedAt = clock()
    if report.errors.isEmpty {
      let completed = MigrationRecord(schemaVersion: BabyDashboardSchema.version, completedAt: report.finishedAt)
      report.migrationRecord = completed
      try beforeRecording?(report)
      do { try completed.save(to: keyValueStore) } catch {
        throw kvError(error, "the records were imported, but migrationCompleted could not be recorded; the next run changes nothing and records it")
      }
    }
    return report
  }

  /// Runs ``run(_:dryRun:force:)`` off the caller's thread.
  public func runInBackground(_ reader: any LegacyStoreReader, dryRun: Bool = false, force: Bool = false) async throws
    -> LegacyImportReport
  {
    try await Task.detached(priority: .utility) { try self.run(reader, dryRun: dryRun, force: force) }.value
  }

  /// Turns a `StoreError` into the importer's error.
  func storeCall<T>(_ source: String, _ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let error as LegacyImportError {
      throw error
    } catch {
      throw LegacyImportError(
        code: .store, source: source,
        detail: "\(error) — the batches saved before it stay; run the import again to finish (it skips them).")
    }
  }
}

/// Internal hooks for the tests that break an import part-way or tamper before verification.
struct LegacyImportHooks: Sendable {
  /// Called after each saved batch with its number (1, 2, …); throwing stops the import there.
  var afterBatch: (@Sendable (Int) throws -> Void)?
  /// Called with the verification context before the check.
  var beforeVerification: (@Sendable (StoreContext) throws -> Void)?
}
