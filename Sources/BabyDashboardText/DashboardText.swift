import BabyDashboard
import Foundation

/// The dashboard (ContentView) as text: one block per baby in the tiles' order (createdAt
/// ascending) with its feeding state, last feed and amount, when the next feed is due, and its
/// last diaper change.
///
/// `babydash status` prints live tiles with it; the previews render scenario tiles with it.
///
/// ```swift
/// try model.reload()
/// print(DashboardText.render(tiles: model.tiles, world: PreviewWorld(now: Date(), timeZone: .current)),
///       terminator: "")
/// ```
public enum DashboardText {
  /// The text width the blocks are laid out in.
  public static let width = 72

  /// The dashboard for `tiles` at `world.now`, ending in one newline.
  ///
  /// - Parameter cacheWarning: ``DashboardModel/cacheWarning``, shown under the tiles.
  public static func render(tiles: [DashboardTile], world: PreviewWorld, cacheWarning: String? = nil) -> String {
    var lines = [header("Dashboard", world: world), TextLayout.rule("=", width)]
    if tiles.isEmpty {
      lines.append("No babies yet: add a baby to start tracking feeds and diapers.")
    }
    for (index, tile) in tiles.enumerated() {
      if index > 0 { lines.append(TextLayout.rule("-", width)) }
      lines += block(tile, world: world)
    }
    if let cacheWarning {
      lines.append(TextLayout.rule("-", width))
      lines += TextLayout.wrap(cacheWarning, columns: width, first: "Note: ", rest: "      ")
    }
    return TextLayout.document(lines)
  }

  /// "Dashboard" on the left, the moment and its UTC offset on the right.
  static func header(_ title: String, world: PreviewWorld) -> String {
    let moment = TimeText.dateTime(world.now, in: world) + " "
      + TimeText.utcOffset(world.timeZone.secondsFromGMT(for: world.now))
    return TextLayout.pad(title, to: width - TextLayout.width(moment)) + moment
  }

  static func block(_ tile: DashboardTile, world: PreviewWorld) -> [String] {
    let status = tile.isFeeding ? "FEEDING NOW" : (tile.isOverdue ? "FEED OVERDUE" : "")
    let nameColumns = width - 14
    // A long name wraps rather than losing its end: two babies may differ only there.
    var lines = TextLayout.wrap(tile.baby.name, columns: nameColumns)
    lines[0] = TextLayout.pad(lines[0], to: nameColumns) + TextLayout.padLeft(status, to: 14)
    func row(_ label: String, _ value: String) {
      lines += TextLayout.wrap(value, columns: width, first: "  " + TextLayout.pad(label, to: 12), rest: String(repeating: " ", count: 14))
    }
    if let feed = tile.inProgressFeed {
      row("Feeding", "since \(TimeText.moment(feed.startTime, in: world)) (\(TimeText.duration(world.now.timeIntervalSince(feed.startTime))))")
    }
    if let feed = tile.lastFinishedFeed {
      var text = "\(TimeText.moment(feed.startTime, in: world)), \(TimeText.relative(feed.startTime, in: world))"
      if let value = feed.amountValue, let unit = feed.amountUnitSymbol {
        text += " · " + AmountText.format(value, unitSymbol: unit)
      }
      row("Last fed", text)
    } else if tile.inProgressFeed == nil {
      row("Last fed", "no feeds yet")
    }
    if let due = tile.nextFeedDue {
      let term = TimeText.duration(tile.baby.feedTerm)
      let when = "\(TimeText.moment(due, in: world)) (\(TimeText.relative(due, in: world)))"
      if tile.isOverdue {
        row("Next feed", "overdue since \(when); every \(term)")
      } else if tile.isFeeding && due <= world.now {
        row("Next feed", "was due \(when): feeding past its \(term) term")
      } else {
        row("Next feed", "due \(when); every \(term)")
      }
    }
    if let diaper = tile.lastDiaper {
      row("Last diaper", "\(diaper.type.rawValue) at \(TimeText.moment(diaper.timestamp, in: world)), \(TimeText.relative(diaper.timestamp, in: world))")
    } else {
      row("Last diaper", "none yet")
    }
    if let amount = tile.lastAmount {
      let source = tile.lastAmountSource == .cache ? "cached" : "from the last feed"
      row("Prefill", "\(AmountText.format(amount.amountValue, unitSymbol: amount.amountUnitSymbol)) (\(source))")
    }
    return lines
  }
}
