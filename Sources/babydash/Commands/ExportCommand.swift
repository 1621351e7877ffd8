import ArgumentParsing
import BabyDashboard
import Foundation
import PlainStore

/// `babydash export [--output FILE]`.
enum ExportCommand {
  static let output = Option<String>("--output", "FILE", help: "write the backup to FILE atomically (a failure leaves the old FILE)")

  static let command = Command(
    words: ["export"], synopsis: "[--output FILE]",
    summary: "Print a backup of everything (ids, createdAt, the cached amounts) as one JSON document; import restores it.",
    options: [output.spec],
    details: """
      The format is versioned and documented in the README ("Backup and restore"). A folder that
      holds no store is refused (exit 66) and nothing is written: a backup is never empty by
      mistake. With --output, the backup goes to a temporary file beside FILE, flushed, then
      renamed over FILE: a failure part-way leaves the old backup as it was.

      Examples:
        babydash export --output backup.json
        babydash export > backup.json
        babydash --app-group /tmp/restored import backup.json
      """
  ) { invocation in
    let session = invocation.session
    // A nightly backup must not replace a good one with nothing.
    let container = try session.existingStore(nothingTo: "export")
    let data = try Backup(context: container.viewContext, cache: session.cache).encoded()
    guard let path = try invocation.value(ExportCommand.output) else {
      try invocation.output.print(String(decoding: data, as: UTF8.self))
      return
    }
    guard !path.isEmpty else { throw invocation.usageError("bad value '' for --output: give a file") }
    let file = URL(fileURLWithPath: path).standardizedFileURL
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: file.deletingLastPathComponent().path, isDirectory: &isDirectory), isDirectory.boolValue else {
      throw CommandLineError(kind: .io, message: "cannot write '\(file.path)': the folder '\(file.deletingLastPathComponent().path)' does not exist")
    }
    // The store's own atomic write: a temporary file in the same folder, flushed, renamed.
    var text = data
    text.append(contentsOf: Array("\n".utf8))
    try DurableFile.write(text, to: file)
    try invocation.output.print("Wrote the backup to \(file.path).")
  }
}
