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
    let container = try session.store()
    let context = container.viewContext
    let counts = try context.contentCounts()
    let transactions = try container.history(after: oldestKeptLog(in: session.storeDirectory) ?? container.currentToken)
    var problems = try context.domainProblems(schema: container.schema)
    problems += strayFiles(in: session.storeDirectory)
    guard problems.isEmpty else {
      throw CommandLineError.data(
        "the store at '\(session.storeDirectory.path)' has \(Plural.count(problems.count, "problem")):\n  " + problems.joined(separator: "\n  "))
    }
    invocation.output.print(
      "ok: \(Plural.count(counts.babies, "baby", "babies")), \(Plural.count(counts.feeds, "feed")), \(Plural.count(counts.diapers, "diaper change")); \(Plural.count(transactions.count, "transaction")) in the log; \(session.storeDirectory.path)")
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
    let names = (try? FileManager.default.contentsOfDirectory(atPath: store.appendingPathComponent("log").path)) ?? []
    let sequences = names.filter { !$0.hasPrefix(".") && $0.hasSuffix(".json") }.compactMap { Int($0.dropLast(5)) }
    return sequences.min().map { HistoryToken(sequence: $0 - 1) }
  }
}
