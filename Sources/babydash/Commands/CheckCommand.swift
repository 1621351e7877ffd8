import BabyDashboard
import Foundation
import PlainStore

/// `babydash check`: reads every file of the store and says what is wrong, or that all is well.
enum CheckCommand {
  static let command = Command(
    words: ["check"], synopsis: "",
    summary: "Verify the store: every file readable, every reference resolved, every rule the tracker keeps (all problems, not the first).",
    details: "Example:\n  babydash check"
  ) { invocation in
    let session = invocation.session
    try session.refuseMissingStore(nothingTo: "check")
    // Opening rebuilds a damaged cache (local/) from the change files first; then every file
    // is read on its own, so that all damaged ones are named, not the first the store opens.
    let opened = Result { try session.store() }
    var problems: [String] = []
    var failure: StoreError?
    var notes: [String] = []
    var summary = ""
    do {
      let container = try opened.get()
      if let reason = container.cacheRebuildReason {
        notes.append("note: the local cache was rebuilt from changes/, with all data (\(reason))")
      }
      notes += container.changeFilesRestored.map { "note: '\($0)' was lost or cut short (a power loss?) and was written again from local/journal; nothing was lost" }
      notes += container.mergeWarnings.map { "note: cannot read \($0) yet; it stays in its change file" }
      if let sync = try container.syncStatus() {
        notes += sync.devices.filter { $0.waiting > 0 }.map { "note: waiting for \(Plural.count($0.waiting, "change")) from device \($0.id.prefix(8))" }
        for path in sync.notDownloaded {
          notes.append(
            sync.waitingForDownload.contains(path)
              ? "note: waiting for '\(path)' to download (a placeholder stands for it): nothing is lost; its changes are shown once it is"
              : "note: '\(path)' is not downloaded here (a placeholder stands for it): this device merged it already, all its data is shown")
        }
        notes += sync.notArrived.map { "note: '\($0)' has not fully arrived yet; it is read again at the next sync" }
        problems += sync.unknownFiles.map { "'\($0)' is not a file the store writes: left alone; move it out of changes/" }
      }
      notes += try session.eventsAheadLines(in: container).map { "warning: " + $0 }
      notes += BabyCommands.sameNameLines(try container.viewContext.babies()).map { "warning: " + $0 }
      let context = container.viewContext
      let counts = try context.contentCounts()
      let transactions = try container.history(after: nil)
      problems += try context.domainProblems(schema: container.schema)
      summary =
        "ok: \(Plural.count(counts.babies, "baby", "babies")), \(Plural.count(counts.feeds, "feed")), \(Plural.count(counts.diapers, "diaper change")); \(Plural.count(transactions.count, "transaction")) in the log; \(session.storeDirectory.path)"
    } catch let error as StoreError {
      failure = error
    }
    // Read after the counts: a damaged cache file they met has been rebuilt by then.
    problems = unreadableFiles(in: session.storeDirectory) + strayFiles(in: session.storeDirectory) + problems
    if let failure {
      guard !problems.isEmpty else { throw failure }
      problems.insert("\(failure)", at: 0)
    }
    guard problems.isEmpty else {
      throw CommandLineError.data(
        "the store at '\(session.storeDirectory.path)' has \(Plural.count(problems.count, "problem")):\n  " + problems.joined(separator: "\n  "))
    }
    try invocation.output.print((notes + [summary]).joined(separator: "\n"))
  }

  /// The JSON files under the store that do not parse: every one, named by its path.
  private static func unreadableFiles(in store: URL) -> [String] {
    guard let walker = FileManager.default.enumerator(atPath: store.path) else { return [] }
    var problems: [String] = []
    for case let relative as String in walker where relative.hasSuffix(".json") {
      if relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) { continue }
      let url = store.appendingPathComponent(relative)
      guard let data = FileManager.default.contents(atPath: url.path) else {
        problems.append("'\(relative)' cannot be read: check its permissions")
        continue
      }
      if (try? JSONSerialization.jsonObject(with: data)) == nil {
        problems.append("'\(relative)' is damaged (not JSON): restore it from a backup, or move it away")
      }
    }
    return problems.sorted()
  }

  /// Files in the store's top folder that no version of the store writes: left by hand or by
  /// another program, and worth a look before they are taken for data.
  private static func strayFiles(in store: URL) -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: store.path)) ?? []
    return names.filter { !$0.hasPrefix(".") && !StoreContainer.namesInStoreFolder.contains($0) }.sorted().map {
      "stray file '\($0)' in the store folder: no version of the store writes it; move it away if it is not yours"
    }
  }
}
