import BabyDashboard
import Foundation

/// How `babydash import` restores a backup that `babydash export` wrote.
enum RestoreCommand {
  /// Restores `file` when its content is a backup; false when it is not one.
  @MainActor
  static func restoreIfBackup(_ file: URL, _ invocation: Invocation) throws -> Bool {
    let data: Data
    do {
      data = try Data(contentsOf: file)
    } catch {
      throw CommandLineError.noInput("cannot read '\(file.path)': \(error.localizedDescription)")
    }
    do {
      guard let backup = try Backup.recognise(data, source: file.lastPathComponent) else { return false }
      let session = invocation.session
      if invocation.has(ImportCommand.dryRun) {
        // Every check the restore makes, against the store as it is (an empty one in memory when
        // there is none): a dry run refuses what the import would.
        let container = try session.storeForReading()
        let moment = session.now
        let checker = Tracker(context: container.newBackgroundContext(), schema: container.schema, cache: nil, now: { moment })
        _ = try BabyCommands.naming {
          try checker.restore(
            backup, source: file.lastPathComponent, allowingSameName: invocation.has(ImportCommand.sameNameOK),
            allowingFuture: invocation.has(ImportCommand.yes), dryRun: true)
        }
        try invocation.output.print(
          "'\(file.lastPathComponent)' is a babydash backup of \(Plural.count(backup.babyProfiles.count, "baby", "babies")), "
            + "\(Plural.count(backup.feedSessions.count, "feed")) and \(Plural.count(backup.diaperChanges.count, "diaper change")); nothing was written.")
        return true
      }
      let tracker = try session.tracker()
      let restored = try BabyCommands.naming {
        try tracker.restore(
          backup, source: file.lastPathComponent, allowingSameName: invocation.has(ImportCommand.sameNameOK),
          allowingFuture: invocation.has(ImportCommand.yes))
      }
      if let warning = tracker.cacheWarning { try invocation.output.error("babydash: warning: \(warning)") }
      try invocation.output.print(
        "Restored '\(file.lastPathComponent)': wrote \(Plural.counts(restored.written)); \(Plural.count(restored.unchanged, "object")) already as in the backup.")
      if restored.reissued > 0 {
        try invocation.output.print(
          "\(Plural.count(restored.reissued, "object")) of the backup had been deleted: \(restored.reissued == 1 ? "it is under a new id" : "they are under new ids") (a deleted id never comes back, on any device).")
      }
      for (name, ids) in restored.sharedNames.sorted(by: { $0.key < $1.key }) {
        try invocation.output.print(
          "\(ids.count) babies are named \(name) (ids \(ids.map(\.uuidString).joined(separator: ", "))): address each by its id.")
      }
      return true
    } catch let error as BackupError {
      throw CommandLineError.data(error.description)
    }
  }
}
