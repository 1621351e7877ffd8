import ArgumentParsing
import BabyDashboard
import Foundation
import PlainStore

/// `babydash import FILE [--dry-run] [--force]`: the legacy SwiftData-era data into the store —
/// the app's SwiftData store (`BabyDashboard.sqlite`, with its -wal and -shm) or a JSON export,
/// told apart by content.
enum ImportCommand {
  static let dryRun = Flag("--dry-run", help: "read, check and count; write nothing")
  static let force = Flag("--force", help: "run even if the migration was already completed")
  static let yes = Flag("--yes", help: "write events dated ahead of this device's clock as they are (refused otherwise, each named)")
  static let sameNameOK = Flag("--same-name-ok", help: "let a baby in FILE take a name another baby in the store has (then address each by its id)")

  static let command = Command(
    words: ["import"], synopsis: "FILE [--dry-run] [--force] [--same-name-ok] [--yes] [--batch-size N]",
    summary: "Restore a babydash export, or import the SwiftData store (BabyDashboard.sqlite) or its JSON export (a second run adds nothing); print the report.",
    options: [
      dryRun.spec, force.spec, sameNameOK.spec, yes.spec, LaunchCommand.batchSize.spec,
    ],
    arguments: 1...1,
    details: """
      FILE is told apart by its content: a backup that babydash export wrote is restored (merged by
      id, the backup's values winning); a SwiftData store (BabyDashboard.sqlite, with its -wal and
      -shm beside it) or its JSON export is imported, adding only what the store lacks. Events
      dated ahead of this device's clock are refused, each named, unless --yes. Ctrl-C stops it
      between two batches (exit 130): what was saved stays, and running it again finishes.

      Examples:
        babydash import backup.json
        babydash import BabyDashboard.sqlite --dry-run
      """,
    run: { try ImportCommand.run($0) })

  @MainActor
  static func run(_ invocation: Invocation) throws {
    let session = invocation.session
    let file = URL(fileURLWithPath: invocation.arguments[0])
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory), !isDirectory.boolValue else {
      throw CommandLineError.noInput("cannot read '\(invocation.arguments[0])': no such file")
    }
    // /dev/null, a FIFO, a device: not a file to import (was: "You don't have permission").
    let type = (try? FileManager.default.attributesOfItem(atPath: file.path)[.type]) as? FileAttributeType
    guard type == .typeRegular || type == .typeSymbolicLink else {
      throw CommandLineError.noInput("cannot read '\(file.path)': not a regular file (a device, a FIFO or a socket): give a backup or an export file")
    }
    // A backup written by babydash export is restored, whatever else the file could be.
    if try RestoreCommand.restoreIfBackup(file, invocation) { return }
    let dryRun = invocation.has(ImportCommand.dryRun)
    let output = invocation.output
    let reader: PreparedExport
    do {
      // Read and check the whole file before the store is opened: a bad file creates nothing.
      reader = try PreparedExport(try LegacySourceFormat.reader(forFileAt: file))
    } catch let error as LegacyImportError {
      throw failure(error)
    } catch {
      throw CommandLineError.noInput("cannot read '\(invocation.arguments[0])': \(error.localizedDescription)")
    }
    // From here Ctrl-C stops the import between two batches, what was saved kept and said (and a
    // store this command created with nothing in it removed), rather than killing it mid-way.
    Interruption.catchSignals()
    // A dry run must not create the store: it reads an empty one in memory if there is none.
    let container = dryRun ? try session.storeForReading() : try session.store()
    let fixedNow = session.nowIsFixed ? session.now : nil
    // The flags as the app resolves them (the flags document first), not only the preferences' switches.
    var importer = LegacyImporter(
      container: container, keyValueStore: session.keyValueStore, flags: try session.flags(), clock: { fixedNow ?? Date() })
    importer.allowsSameName = invocation.has(ImportCommand.sameNameOK)
    importer.allowsFuture = invocation.has(ImportCommand.yes)
    importer.batchSize = try invocation.value(LaunchCommand.batchSize) ?? LegacyImporter.defaultBatchSize
    guard importer.batchSize > 0 else { throw invocation.usageError("bad value '\(importer.batchSize)' for --batch-size: at least 1") }
    let environment = session.environment
    let batches = StoreMutex(0)
    importer.progress = { written, total in
      if output.showsProgress { output.progress("importing: \(written) of \(total) objects written") }
      Interruption.testHook("import-batch-\(batches.withLock { $0 += 1; return $0 })", environment: environment)
    }
    importer.shouldStop = {
      Interruption.testHook("import-start", environment: environment)
      return Interruption.isRequested
    }
    do {
      let report = try BabyCommands.naming { try importer.run(reader, dryRun: dryRun, force: invocation.has(ImportCommand.force)) }
      output.endProgress()
      if let summary = reader.summary { try output.print(summary.description) }
      // The spec's migration telemetry, for babydash stats.
      if case .imported = report.outcome { try MigrationLog(report).save(to: session.keyValueStore) }
      try output.print(report.description)
    } catch let error as LegacyImportError {
      output.endProgress()
      throw failure(error)
    }
  }

  private static func failure(_ error: LegacyImportError) -> CommandLineError {
    if error.code == .unreadable { return .noInput(error.description) }
    if error.code == .stopped { return CommandLineError(kind: .interrupted, message: error.description) }
    let details = error.report?.errors.map { "\n  " + $0 }.joined() ?? ""
    return .data(error.description + details)
  }
}

/// A legacy export read and validated once, handed to the importer as its reader.
struct PreparedExport: LegacyStoreReader {
  let source: String
  let export: LegacyExport
  /// What a SwiftData store held (framework, entities, rows, warnings); `nil` for a JSON export.
  let summary: SwiftDataStoreSummary?

  init(_ reader: any LegacyStoreReader) throws {
    source = reader.source
    if let store = reader as? SwiftDataStoreReader {
      let contents = try store.load()
      (export, summary) = (contents.export, contents.summary)
    } else {
      (export, summary) = (try reader.read(), nil)
    }
    try export.validate(source: source)
  }

  func read() throws -> LegacyExport { export }
}
