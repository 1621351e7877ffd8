import ArgumentParsing
import BabyDashboard
import Foundation
import PlainStore

/// `babydash salvage --output FILE`: the way out of a store that no longer opens (a damaged
/// change file or snapshot of this device's own): a backup of everything still readable.
///
/// The store is copied aside, the store's own judgment is asked (open the copy), and each file it
/// refuses as damaged is left out of the copy, until the copy opens — from its local cache when
/// that is still there, else from the change files left. The store itself is never changed.
enum SalvageCommand {
  static let output = Option<String>("--output", "FILE", help: "where the backup goes (written atomically)")

  static let command = Command(
    words: ["salvage"], synopsis: "--output FILE",
    summary: "Export everything still readable from a damaged store (cache and change files) and list what is missing.",
    options: [output.spec],
    details: """
      For a store every command refuses as damaged. The store is left as it is: a copy of it is
      opened, every file the store refuses as damaged left out, and what opens is written to FILE
      as a backup (`babydash import FILE` restores it into a new folder). The files left out are
      listed: restore them from a backup or another device's copy of changes/ if you can.

      Example:
        babydash salvage --output salvaged.json
        babydash --app-group ~/new-store import salvaged.json
      """
  ) { invocation in
    let session = invocation.session
    guard let path = try invocation.value(SalvageCommand.output), !path.isEmpty else {
      throw invocation.usageError("'salvage' needs --output FILE")
    }
    guard session.storeExists else {
      throw CommandLineError.noInput("no store at '\(session.storeDirectory.path)': nothing to salvage")
    }
    let file = URL(fileURLWithPath: path).standardizedFileURL
    let files = FileManager.default
    let work = files.temporaryDirectory.appendingPathComponent("babydash-salvage-\(UUID().uuidString)", isDirectory: true)
    defer { try? files.removeItem(at: work) }
    let copiedGroup = work.appendingPathComponent("group", isDirectory: true)
    let copiedSync = session.syncFolder.map { _ in work.appendingPathComponent("sync", isDirectory: true) }
    do {
      try files.createDirectory(at: copiedGroup, withIntermediateDirectories: true)
      try files.copyItem(at: session.storeDirectory, to: AppGroup.storeURL(in: copiedGroup))
      if let syncFolder = session.syncFolder, let copiedSync, files.fileExists(atPath: syncFolder.path) {
        try files.copyItem(at: syncFolder, to: copiedSync)
      }
    } catch {
      throw CommandLineError(kind: .io, message: "cannot copy the store aside to salvage it (\(work.path)): \(error.localizedDescription)")
    }
    var missing: [String] = []
    var container: StoreContainer?
    while container == nil {
      do {
        container = try StoreContainer.babyDashboard(inAppGroup: copiedGroup, options: session.storeOptions(syncFolder: copiedSync))
      } catch let error as StoreError where error.code == .damaged {
        // Left out of the copy; the store's own path is what the person sees.
        guard let damaged = [copiedGroup.appendingPathComponent(error.path), copiedSync?.deletingLastPathComponent().appendingPathComponent(error.path)]
          .compactMap({ $0 }).first(where: { files.fileExists(atPath: $0.path) }), missing.count < 1000
        else { throw error }
        try files.removeItem(at: damaged)
        missing.append(error.path)
      }
    }
    guard let container else { return }
    // A damaged snapshot the cache still covers does not stop the copy from opening: named too.
    missing += Session.damagedOwnFiles(of: container).map { $0 + " (what it held was read from the local cache)" }
    let context = container.newBackgroundContext()
    let data = try Backup(context: context, cache: session.cache).encoded()
    var text = data
    text.append(contentsOf: Array("\n".utf8))
    try DurableFile.write(text, to: file)
    let counts = try context.contentCounts()
    try invocation.output.print("Salvaged \(Plural.counts(counts)) to \(file.path).")
    if missing.isEmpty {
      try invocation.output.print("Nothing was missing: every file of the store reads.")
    } else {
      try invocation.output.print("Damaged (restore them from a backup or another device's copy of changes/ if you can):")
      for path in missing { try invocation.output.print("  \(path)") }
    }
  }
}
