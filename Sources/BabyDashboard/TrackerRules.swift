import Foundation

/// The ranges every value written about babies, feeds and diapers must lie in: one place for the
/// app's screens, the CLI, the importer and `babydash check`.
public enum TrackerRules {
  /// The longest name, in characters: enough for any real name, short enough for a tile.
  public static let maximumNameLength = 100
  /// The shortest and longest time between feeds.
  public static let feedTermRange: ClosedRange<TimeInterval> = 60...86_400
  /// The largest amount of one feed, in millilitres; more is a typo (a thousands separator, a
  /// unit mixed up), not a feed.
  public static let maximumAmountInMilliliters = 1_000.0
  /// How far past "now" a time may be: clocks of two devices differ by a few seconds.
  public static let futureTolerance: TimeInterval = 60

  /// Whether `time` is ahead of `now` by more than the clocks of two devices differ: the one
  /// rule for "the future" that every door applies — a time typed in the CLI or the app, a
  /// restore, an import — and that names what arrived by sync from a device whose clock was
  /// wrong (``StoreContext/eventsAhead(of:)``).
  public static func isAhead(_ time: Date, of now: Date) -> Bool {
    time.timeIntervalSince(now) > futureTolerance
  }

  /// The latest time that is not in the future (``isAhead(_:of:)``): the newest feed "as of now"
  /// starts no later than this.
  public static func latestPresentTime(now: Date) -> Date {
    now.addingTimeInterval(futureTolerance)
  }
  /// The earliest time a feed, a diaper change or a baby can have: 2000-01-01T00:00:00Z. Earlier
  /// is a typo in the year (0026 for 2026), not a baby this app tracks.
  public static let earliestTime = Date(timeIntervalSince1970: 946_684_800)
  /// The longest feed written without a confirmation: a longer one is a feed left running.
  public static let longestFeed: TimeInterval = 4 * 3600
  /// How long before now a feed may start without a confirmation: earlier is a wrong day more
  /// often than a feed remembered late.
  public static let oldestStart: TimeInterval = 86_400

  /// A name as it is stored: trimmed, then checked.
  ///
  /// - Throws: ``ScreenModelError/emptyName`` or ``ScreenModelError/invalid(_:)``.
  public static func babyName(_ raw: String) throws -> String {
    let trimmed = raw.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !trimmed.isEmpty else { throw ScreenModelError.emptyName }
    let issues = issues(forName: trimmed)
    guard issues.isEmpty else { throw ScreenModelError.invalid(issues) }
    return trimmed
  }

  /// A name as babies are told apart by it: case, width and Unicode forms folded, so that "MIA",
  /// "mia", "Ｍｉａ" and a decomposed "Zoé" are each one name. The same-name rule and the
  /// lookup of a NAME argument both compare these keys.
  public static func nameKey(_ name: String) -> String {
    name.trimmingCharacters(in: .whitespacesAndNewlines).precomposedStringWithCompatibilityMapping
      .folding(options: [.caseInsensitive], locale: nil)
  }

  /// Whether two names are one name (``nameKey(_:)``).
  public static func isSameName(_ first: String, _ second: String) -> Bool {
    nameKey(first) == nameKey(second)
  }

  /// What is wrong with a stored name (empty aside).
  public static func issues(forName name: String) -> [ValidationIssue] {
    var issues: [ValidationIssue] = []
    // Control characters colour terminals, break layouts, and a newline makes a name that
    // cannot be typed back; line and paragraph separators do the same.
    // Bidirectional overrides and isolates (U+202A–202E, U+2066–2069) reorder what follows them
    // on a terminal ("Mia" shown, "aiM" stored); U+FFFD stands for bytes that were not UTF-8.
    if name.unicodeScalars.contains(where: {
      $0.properties.generalCategory == .control || $0 == "\u{2028}" || $0 == "\u{2029}"
        || (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value) || $0 == "\u{FFFD}"
    }) {
      issues.append(.nameHasControlCharacters)
    }
    if name.count > maximumNameLength { issues.append(.nameTooLong(limit: maximumNameLength)) }
    return issues
  }

  /// What is wrong with a feed term.
  public static func issues(forFeedTerm term: TimeInterval) -> [ValidationIssue] {
    term.isFinite && feedTermRange.contains(term) ? [] : [.feedTermOutOfRange]
  }

  /// What is wrong with an amount (its unit is known to be canonical or unknown).
  public static func issues(forAmount amount: LastFeedAmount) -> [ValidationIssue] {
    guard amount.amountValue.isFinite else { return [.amountNotANumber(String(amount.amountValue))] }
    if amount.amountValue < 0 { return [.negativeAmount] }
    guard let measurement = amount.measurement else { return [.unknownUnit(amount.amountUnitSymbol)] }
    if measurement.converted(to: .milliliters).value > maximumAmountInMilliliters { return [.amountTooLarge] }
    return []
  }

  /// What is wrong with a time a person gave, against `now`.
  public static func issues(forTime time: Date, now: Date) -> [ValidationIssue] {
    if time < earliestTime { return [.beforeEarliestTime] }
    return isAhead(time, of: now) ? [.inTheFuture] : []
  }

  /// What is doubtful about a feed, though it may be written once confirmed
  /// (``ValidationIssue/needsConfirmation``): longer than ``longestFeed``, started more than
  /// ``oldestStart`` before now, overlapping another feed of its baby, or a zero amount. Only
  /// what `changes` touches is checked (every part of a new feed), so that an old feed's memo
  /// can be edited without a question about its start.
  ///
  /// - Parameters:
  ///   - neighbours: the baby's other feeds near it (a feed in progress lasts until `now`).
  public static func doubts(
    aboutFeed feed: FeedSession, changes: FeedChanges? = nil, neighbours: [FeedSession], now: Date
  ) -> [ValidationIssue] {
    let startChanged = changes == nil || changes?.startTime != nil
    let spanChanged = startChanged || changes?.endTime != nil
    var doubts: [ValidationIssue] = []
    if startChanged, now.timeIntervalSince(feed.startTime) > oldestStart { doubts.append(.startsLongAgo) }
    if spanChanged, let end = feed.endTime, end.timeIntervalSince(feed.startTime) > longestFeed {
      doubts.append(.feedTooLong(end.timeIntervalSince(feed.startTime)))
    }
    if spanChanged {
      let end = feed.endTime ?? max(now, feed.startTime)
      let overlapping = neighbours.filter { other in
        other.uuid != feed.uuid && other.startTime < end && (other.endTime ?? max(now, other.startTime)) > feed.startTime
      }
      if !overlapping.isEmpty { doubts.append(.overlapsFeeds(overlapping.sorted { $0.startTime < $1.startTime }.map(\.uuid))) }
    }
    if changes == nil || changes?.amount != nil, let value = feed.amountValue, isZero(value) { doubts.append(.zeroAmount) }
    return doubts
  }

  /// Whether an amount may become a baby's prefill: a zero is a feed refused or spilled, never
  /// what the next feed will be.
  public static func prefills(_ amount: LastFeedAmount) -> Bool {
    amount.amountValue > 0 && !isZero(amount.amountValue)
  }

  /// Whether an amount is zero as a person sees it: amounts are shown to hundredths of their
  /// unit, so `0.0001ml` shows, and counts, as 0 mL — asked about, never the prefill.
  public static func isZero(_ value: Double) -> Bool {
    (abs(value) * 100).rounded() == 0
  }

  /// What is wrong with a feed's span.
  public static func issues(forStart start: Date, end: Date?) -> [ValidationIssue] {
    if let end, end < start { return [.endBeforeStart] }
    return []
  }
}
