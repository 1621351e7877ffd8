import Foundation

/// What one run of ``LegacyImporter`` did: when, how long, per-entity counts, the cache backfill,
/// the `migrationCompleted` record and any errors.
///
/// Its ``description`` is the multi-line text `babydash import` prints; it depends only on the
/// report's values (times come from the importer's injected clock), so it is stable byte for byte.
public struct LegacyImportReport: Sendable, Hashable, CustomStringConvertible {
  /// How the run ended.
  public enum Outcome: Sendable, Hashable {
    /// The records were imported (or were all present) and verified.
    case imported
    /// Validated and counted against the store; nothing was written.
    case dryRun
    /// The importer feature flag is off: nothing was read or written.
    case skippedFeatureFlagOff
    /// An import already completed for this schema version (the record); run with force to
    /// import again.
    case skippedAlreadyCompleted(MigrationRecord)
  }

  /// The source, as the reader names it.
  public var source: String
  public var outcome: Outcome
  /// Whether the run was forced past an earlier `migrationCompleted`.
  public var forced: Bool
  /// When the run started (the migration start time: `createdAt` of babies without records).
  public var startedAt: Date
  /// When the run ended.
  public var finishedAt: Date
  public var babyProfiles: LegacyImportCounts
  public var feedSessions: LegacyImportCounts
  public var diaperChanges: LegacyImportCounts
  /// The cache backfill, or `nil` when it did not run (dry run, skipped).
  public var cacheBackfill: LegacyCacheBackfillSummary?
  /// The `migrationCompleted` record this run wrote, or `nil`.
  public var migrationRecord: MigrationRecord?
  /// Errors that did not stop the run (a cache value that could not be written), and, on a
  /// verification failure, every mismatch.
  public var errors: [String]

  public init(
    source: String, outcome: Outcome, forced: Bool = false, startedAt: Date, finishedAt: Date,
    babyProfiles: LegacyImportCounts = .init(), feedSessions: LegacyImportCounts = .init(),
    diaperChanges: LegacyImportCounts = .init(), cacheBackfill: LegacyCacheBackfillSummary? = nil,
    migrationRecord: MigrationRecord? = nil, errors: [String] = []
  ) {
    self.source = source
    self.outcome = outcome
    self.forced = forced
    self.startedAt = startedAt
    self.finishedAt = finishedAt
    self.babyProfiles = babyProfiles
    self.feedSessions = feedSessions
    self.diaperChanges = diaperChanges
    self.cacheBackfill = cacheBackfill
    self.migrationRecord = migrationRecord
    self.errors = errors
  }

  /// How long the run took, by the importer's clock.
  public var duration: TimeInterval { finishedAt.timeIntervalSince(startedAt) }

  /// Records written by this run, all entities together.
  public var insertedCount: Int { babyProfiles.inserted + feedSessions.inserted + diaperChanges.inserted }

  /// Records in the source, all entities together.
  public var readCount: Int { babyProfiles.read + feedSessions.read + diaperChanges.read }
}
