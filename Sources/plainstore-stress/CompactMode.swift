import PlainStore

/// `compact`: opens the store and compacts its change files — a snapshot, then the deletion of
/// this device's acknowledged change files — then prints `compacted <deleted>`. The crash tests
/// kill it at random moments of that work, told by `phase open` and `phase compact` which.
struct CompactMode {
  let arguments: StressArguments

  func run() throws {
    StressOutput.phase("open")
    var options = StoreOptions(author: "compact", watchesOtherProcesses: false)
    options.phaseObserver = { StressOutput.phase($0) }  // the snapshot, the deletions, for the kill suites
    let container = try StoreContainer.file(at: arguments.store, schema: StressSchema.v1, options: options)
    StressOutput.phase("compact")
    let report = try container.compactChanges()
    StressOutput.line("compacted \(report?.changeFilesDeleted ?? 0)")
  }
}
