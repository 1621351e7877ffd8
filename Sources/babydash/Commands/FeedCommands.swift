import ArgumentParsing
import BabyDashboard
import BabyDashboardText
import Foundation

/// `babydash feed start | finish | log | edit | delete`.
enum FeedCommands {
  static let all = [start, finish, log, edit, delete]

  static let amount = Option<AmountArgument>("--amount", "AMOUNT", help: "120ml, 120 mL, 4oz or 4 fl oz")
  static let memo = Option<String>("--memo", "TEXT", help: "a note; #hashtags in it are searchable")
  static let startedAt = Option<TimeArgument>("--at", "TIME", help: "when it started (default: now)")
  static let endedAt = Option<TimeArgument>("--at", "TIME", help: "when it ended (default: now)")
  static let logStart = Option<TimeArgument>("--start", "TIME", help: "when it started (required)")
  static let logEnd = Option<TimeArgument>("--end", "TIME", help: "when it ended (default: still in progress)")
  static let editStart = Option<TimeArgument>("--start", "TIME", help: "when it started")
  static let editEnd = Option<TimeArgument>("--end", "TIME", help: "when it ended")
  static let editMemo = Option<String>("--memo", "TEXT", help: "the note (\"\" removes it)")
  static let editBaby = Option<String>("--baby", "NAME", help: "the baby it belongs to (gives an orphan feed a baby)")
  static let yes = Flag(
    "--yes", help: "save a doubtful feed as it is: longer than 4h, started over a day ago, overlapping another, or a zero amount")

  static let start = Command(
    words: ["feed", "start"], synopsis: "NAME [--at TIME] [--yes]",
    summary: "Start a feed (now, or at TIME).",
    options: [startedAt.spec, yes.spec],
    arguments: 1...1,
    details: "Examples:\n  babydash feed start Mia\n  babydash feed start Mia --at 07:05"
  ) { invocation in
    let session = invocation.session
    let at = try invocation.time(FeedCommands.startedAt, default: session.now)
    let baby = try session.baby(invocation.arguments[0], in: try session.storeForReading())
    let feed = try session.tracker().startFeed(for: baby.id, at: at, confirmed: invocation.has(FeedCommands.yes))
    try invocation.output.print("\(baby.name) started feeding at \(session.text(feed.startTime)).")
    try session.warnAboutEventsAhead(of: baby.id)
  }

  static let finish = Command(
    words: ["feed", "finish"], synopsis: "NAME [--at TIME] [--amount AMOUNT] [--memo TEXT] [--yes]",
    summary: "Finish the feed in progress; without --amount, the last amount is used (as the app prefills it).",
    options: [
      endedAt.spec, amount.spec, memo.spec, yes.spec,
    ],
    arguments: 1...1,
    details: "Examples:\n  babydash feed finish Mia --amount 120ml\n  babydash feed finish Mia --at 07:30 --memo \"#night sleepy\""
  ) { invocation in
    let session = invocation.session
    let at = try invocation.time(FeedCommands.endedAt)
    let typed = try invocation.value(FeedCommands.amount)?.amount
    let baby = try session.baby(invocation.arguments[0], in: try session.storeForReading())
    let tracker = try session.tracker()
    // The app's finish: the form (shown only while a feed is in progress) prefilled from the
    // cache unless an amount was typed.
    let prefill: (amount: LastFeedAmount?, source: DashboardTile.AmountSource?) = typed == nil ? try tracker.lastAmount(of: baby) : (nil, nil)
    let feed = try tracker.finishFeed(
      for: baby.id, at: at, amount: typed ?? prefill.amount, memo: invocation.value(FeedCommands.memo),
      confirmed: invocation.has(FeedCommands.yes))
    if typed == nil { tracker.countPrefill(from: prefill.source) }
    if let warning = tracker.cacheWarning { try invocation.output.error("babydash: warning: \(warning)") }
    let amountText = LastFeedAmount(feed: feed).map {
      ", " + AmountText.format($0.amountValue, unitSymbol: $0.amountUnitSymbol) + (typed == nil ? " (the last amount)" : "")
    } ?? ""
    try invocation.output.print("\(baby.name) finished feeding at \(session.text(feed.endTime!))\(amountText).")
    if LastFeedAmount(feed: feed) == nil {
      // No amount typed and none to prefill: said, not saved in silence.
      let id = HistoryText.shortID(feed.uuid)
      try invocation.output.print("No amount saved (none given, and no earlier amount to use): add it with `babydash feed edit \(id) --amount AMOUNT`.")
    }
  }

  static let log = Command(
    words: ["feed", "log"], synopsis: "NAME --start TIME [--end TIME] [--amount AMOUNT] [--memo TEXT] [--yes]",
    summary: "Log a feed after the fact; a feed with the same baby and start is updated with only the options given.",
    options: [
      logStart.spec, logEnd.spec, amount.spec, memo.spec, yes.spec,
    ],
    arguments: 1...1,
    details: "Example:\n  babydash feed log Mia --start 03:10 --end 03:30 --amount 90ml"
  ) { invocation in
    let session = invocation.session
    guard let start = try invocation.time(FeedCommands.logStart) else { throw invocation.usageError("missing --start TIME") }
    let end = try invocation.time(FeedCommands.logEnd)
    let amount = try invocation.value(FeedCommands.amount)?.amount
    let baby = try session.baby(invocation.arguments[0], in: try session.storeForReading())
    let tracker = try session.tracker()
    let (feed, updated) = try tracker.logFeed(
      for: baby.id, start: start, end: end, amount: amount, memo: invocation.value(FeedCommands.memo),
      confirmed: invocation.has(FeedCommands.yes))
    if let warning = tracker.cacheWarning { try invocation.output.error("babydash: warning: \(warning)") }
    try invocation.output.print("\(updated ? "Updated" : "Logged") \(baby.name)'s feed \(session.describe(feed)).")
  }

  static let edit = Command(
    words: ["feed", "edit"], synopsis: "ID [--start TIME] [--end TIME] [--amount AMOUNT] [--memo TEXT] [--baby NAME] [--yes]",
    summary: "Change a feed (ID as babydash history shows it; a unique prefix is enough).",
    options: [
      editStart.spec, editEnd.spec, amount.spec, editMemo.spec, editBaby.spec, yes.spec,
    ],
    arguments: 1...1,
    details: "Examples:\n  babydash feed edit 3f2a9c1e --amount 110ml\n  babydash feed edit 3f2a --baby Mia"
  ) { invocation in
    let session = invocation.session
    let start = try invocation.time(FeedCommands.editStart)
    let end = try invocation.time(FeedCommands.editEnd)
    let amount = try invocation.value(FeedCommands.amount)?.amount
    let container = try session.storeForReading()
    let (addressed, before) = try session.feed(invocation.arguments[0])
    let baby = try invocation.value(FeedCommands.editBaby).map { try session.baby($0, in: container) }
    let changes = FeedChanges(
      startTime: start, endTime: end.map { .some($0) }, amount: amount.map { .some($0) },
      memoText: try invocation.value(FeedCommands.editMemo).map { .some($0) }, profileID: baby.map { .some($0.id) })
    guard !changes.isEmpty else {
      throw invocation.usageError("nothing to change: give --start, --end, --amount, --memo or --baby")
    }
    let tracker = try session.tracker()
    let edited = try tracker.editFeed(addressed, changes, confirmed: invocation.has(FeedCommands.yes))
    if let warning = tracker.cacheWarning { try invocation.output.error("babydash: warning: \(warning)") }
    try invocation.output.print(FeedCommands.editReport(before: before, after: edited, session: session, babies: try container.viewContext.babies()))
  }

  /// What `feed edit` changed, with what it was: "Updated feed 66459520: 07:40–08:00, 110 mL (was
  /// 4 fl oz)."; a memo or a baby changed is said too, and an edit that changed nothing says so.
  @MainActor
  static func editReport(before: FeedSession, after: FeedSession, session: Session, babies: [BabyProfile]) -> String {
    let id = session.shortID(after.uuid)
    guard before != after else { return "Feed \(id) is already so: nothing changed." }
    var was: [String] = []
    if before.startTime != after.startTime || before.endTime != after.endTime {
      was.append(session.text(before.startTime) + (before.endTime.map { "–" + session.text($0) } ?? " (in progress)"))
    }
    if before.amountValue != after.amountValue || before.amountUnitSymbol != after.amountUnitSymbol {
      was.append(LastFeedAmount(feed: before).map { AmountText.format($0.amountValue, unitSymbol: $0.amountUnitSymbol) } ?? "no amount")
    }
    var line = "Updated feed \(id): \(session.describe(after))" + (was.isEmpty ? "" : " (was \(was.joined(separator: ", ")))") + "."
    if before.memoText != after.memoText {
      line += after.memoText.map { " Memo: \"\(TextLayout.singleLine($0))\"." } ?? " Memo removed."
    }
    if before.profileID != after.profileID {
      func owner(_ id: UUID?) -> String { id.flatMap { id in babies.first { $0.id == id }?.name }.map { "\($0)'s" } ?? "no baby's" }
      line += " Now \(owner(after.profileID)) (was \(owner(before.profileID)))."
    }
    return line
  }

  static let delete = Command(
    words: ["feed", "delete"], synopsis: "ID",
    summary: "Delete a feed (ID as babydash history shows it; a unique prefix is enough).",
    arguments: 1...1,
    details: "Example:\n  babydash feed delete 3f2a9c1e"
  ) { invocation in
    let session = invocation.session
    let (addressed, feed) = try session.feed(invocation.arguments[0])
    try session.tracker().deleteFeed(addressed)
    try invocation.output.print("Deleted feed \(session.shortID(feed.uuid)) (\(session.describe(feed))).")
  }
}

extension Session {
  /// A time as the tool prints it in messages.
  func text(_ date: Date) -> String {
    TimeText.typable(date, now: now, in: timeZone)
  }

  /// The id as `babydash history` shows it.
  func shortID(_ id: UUID) -> String {
    HistoryText.shortID(id)
  }

  /// `07:00–07:30, 120 mL`, `07:00 (in progress)`.
  func describe(_ feed: FeedSession) -> String {
    let span = text(feed.startTime) + (feed.endTime.map { "–" + text($0) } ?? " (in progress)")
    let amount = LastFeedAmount(feed: feed).map { ", " + AmountText.format($0.amountValue, unitSymbol: $0.amountUnitSymbol) } ?? ""
    return span + amount
  }
}
