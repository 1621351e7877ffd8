import BabyDashboard
import Foundation
import PlainStore

/// `babydash check`: reads every file of the store and says what is wrong, or that all is well.
enum CheckCommand {
  static let command = Command(
    words: ["check"], synopsis: "",
    summary: "Verify the store's files: every segment and log entry readable, every reference resolved."
  ) { invocation in
    let session = invocation.session
    guard session.storeExists else {
      throw CommandLineError.noInput("no store at '\(session.storeDirectory.path)': nothing to check")
    }
    let container = try session.store()
    let context = container.viewContext
    let babies = try context.fetch(FetchDescriptor<BabyProfile>())
    let feeds = try context.fetch(FetchDescriptor<FeedSession>())
    let diapers = try context.fetch(FetchDescriptor<DiaperChange>())
    let transactions = try container.history(after: oldestKeptLog(in: session.storeDirectory) ?? container.currentToken)
    let ids = Set(babies.map(\.id))
    var problems: [String] = []
    for feed in feeds where feed.profileID.map(ids.contains) == false {
      problems.append("feed \(feed.uuid.uuidString) refers to a baby that is not in the store (\(feed.profileID!.uuidString))")
    }
    for diaper in diapers where diaper.profileID.map(ids.contains) == false {
      problems.append("diaper change \(diaper.uuid.uuidString) refers to a baby that is not in the store (\(diaper.profileID!.uuidString))")
    }
    for feed in feeds where feed.endTime.map({ $0 < feed.startTime }) == true {
      problems.append("feed \(feed.uuid.uuidString) ends before it starts")
    }
    guard problems.isEmpty else {
      throw CommandLineError.data(
        "the store at '\(session.storeDirectory.path)' has \(problems.count) problem(s):\n  " + problems.joined(separator: "\n  "))
    }
    invocation.output.print(
      "ok: \(count(babies.count, "baby", "babies")), \(count(feeds.count, "feed", "feeds")), \(count(diapers.count, "diaper change", "diaper changes")); \(count(transactions.count, "transaction", "transactions")) in the log; \(session.storeDirectory.path)")
  }

  private static func count(_ number: Int, _ one: String, _ many: String) -> String {
    "\(number) \(number == 1 ? one : many)"
  }

  /// The token just before the oldest log file still on disk: compaction removes older ones.
  private static func oldestKeptLog(in store: URL) -> HistoryToken? {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: store.appendingPathComponent("local/log").path)) ?? []
    let sequences = names.filter { !$0.hasPrefix(".") && $0.hasSuffix(".json") }.compactMap { Int($0.dropLast(5)) }
    return sequences.min().map { HistoryToken(sequence: $0 - 1) }
  }
}
