import ArgumentParsing
import BabyDashboard
import BabyDashboardText
import Foundation

/// `babydash baby add | edit | rename | remove | list`.
enum BabyCommands {
  static let all = [add, edit, rename, remove, merge, list]
  static let mergeYes = Flag("--yes", help: "confirm the merge (without it, what would happen is said and nothing is written)")

  static let sameNameOK = Flag("--same-name-ok", help: "allow a name another baby already has (then address each by its id)")
  /// A feed term is shown in whole minutes (`every 1m 30s` is no clock a parent reads): `90s` is refused.
  @MainActor
  static func wholeMinutes(_ term: DurationArgument?, _ invocation: Invocation) throws -> TimeInterval? {
    guard let seconds = term?.seconds else { return nil }
    guard seconds.truncatingRemainder(dividingBy: 60) == 0 else {
      throw invocation.usageError(
        "bad value for --feed-term: the time between feeds is in whole minutes; \(Int(seconds))s is not (give \(Int(seconds) / 60)m or \(Int(seconds) / 60 + 1)m)")
    }
    return seconds
  }

  static let feedTerm = Option<DurationArgument>(
    "--feed-term", "DURATION", help: "time between feeds: 3h, 2h30m or 90m (default 3h)")
  static let editFeedTerm = Option<DurationArgument>("--feed-term", "DURATION", help: "the new time between feeds: 3h, 2h30m or 90m")
  static let newName = Option<String>("--name", "NEW_NAME", help: "the new name")
  static let createdAt = Option<TimeArgument>(
    "--created-at", "TIME", help: "when the baby was added (default: now); orders the dashboard")
  static let yes = Flag("--yes", help: "confirm removing a baby that has feeds or diaper changes")

  static let add = Command(
    words: ["baby", "add"], synopsis: "NAME [--feed-term DURATION] [--created-at TIME] [--same-name-ok]",
    summary: "Add a baby; it goes last on the dashboard.",
    options: [
      feedTerm.spec, createdAt.spec, sameNameOK.spec,
    ],
    arguments: 1...1,
    details: "Examples:\n  babydash baby add Mia\n  babydash baby add Leo --feed-term 2h30m"
  ) { invocation in
    let session = invocation.session
    let feedTerm = try wholeMinutes(invocation.value(BabyCommands.feedTerm), invocation) ?? BabyProfile.defaultFeedTerm
    let createdAt = try invocation.time(BabyCommands.createdAt, default: session.now)
    let baby = try BabyCommands.naming {
      try session.tracker().addBaby(
        name: invocation.arguments[0], feedTerm: feedTerm, createdAt: createdAt,
        allowingSameName: invocation.has(BabyCommands.sameNameOK))
    }
    try invocation.output.print(
      "Added \(baby.name) (id \(baby.id.uuidString)), fed every \(TimeText.duration(baby.feedTerm)).")
  }

  static let edit = Command(
    words: ["baby", "edit"], synopsis: "NAME [--feed-term DURATION] [--name NEW_NAME] [--same-name-ok]",
    summary: "Change a baby's feed term or name; its feeds and last feed amount stay with it.",
    options: [editFeedTerm.spec, newName.spec, sameNameOK.spec],
    arguments: 1...1,
    details: "NAME is a name or an id.\n\nExamples:\n  babydash baby edit Mia --feed-term 3h30m\n  babydash baby edit Mia --name Mila"
  ) { invocation in
    let session = invocation.session
    let feedTerm = try wholeMinutes(invocation.value(BabyCommands.editFeedTerm), invocation)
    let name = try invocation.value(BabyCommands.newName)
    guard feedTerm != nil || name != nil else { throw invocation.usageError("nothing to change: give --feed-term or --name") }
    let baby = try session.baby(invocation.arguments[0], in: try session.storeForReading())
    let edited = try BabyCommands.naming {
      try session.tracker().editBaby(baby.id, name: name, feedTerm: feedTerm, allowingSameName: invocation.has(BabyCommands.sameNameOK))
    }
    let renamed = edited.name == baby.name ? edited.name : "\(edited.name) (was \(baby.name))"
    try invocation.output.print("Updated \(renamed), fed every \(TimeText.duration(edited.feedTerm)).")
  }

  static let rename = Command(
    words: ["baby", "rename"], synopsis: "NAME NEW_NAME [--same-name-ok]",
    summary: "Rename a baby; its last feed amount stays with it.",
    options: [sameNameOK.spec],
    arguments: 2...2,
    details: "NAME is a name or an id.\n\nExample:\n  babydash baby rename Mia Mila"
  ) { invocation in
    let session = invocation.session
    let baby = try session.baby(invocation.arguments[0], in: try session.storeForReading())
    let renamed = try BabyCommands.naming {
      try session.tracker().renameBaby(baby.id, to: invocation.arguments[1], allowingSameName: invocation.has(BabyCommands.sameNameOK))
    }
    try invocation.output.print("Renamed \(baby.name) to \(renamed.name).")
  }

  static let remove = Command(
    words: ["baby", "remove"], synopsis: "NAME [--yes]",
    summary: "Remove a baby; its feeds and diaper changes stay, with no baby (give them to another with feed edit --baby).",
    options: [yes.spec],
    arguments: 1...1,
    details: "Example:\n  babydash baby remove Mia --yes"
  ) { invocation in
    let session = invocation.session
    let baby = try session.baby(invocation.arguments[0], in: try session.storeForReading())
    let tracker = try session.tracker()
    let counts = try tracker.eventCounts(of: baby.id)
    let events = "\(Plural.count(counts.feeds, "feed")) and \(Plural.count(counts.diapers, "diaper change"))"
    if counts.feeds + counts.diapers > 0, !invocation.has(BabyCommands.yes) {
      throw CommandLineError.data(
        "\(baby.name) has \(events): removing the baby keeps them in the history with no baby "
          + "(feed edit ID --baby NAME gives one to another baby). Run again with --yes to remove \(baby.name).")
    }
    let removal = try tracker.removeBaby(baby.id)
    try invocation.output.print("Removed \(removal.baby.name); \(events) stay, with no baby.")
  }

  static let merge = Command(
    words: ["baby", "merge"], synopsis: "FROM INTO [--yes]",
    summary: "Merge two records of one baby (two phones each added her): FROM's feeds and diaper changes move onto INTO, and FROM is removed.",
    options: [mergeYes.spec],
    arguments: 2...2,
    details: """
      FROM and INTO are names or ids (a prefix only one baby's id has will do: two babies of one
      name are told apart by id). One commit, folded the same way by every device; an event both
      have at the same time is kept once, as INTO has it.

      Example:
        babydash baby merge 1f3a9c2e 7b41d0aa --yes
      """
  ) { invocation in
    let session = invocation.session
    let container = try session.storeForReading()
    let from = try session.baby(invocation.arguments[0], in: container)
    let into = try session.baby(invocation.arguments[1], in: container)
    let tracker = try session.tracker()
    let counts = try tracker.eventCounts(of: from.id)
    let events = "\(Plural.count(counts.feeds, "feed")) and \(Plural.count(counts.diapers, "diaper change"))"
    let fromLabel = "\(from.name) (\(HistoryText.shortID(from.id)))"
    let intoLabel = "\(into.name) (\(HistoryText.shortID(into.id)))"
    guard invocation.has(BabyCommands.mergeYes) || from.id == into.id else {
      throw CommandLineError.data(
        "merging \(fromLabel) into \(intoLabel) moves \(events) onto \(intoLabel) and removes \(fromLabel). Run again with --yes to merge.")
    }
    let merged = try tracker.mergeBaby(from.id, into: into.id)
    if let warning = tracker.cacheWarning { try invocation.output.error("babydash: warning: \(warning)") }
    let moved = "\(Plural.count(merged.movedFeeds, "feed")) and \(Plural.count(merged.movedDiapers, "diaper change"))"
    try invocation.output.print(
      "Merged \(fromLabel) into \(intoLabel): moved \(moved)"
        + (merged.keptOnce > 0 ? ", kept \(Plural.count(merged.keptOnce, "event")) both had once" : "") + "; removed \(fromLabel).")
  }

  /// What says that babies share a name (by ``TrackerRules/nameKey(_:)``: case and Unicode form
  /// aside), one line per name, with the commands that part or join them: `check` and the merge
  /// report say it. `only` limits it to names one of these babies has.
  static func sameNameLines(_ babies: [BabyProfile], only: Set<UUID>? = nil) -> [String] {
    let groups = Dictionary(grouping: babies, by: { TrackerRules.nameKey($0.name) })
    return groups.values.filter { group in group.count > 1 && (only.map { ids in group.contains { ids.contains($0.id) } } ?? true) }
      .sorted { $0[0].createdAt < $1[0].createdAt }
      .map { group in
        let ids = group.map { HistoryText.shortID($0.id) }
        return "\(group.count) babies are named \(group[0].name) (\(ids.joined(separator: ", "))): if they are one baby, "
          + "`babydash baby merge \(ids[1]) \(ids[0]) --yes` keeps the first; else rename one (`babydash baby rename \(ids[1]) NEW_NAME`)"
      }
  }

  static let list = Command(
    words: ["baby", "list"], synopsis: "",
    summary: "List the babies in dashboard order (by when they were added), each with its id.",
    details: "Example:\n  babydash baby list"
  ) { invocation in
    let session = invocation.session
    let babies = try session.existingStore(nothingTo: "list").viewContext.babies()
    guard !babies.isEmpty else {
      try invocation.output.print("No babies yet. Add one: babydash baby add NAME")
      return
    }
    let width = babies.map { TextLayout.width($0.name) }.max()!
    let terms = babies.map { TimeText.duration($0.feedTerm) }
    let termWidth = terms.map(\.count).max()!
    for (baby, term) in zip(babies, terms) {
      let termPadding = String(repeating: " ", count: termWidth - term.count)
      let added = TimeText.isoDay(TimeText.civilDay(of: baby.createdAt, in: session.timeZone))
        + " " + TimeText.clock(baby.createdAt, in: session.timeZone)
      try invocation.output.print(
        "\(TextLayout.pad(baby.name, to: width))  every \(term)\(termPadding)  added \(added)  \(baby.id.uuidString)")
    }
  }

  /// Runs a write that names a baby, saying how to go on when the name is taken.
  @MainActor
  static func naming<T>(_ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch ScreenModelError.nameInUse(let name, let ids) {
      throw CommandLineError.data(
        "another baby is already named \(name) (id \(ids.map(\.uuidString).joined(separator: ", "))): "
          + "choose another name, or add --same-name-ok and then address each baby by its id")
    }
  }
}
