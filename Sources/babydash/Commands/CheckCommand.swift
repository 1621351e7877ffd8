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
    guard session.storeExists else {
      throw CommandLineError.noInput("no store at '\(session.storeDirectory.path)': nothing to check")
    }
    // Every file is read on its own first, so that all damaged ones are named, not the first
    // one the store happens to open.
    var problems = unreadableFiles(in: session.storeDirectory) + strayFiles(in: session.storeDirectory)
    var summary = ""
    do {
      let container = try session.store()
      let context = container.viewContext
      let counts = try context.contentCounts()
      let transactions = try container.history(after: oldestKeptLog(in: session.storeDirectory) ?? container.currentToken)
      problems += try context.domainProblems(schema: container.schema)
      summary =
        "ok: \(Plural.count(counts.babies, "baby", "babies")), \(Plural.count(counts.feeds, "feed")), \(Plural.count(counts.diapers, "diaper change")); \(Plural.count(transactions.count, "transaction")) in the log; \(session.storeDirectory.path)"
    } catch let error as StoreError where !problems.isEmpty {
      problems.insert("\(error)", at: 0)
    }
    guard problems.isEmpty else {
      throw CommandLineError.data(
        "the store at '\(session.storeDirectory.path)' has \(Plural.count(problems.count, "problem")):\n  " + problems.joined(separator: "\n  "))
    }
    invocation.output.print(summary)
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
    let known: Set<String> = ["store.json", "manifest.json", "log", "segments", "lock", "changes", "local", "indexes", "readers", "quarantine"]
    let names = (try? FileManager.default.contentsOfDirectory(atPath: store.path)) ?? []
    return names.filter { !$0.hasPrefix(".") && !known.contains($0) }.sorted().map {
      "stray file '\($0)' in the store folder: no version of the store writes it; move it away if it is not yours"
    }
  }

  /// The token just before the oldest log file still on disk: compaction removes older ones.
  private static func oldestKeptLog(in store: URL) -> HistoryToken? {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: store.appendingPathComponent("local/log").path)) ?? []
    let sequences = names.filter { !$0.hasPrefix(".") && $0.hasSuffix(".json") }.compactMap { Int($0.dropLast(5)) }
    return sequences.min().map { HistoryToken(sequence: $0 - 1) }
  }
}
