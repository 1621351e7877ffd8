import BabyDashboard
import Foundation

/// The history (HistoryView) as text: a month header, then day headers, then one row per feed or
/// diaper change, newest first, with the feed's duration, amount and memo (whose hashtags the
/// header lists for filtering). A day that is not 24 hours long says so, with the UTC offsets.
///
/// `babydash history` prints live months with it.
///
/// ```swift
/// print(HistoryText.render(model, world: world), terminator: "")
/// ```
public enum HistoryText {
  /// The text width the rows are laid out in.
  public static let width = 72

  /// What the history shows and how it is filtered.
  public struct Filter: Sendable, Hashable {
    /// The baby filtered by, or `nil` for all babies.
    public var babyName: String?
    /// The hashtag filtered by (without `#`), or `nil`.
    public var hashtag: String?
    /// Every hashtag there is to filter by.
    public var availableHashtags: [String]
    /// The month asked for (year, month), or `nil` for every month.
    public var month: [Int]?

    public init(babyName: String? = nil, hashtag: String? = nil, availableHashtags: [String] = [], month: [Int]? = nil) {
      self.babyName = babyName
      self.hashtag = hashtag
      self.availableHashtags = availableHashtags
      self.month = month
    }
  }

  /// The history of `months` (as ``HistoryModel/sections`` groups them), ending in one newline.
  ///
  /// - Parameter showingIDs: whether each row starts with the first 8 characters of its event's
  ///   id, as `babydash history` shows them for `feed edit ID` and friends.
  public static func render(
    months: [HistoryMonth], filter: Filter = Filter(), world: PreviewWorld, showingIDs: Bool = false
  ) -> String {
    let count = months.reduce(0) { $0 + $1.events.count }
    var lines = [DashboardText.header("History", world: world)]
    let babies = filter.babyName ?? "all babies"
    let tag = filter.hashtag.map { "#" + Hashtag.normalize($0) } ?? "any tag"
    lines.append("Showing \(babies), \(tag): \(count) \(count == 1 ? "event" : "events")")
    if !filter.availableHashtags.isEmpty {
      lines += TextLayout.wrap(
        filter.availableHashtags.map { "#" + $0 }.joined(separator: " "), columns: width, first: "Tags: ",
        rest: "      ")
    }
    lines.append(TextLayout.rule("=", width))
    if months.isEmpty {
      if let month = filter.month, month.count == 2 {
        // Not "yet": a month with nothing in it says which month.
        let title = TimeText.month(year: month[0], month: month[1])
        lines.append(
          filter.babyName == nil && filter.hashtag == nil ? "No feeds or diaper changes in \(title)." : "Nothing in \(title) matches the filter.")
      } else {
        lines.append(filter.babyName == nil && filter.hashtag == nil ? "No feeds or diaper changes yet." : "Nothing matches the filter.")
      }
      return TextLayout.document(lines)
    }
    let names = months.flatMap(\.events).map { displayName($0.babyName) }
    let nameColumns = min(14, names.map { TextLayout.width($0) }.max() ?? 0)
    for month in months {
      lines.append("")
      lines.append(TimeText.month(year: month.year, month: month.month))
      lines.append(TextLayout.rule("-", width))
      for day in month.days {
        lines.append(dayHeader(day, world: world))
        for event in day.events {
          lines += rows(event, nameColumns: nameColumns, world: world, showingID: showingIDs)
        }
      }
    }
    return TextLayout.document(lines)
  }

  /// The history a ``HistoryModel`` shows now, with its filters.
  @MainActor
  public static func render(_ model: HistoryModel, world: PreviewWorld, showingIDs: Bool = false) -> String {
    let babyName = model.babyFilter.flatMap { id in model.babies.first { $0.id == id }?.name }
    let tag = model.hashtagFilter.flatMap { Hashtag.normalize($0).isEmpty ? nil : $0 }
    return render(
      months: model.sections,
      filter: Filter(babyName: babyName, hashtag: tag, availableHashtags: model.hashtags), world: world,
      showingIDs: showingIDs)
  }

  /// "(no baby)" for an orphan.
  static func displayName(_ name: String?) -> String { name ?? "(no baby)" }

  /// "Sunday 8 March 2026", plus the day's length and offsets when the clocks changed.
  static func dayHeader(_ day: HistoryDay, world: PreviewWorld) -> String {
    let title = TimeText.day(year: day.year, month: day.month, day: day.day, in: world)
    guard let next = world.calendar.date(byAdding: .day, value: 1, to: day.start) else { return title }
    let hours = Int(next.timeIntervalSince(day.start) / 3600)
    guard next.timeIntervalSince(day.start) != 86_400 else { return title }
    let before = TimeText.utcOffset(world.timeZone.secondsFromGMT(for: day.start))
    let after = TimeText.utcOffset(world.timeZone.secondsFromGMT(for: next.addingTimeInterval(-1)))
    return "\(title) · \(hours)-hour day, clocks changed \(before) → \(after)"
  }

  /// The short id of an event: the first 8 characters of its uuid, lowercased.
  public static func shortID(_ id: UUID) -> String {
    String(id.uuidString.lowercased().prefix(8))
  }

  static func rows(_ event: HistoryEvent, nameColumns: Int, world: PreviewWorld, showingID: Bool = false) -> [String] {
    let start = "  " + (showingID ? shortID(event.id) + "  " : "") + TimeText.clock(event.date, in: world) + "  " + TextLayout.pad(displayName(event.babyName), to: nameColumns) + "  "
    // In the hour the clocks go back, two rows can read 01:30: the offset tells them apart.
    let offset = TimeText.isRepeated(event.date, in: world)
      ? "  (" + TimeText.utcOffset(world.timeZone.secondsFromGMT(for: event.date)) + ")" : ""
    switch event.kind {
    case .diaper(let diaper):
      return [start + "Diaper  " + diaper.type.rawValue + offset]
    case .feed(let feed):
      var details: [String] = []
      if let end = feed.endTime {
        details.append("\(TimeText.duration(end.timeIntervalSince(feed.startTime))), to \(TimeText.clock(end, in: world))")
      } else {
        details.append("in progress, \(TimeText.duration(world.now.timeIntervalSince(feed.startTime))) so far")
      }
      if let value = feed.amountValue {
        details.append(AmountText.format(value, unitSymbol: feed.amountUnitSymbol ?? "(no unit)"))
      }
      var lines = [start + "Feed    " + details.joined(separator: " · ") + offset]
      if let memo = feed.memoText, !memo.isEmpty {
        let indent = String(repeating: " ", count: TextLayout.width(start) + 8)
        lines += TextLayout.wrap("\"\(TextLayout.singleLine(memo))\"", columns: width, first: indent, rest: indent + " ")
      }
      return lines
    }
  }
}
