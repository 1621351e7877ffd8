import BabyDashboard
import Foundation
import PlainStore

/// `babydash feed start | finish | log`.
enum FeedCommands {
  static let all = [start, finish, log]

  static let amountOption = OptionSpec(name: "--amount", value: "AMOUNT", help: "120ml, 120 mL, 4oz or 4 fl oz")
  static let memoOption = OptionSpec(name: "--memo", value: "TEXT", help: "a note; #hashtags in it are searchable")

  static let start = Command(
    words: ["feed", "start"], synopsis: "NAME [--at TIME]",
    summary: "Start a feed (now, or at TIME).",
    options: [OptionSpec(name: "--at", value: "TIME", help: "when it started (default: now)")],
    arguments: 1...1
  ) { invocation in
    let session = invocation.session
    let at = try invocation.time("--at", default: session.now)
    let baby = try session.baby(invocation.arguments[0], in: try session.storeForReading())
    let feed = try session.dashboard(at: at).startFeed(for: baby.id)
    invocation.output.print("\(baby.name) started feeding at \(LocalTimeText.format(feed.startTime, now: session.now, in: session.timeZone)).")
  }

  static let finish = Command(
    words: ["feed", "finish"], synopsis: "NAME [--at TIME] [--amount AMOUNT] [--memo TEXT]",
    summary: "Finish the feed in progress; without --amount, the last amount is used (as the app prefills it).",
    options: [
      OptionSpec(name: "--at", value: "TIME", help: "when it ended (default: now)"), amountOption, memoOption,
    ],
    arguments: 1...1
  ) { invocation in
    let session = invocation.session
    let at = try invocation.time("--at", default: session.now)
    let typed = try invocation.value("--amount").map { try invocation.parse("--amount", $0, AmountArgument.parse) }
    let container = try session.storeForReading()
    let baby = try session.baby(invocation.arguments[0], in: container)
    guard let running = try container.viewContext.inProgressFeed(of: baby.id) else {
      throw ScreenModelError.noFeedInProgress(babyName: baby.name)
    }
    guard at >= running.startTime else {
      let started = LocalTimeText.format(running.startTime, now: session.now, in: session.timeZone)
      throw invocation.usageError("--at \(LocalTimeText.format(at, now: session.now, in: session.timeZone)) is before the feed's start (\(started))")
    }
    // The app's finish: the form prefilled from the cache unless an amount was typed.
    let model = try session.dashboard(at: at)
    let form = try typed.map { FeedAmountInput($0) } ?? model.finishFeedForm(for: baby.id)
    let feed = try model.finishFeed(for: baby.id, amount: form, memo: invocation.value("--memo"))
    if let warning = model.cacheWarning { invocation.output.error("babydash: warning: \(warning)") }
    let amount = LastFeedAmount(feed: feed)
    let amountText = amount.map { ", " + LocalTimeText.amount($0.amountValue, $0.amountUnitSymbol) + (typed == nil ? " (the last amount)" : "") } ?? ""
    invocation.output.print("\(baby.name) finished feeding at \(LocalTimeText.format(at, now: session.now, in: session.timeZone))\(amountText).")
  }

  static let log = Command(
    words: ["feed", "log"], synopsis: "NAME --start TIME [--end TIME] [--amount AMOUNT] [--memo TEXT]",
    summary: "Log a feed after the fact (a feed with the same baby and start is updated, not duplicated).",
    options: [
      OptionSpec(name: "--start", value: "TIME", help: "when it started (required)"),
      OptionSpec(name: "--end", value: "TIME", help: "when it ended (default: still in progress)"),
      amountOption, memoOption,
    ],
    arguments: 1...1
  ) { invocation in
    let session = invocation.session
    guard invocation.value("--start") != nil else { throw invocation.usageError("missing --start TIME") }
    let start = try invocation.time("--start", default: session.now)
    let end = try invocation.value("--end").map { _ in try invocation.time("--end", default: session.now) }
    if let end, end < start { throw invocation.usageError("--end is before --start") }
    let amount = try invocation.value("--amount").map { try invocation.parse("--amount", $0, AmountArgument.parse) }
    let container = try session.storeForReading()
    let baby = try session.baby(invocation.arguments[0], in: container)
    let context = try session.store().viewContext
    if let running = try context.inProgressFeed(of: baby.id), running.startTime != start {
      // A later feed would hide the one in progress (the dashboard shows the newest feed).
      if end == nil || start > running.startTime { throw ScreenModelError.alreadyFeeding(babyName: baby.name) }
    }
    let feed = FeedSession(
      profileID: baby.id, startTime: start, endTime: end, amountValue: amount?.amountValue,
      amountUnitSymbol: amount?.amountUnitSymbol, memoText: invocation.value("--memo"))
    context.insert(feed)
    try context.save()
    try FeedCommands.remember(amount, of: feed, for: baby, in: session)
    let span = LocalTimeText.format(start, now: session.now, in: session.timeZone)
      + (end.map { "–" + LocalTimeText.format($0, now: session.now, in: session.timeZone) } ?? " (in progress)")
    let amountText = amount.map { ", " + LocalTimeText.amount($0.amountValue, $0.amountUnitSymbol) } ?? ""
    invocation.output.print("Logged \(baby.name)'s feed \(span)\(amountText).")
  }

  /// Writes the amount to the cache when the flag is on and this feed is the baby's latest with
  /// an amount: an old feed logged late must not replace what the next feed will be prefilled with.
  @MainActor
  static func remember(_ amount: LastFeedAmount?, of feed: FeedSession, for baby: BabyProfile, in session: Session) throws {
    guard let amount, try session.flags().lastFeedAmountCache else { return }
    let latest = try session.store().viewContext.lastFeedWithAmount(of: baby.id)
    guard latest == nil || latest!.startTime <= feed.startTime else { return }
    try session.cache.set(amount, forBabyName: baby.name)
  }
}
