import BabyDashboard
import Foundation
import PlainStore

/// `babydash baby add | rename | remove | list`.
enum BabyCommands {
  static let all = [add, rename, remove, list]

  static let add = Command(
    words: ["baby", "add"], synopsis: "NAME [--feed-term DURATION] [--created-at TIME]",
    summary: "Add a baby; it goes last on the dashboard.",
    options: [
      OptionSpec(name: "--feed-term", value: "DURATION", help: "time between feeds: 3h, 2h30m, 90m or seconds (default 3h)"),
      OptionSpec(name: "--created-at", value: "TIME", help: "when the baby was added (default: now); orders the dashboard"),
    ],
    arguments: 1...1
  ) { invocation in
    let session = invocation.session
    let feedTerm = try invocation.value("--feed-term").map { text in
      try invocation.parse("--feed-term", text, DurationArgument.parse)
    } ?? BabyProfile.defaultFeedTerm
    let createdAt = try invocation.time("--created-at", default: session.now)
    let model = try session.dashboard(at: createdAt)
    let baby = try model.addBaby(name: invocation.arguments[0], feedTerm: feedTerm)
    invocation.output.print(
      "Added \(baby.name) (id \(baby.id.uuidString)), fed every \(LocalTimeText.duration(baby.feedTerm)).")
  }

  static let rename = Command(
    words: ["baby", "rename"], synopsis: "NAME NEW_NAME",
    summary: "Rename a baby; the last-feed-amount cache entry moves with it.",
    arguments: 2...2
  ) { invocation in
    let session = invocation.session
    let baby = try session.baby(invocation.arguments[0], in: try session.storeForReading())
    let model = try session.dashboard(at: session.now)
    try model.renameBaby(baby.id, to: invocation.arguments[1])
    let renamed = model.tile(for: baby.id)?.baby.name ?? invocation.arguments[1]
    invocation.output.print("Renamed \(baby.name) to \(renamed).")
  }

  static let remove = Command(
    words: ["baby", "remove"], synopsis: "NAME",
    summary: "Remove a baby; its feeds and diaper changes stay, with no baby.",
    arguments: 1...1
  ) { invocation in
    let session = invocation.session
    let container = try session.storeForReading()
    let baby = try session.baby(invocation.arguments[0], in: container)
    let context = container.viewContext
    let id = baby.id
    let feeds = try context.fetchCount(FetchDescriptor<FeedSession>(predicate: #Predicate { $0.profileID == id }))
    let diapers = try context.fetchCount(FetchDescriptor<DiaperChange>(predicate: #Predicate { $0.profileID == id }))
    context.delete(baby)
    try context.save()
    // The cache is keyed by name: keep the entry while another baby still answers to it.
    if try context.babies().contains(where: { $0.name == baby.name }) == false {
      try session.cache.remove(forBabyName: baby.name)
    }
    invocation.output.print("Removed \(baby.name); \(feeds) feeds and \(diapers) diaper changes stay, with no baby.")
  }

  static let list = Command(
    words: ["baby", "list"], synopsis: "",
    summary: "List the babies in dashboard order (by when they were added)."
  ) { invocation in
    let session = invocation.session
    let babies = try session.storeForReading().viewContext.babies()
    guard !babies.isEmpty else {
      invocation.output.print("No babies yet. Add one: babydash baby add NAME")
      return
    }
    let width = babies.map(\.name.count).max()!
    let terms = babies.map { LocalTimeText.duration($0.feedTerm) }
    let termWidth = terms.map(\.count).max()!
    for (baby, term) in zip(babies, terms) {
      let padding = String(repeating: " ", count: width - baby.name.count)
      let termPadding = String(repeating: " ", count: termWidth - term.count)
      let added = LocalTimeText.dayText(TimeArgument.civilDay(of: baby.createdAt, in: session.timeZone))
        + " " + LocalTimeText.clockText(baby.createdAt, in: session.timeZone)
      invocation.output.print(
        "\(baby.name)\(padding)  every \(term)\(termPadding)  added \(added)  \(baby.id.uuidString)")
    }
  }
}
