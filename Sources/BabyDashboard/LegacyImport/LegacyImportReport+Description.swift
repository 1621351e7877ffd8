import Foundation
import PlainStore

extension LegacyImportReport {
  /// The text `babydash import` prints, for example:
  ///
  /// ```
  /// legacy import of 'Fixtures/legacy/two-babies.json': imported
  /// started:  2026-01-15T09:30:00Z
  /// finished: 2026-01-15T09:30:01.25Z
  /// duration: 1.250 s
  /// entity         read  inserted  present  duplicates  orphans
  /// BabyProfile       2         2        0           0        0
  /// FeedSession       5         4        0           1        1
  /// DiaperChange      3         3        0           0        0
  /// cache backfill: 2 of 2 babies have an amount (coverage 100%): 1 from feeds, 1 from legacy fields, 0 already cached
  /// migrationCompleted: schema 1 at 2026-01-15T09:30:01.25Z
  /// errors: none
  /// ```
  public var description: String {
    var lines: [String] = []
    lines.append("legacy import of '\(source)': \(outcomeText)")
    lines.append("started:  \(ISO8601.formatMilliseconds(startedAt))")
    lines.append("finished: \(ISO8601.formatMilliseconds(finishedAt))")
    lines.append("duration: \(Self.seconds(duration))")
    switch outcome {
    case .skippedFeatureFlagOff, .skippedAlreadyCompleted:
      return lines.joined(separator: "\n")
    case .imported, .dryRun:
      break
    }
    let header = ["entity", "read", "inserted", "present", "duplicates", "orphans"]
    let rows: [[String]] = [
      ("BabyProfile", babyProfiles), ("FeedSession", feedSessions), ("DiaperChange", diaperChanges),
    ].map { name, counts in
      [name, "\(counts.read)", "\(counts.inserted)", "\(counts.alreadyPresent)", "\(counts.duplicates)", "\(counts.orphans)"]
    }
    let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
    for row in [header] + rows {
      let cells = row.indices.map { column in
        column == 0
          ? row[column].padding(toLength: widths[column], withPad: " ", startingAt: 0)
          : String(repeating: " ", count: widths[column] - row[column].count) + row[column]
      }
      lines.append(cells.joined(separator: "  "))
    }
    if let cache = cacheBackfill {
      let percent = Int((cache.coverage * 100).rounded(.down))
      lines.append(
        "cache backfill: \(cache.babies - cache.withoutAmount) of \(cache.babies) babies have an amount (coverage \(percent)%): "
          + "\(cache.fromFeeds.count) from feeds, \(cache.fromLegacyFields.count) from legacy fields, "
          + "\(cache.alreadyCached) already cached")
    } else {
      lines.append("cache backfill: not run\(outcome == .dryRun ? " (dry run)" : "")")
    }
    if let record = migrationRecord {
      lines.append("migrationCompleted: schema \(record.schemaVersion) at \(ISO8601.formatMilliseconds(record.completedAt))")
    } else {
      lines.append("migrationCompleted: not recorded\(outcome == .dryRun ? " (dry run)" : "")")
    }
    if errors.isEmpty {
      lines.append("errors: none")
    } else {
      lines.append("errors: \(errors.count)")
      lines.append(contentsOf: errors.map { "  - \($0)" })
    }
    return lines.joined(separator: "\n")
  }

  private var outcomeText: String {
    switch outcome {
    case .imported: return forced ? "imported (forced)" : "imported"
    case .dryRun: return "dry run, nothing written"
    case .skippedFeatureFlagOff:
      return "skipped: the legacy importer is off (feature flag '\(FeatureFlags.Flag.legacyImporter.key)'); nothing was read or written"
    case .skippedAlreadyCompleted(let record):
      return "skipped: already completed for schema \(record.schemaVersion) at \(ISO8601.formatMilliseconds(record.completedAt)); "
        + "use --force to import again"
    }
  }

  /// `1.250 s`: milliseconds, written by our code so no locale can change it.
  static func seconds(_ interval: TimeInterval) -> String {
    let milliseconds = Int((max(0, interval) * 1000).rounded())
    return "\(milliseconds / 1000).\(Digits.decimal(milliseconds % 1000, width: 3)) s"
  }
}
