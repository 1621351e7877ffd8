import PlainStore

extension LegacyImporter {
  /// The plan's objects the store does not hold yet, in write order (babies, feeds, diapers);
  /// counts the others as already present.
  ///
  /// The tracker decides, by the schema's unique keys (baby id; feed profile + startTime; diaper
  /// profile + timestamp + type), so an object the app created with another uuid is not
  /// duplicated, and a stored object is never overwritten by the legacy one.
  func missingObjects(of plan: LegacyImportPlan, with tracker: Tracker, report: inout LegacyImportReport) throws -> [any Entity] {
    let babies = try tracker.missing(plan.profiles.map(\.value))
    let feeds = try tracker.missing(plan.feeds.map(\.value))
    let diapers = try tracker.missing(plan.diapers.map(\.value))
    report.babyProfiles.alreadyPresent += plan.profiles.count - babies.count
    report.feedSessions.alreadyPresent += plan.feeds.count - feeds.count
    report.diaperChanges.alreadyPresent += plan.diapers.count - diapers.count
    report.babyProfiles.inserted = plan.profiles.count - report.babyProfiles.alreadyPresent
    report.feedSessions.inserted = plan.feeds.count - report.feedSessions.alreadyPresent
    report.diaperChanges.inserted = plan.diapers.count - report.diaperChanges.alreadyPresent
    return babies as [any Entity] + feeds as [any Entity] + diapers as [any Entity]
  }

  /// Inserts `objects` through the tracker in saves of ``batchSize``; babies come first, so every
  /// feed's and diaper's baby is stored by the time (or in the save) it is.
  func write(_ objects: [any Entity], with tracker: Tracker, source: String) throws {
    var batch = 0
    var stoppedByHook: (any Error)?
    let stopIfAsked = { (written: Int) throws in
      guard shouldStop?() == true else { return }
      let saved = written == 0 ? "nothing was written" : "the \(written) objects saved stay; run the import again to finish (it skips them)"
      throw LegacyImportError(code: .stopped, source: source, detail: "after \(written) of \(objects.count) objects, as asked — \(saved).")
    }
    try stopIfAsked(0)
    do {
      try tracker.insert(objects, inSavesOf: batchSize) { written, total in
        batch += 1
        progress?(written, total)
        do {
          try hooks.afterBatch?(batch)
          if written < total { try stopIfAsked(written) }
        } catch {
          stoppedByHook = error
          throw error
        }
      }
    } catch {
      if let stoppedByHook { throw stoppedByHook }
      try storeCall(source) { throw error }
    }
  }
}
