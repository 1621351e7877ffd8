import Foundation
import PlainStore

/// What one launch step did, in one value the app can show (its ``description`` is what
/// `babydash launch` prints).
public struct LaunchReport: Sendable, Equatable, CustomStringConvertible {
  /// The import of the SwiftData store (Phase B).
  public enum ImportStep: Sendable, Equatable {
    /// Nothing to import, and why.
    case notNeeded(String)
    /// The importer ran (the whole report, as `babydash import` prints it).
    case imported(LegacyImportReport)
    /// The importer failed; the next launch tries again (what was saved stays).
    case failed(String)
  }

  /// The last-feed-amount backfill (Phase A).
  public enum BackfillStep: Sendable, Equatable {
    /// Nothing to do, and why.
    case notNeeded(String)
    case backfilled(LastFeedAmountBackfillReport)
    /// The backfill failed; the next launch tries again.
    case failed(String)
  }

  /// The backout of Phase B/C: what to hand back to the SwiftData store.
  public enum BackoutStep: Sendable, Equatable {
    /// No backout (the importer is on, or no cutover happened here), and why.
    case notNeeded(String)
    /// The importer is off after the cutover: apply this to the SwiftData store, then confirm
    /// (``MigrationBackout/confirm(_:in:keyValueStore:)``). Empty when nothing changed since.
    case handBack(BackoutHandback)
    /// The importer is off after the cutover, and the store's truth has not changed since a
    /// launch found nothing to hand back: the store was not opened.
    case unchanged
    case failed(String)
  }

  public var startedAt: Date
  public var finishedAt: Date
  /// The flags as this device resolved them.
  public var flags: RolloutFlags
  /// What of the SwiftData store is in the app group.
  public var swiftDataStore: SwiftDataStoreLocation
  /// What the new store held before the import, or `nil` when it was not opened (nothing to do).
  public var newStoreBefore: StoreContentCounts?
  public var importStep: ImportStep
  public var backfillStep: BackfillStep
  public var backoutStep: BackoutStep = .notNeeded("")
  /// Whether another launch held the launch lock, so that this one did nothing (that one does
  /// the work; the flags shown are the built-in ones, not read).
  public var anotherLaunchAtWork = false
  /// Whether the launch before this one started its work and never finished it.
  public var previousLaunchInterrupted: Bool
  /// The telemetry as this launch wrote it, or `nil` when it wrote none (nothing to do).
  public var telemetry: LaunchTelemetry?
  /// What went wrong, in words (counted in the telemetry, never thrown).
  public var problems: [String]
  /// What the family's devices publish about the change-file formats they read (two versions of
  /// the app side by side, as a phased release makes them); nil when the sync folder could not
  /// be read.
  public var changeFormats: ChangeFormats? = nil

  /// What to tell the person about the versions of the app in the family, in words the app can
  /// show; nil when there is nothing to say.
  public var versionNotice: String? {
    guard let formats = changeFormats else { return nil }
    if !formats.newer.isEmpty {
      return "Another phone (\(formats.newer.joined(separator: ", "))) runs a newer version; update this one"
    }
    if formats.writes < formats.reads, !formats.waitingFor.isEmpty {
      return "Waiting for \(formats.waitingFor.joined(separator: ", ")) to update before the new format is used"
    }
    return nil
  }

  /// Whether the launch found everything done, wrote nothing and has nothing to hand back.
  public var didNothing: Bool { telemetry == nil && problems.isEmpty && !handsBack }

  /// Whether it hands back changes to the SwiftData store (a backout).
  public var handsBack: Bool {
    if case .handBack(let handback) = backoutStep { return !handback.changes.isEmpty }
    return false
  }

  public var description: String {
    var lines: [String] = []
    if anotherLaunchAtWork {
      return "launch: another launch is at work (the app or another babydash); nothing done here"
    } else if didNothing {
      lines.append("launch: nothing to do")
    } else if !problems.isEmpty {
      lines.append("launch: done with \(problems.count) problem\(problems.count == 1 ? "" : "s")")
    } else {
      lines.append(telemetry == nil ? "launch: a backout to hand back" : "launch: done")
    }
    let flagText = flags.values.map { "\($0.flag.rawValue) \($0.isOn ? "on" : "off") (\($0.source.text), \($0.group.rawValue))" }
    lines.append("flags: " + flagText.joined(separator: ", ") + (flags.cohort.map { "; cohort \($0.number)" } ?? "; no cohort"))
    lines.append("SwiftData store: \(swiftDataStore.text)")
    if let counts = newStoreBefore {
      lines.append("new store before: \(Self.count(counts.babies, "baby", "babies")), \(Self.count(counts.feeds, "feed", "feeds")), \(Self.count(counts.diapers, "diaper change", "diaper changes"))")
    }
    switch importStep {
    case .notNeeded(let why): lines.append("import: not needed — \(why)")
    case .imported(let report):
      let all = [report.babyProfiles, report.feedSessions, report.diaperChanges]
      lines.append(
        "import: wrote \(Self.count(report.babyProfiles.inserted, "baby", "babies")), \(Self.count(report.feedSessions.inserted, "feed", "feeds")), "
          + "\(Self.count(report.diaperChanges.inserted, "diaper change", "diaper changes")); "
          + "\(all.map(\.alreadyPresent).reduce(0, +)) already there, \(all.map(\.duplicates).reduce(0, +)) duplicates skipped; migration log written")
    case .failed(let why): lines.append("import: failed — \(why)")
    }
    switch backfillStep {
    case .notNeeded(let why): lines.append("backfill: not needed — \(why)")
    case .backfilled(let report):
      lines.append(
        "backfill: \(report.backfilled) of \(Self.count(report.babies, "baby", "babies")) received a last feed amount "
          + "(\(report.alreadyCached) had one, \(report.withoutAmount) without any amount); marked done")
    case .failed(let why): lines.append("backfill: failed — \(why)")
    }
    switch backoutStep {
    case .notNeeded: break
    case .handBack(let handback) where handback.changes.isEmpty: lines.append("backout: nothing to hand back since the cutover")
    case .unchanged: lines.append("backout: nothing to hand back since the cutover (the store is as the last launch found it; not opened)")
    case .handBack(let handback):
      lines.append("backout: \(handback.summary) since the cutover — apply to the SwiftData store, then confirm")
    case .failed(let why): lines.append("backout: failed — \(why)")
    }
    if let notice = versionNotice { lines.append("versions: \(notice)") }
    if previousLaunchInterrupted { lines.append("previous launch: did not finish (counted as a crash)") }
    if let telemetry {
      lines.append(
        "telemetry: launches \(telemetry.launches), crashes \(telemetry.crashes), validation errors \(telemetry.validationErrors), "
          + "import failures \(telemetry.importFailures), divergences \(telemetry.divergences), backfill errors \(telemetry.backfillErrors)")
    }
    for problem in problems { lines.append("problem: \(problem)") }
    return lines.joined(separator: "\n")
  }

  /// "1 baby", "2 babies".
  private static func count(_ number: Int, _ one: String, _ many: String) -> String {
    "\(number) \(number == 1 ? one : many)"
  }
}
