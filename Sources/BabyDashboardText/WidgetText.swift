import BabyDashboard
import Foundation

/// The widget as text, from the snapshots the app writes for it: the small family shows one
/// baby, the medium family every baby (up to four) in two lines each.
///
/// `babydash widget` prints the live snapshot file with it.
///
/// ```swift
/// let snapshots = try BabyWidgetSnapshots.read(appGroupDirectory: folder)
/// print(WidgetText.render(snapshots!, family: .medium, world: world), terminator: "")
/// ```
public enum WidgetText {
  /// The widget sizes rendered.
  public enum Family: String, Sendable, Hashable, CaseIterable {
    case small
    case medium

    /// Columns inside the frame.
    var innerWidth: Int { self == .small ? 24 : 68 }
  }

  /// The most babies the medium widget lists before "+N more".
  public static let mediumLimit = 4

  /// The widget of `family` for `snapshots` at `world.now`, ending in one newline.
  ///
  /// - Parameter babyName: the baby the small widget is configured for; the first baby when
  ///   `nil` or unknown.
  public static func render(
    _ snapshots: BabyWidgetSnapshots, family: Family, babyName: String? = nil, world: PreviewWorld
  ) -> String {
    var body: [String] = []
    switch family {
    case .small:
      let baby = babyName.flatMap(snapshots.snapshot(forBabyName:)) ?? snapshots.babies.first
      if let baby {
        body = smallLines(baby, world: world)
      } else {
        body = ["No babies yet", "Open the app to add one"]
      }
    case .medium:
      if snapshots.babies.isEmpty { body = ["No babies yet: open the app to add one."] }
      for baby in snapshots.babies.prefix(mediumLimit) {
        body += mediumLines(baby, world: world)
      }
      if snapshots.babies.count > mediumLimit {
        body.append("+\(snapshots.babies.count - mediumLimit) more in the app")
      }
    }
    body.append("as of \(TimeText.moment(snapshots.generatedAt, in: world))")
    return TextLayout.document(frame(body, innerWidth: family.innerWidth))
  }

  static func frame(_ body: [String], innerWidth: Int) -> [String] {
    let edge = "+" + TextLayout.rule("-", innerWidth + 2) + "+"
    return [edge] + body.map { "| " + TextLayout.pad($0, to: innerWidth) + " |" } + [edge]
  }

  static func feedLine(_ baby: BabyWidgetSnapshot, world: PreviewWorld) -> String {
    if let since = baby.feedingSince {
      return "Feeding \(TimeText.duration(world.now.timeIntervalSince(since)))"
    }
    guard let feed = baby.lastFeed else { return "No feeds yet" }
    var text = "Fed \(TimeText.relative(feed.start, in: world))"
    if let value = feed.amountValue, let unit = feed.amountUnitSymbol {
      text += ", " + AmountText.format(value, unitSymbol: unit)
    }
    return text
  }

  static func dueLine(_ baby: BabyWidgetSnapshot, world: PreviewWorld) -> String? {
    guard let due = baby.nextFeedDue else { return nil }
    if due > world.now { return "Next \(TimeText.clock(due, in: world)), \(TimeText.relative(due, in: world))" }
    return baby.isFeeding
      ? "Was due \(TimeText.relative(due, in: world))"
      : "Overdue \(TimeText.duration(world.now.timeIntervalSince(due)))"
  }

  static func diaperLine(_ baby: BabyWidgetSnapshot, world: PreviewWorld) -> String {
    guard let diaper = baby.lastDiaper else { return "No diapers yet" }
    return "\(diaper.type == .pee ? "Pee" : "Poo") \(TimeText.relative(diaper.time, in: world))"
  }

  static func todayLine(_ baby: BabyWidgetSnapshot) -> String {
    "Today \(baby.todayFeedCount) \(baby.todayFeedCount == 1 ? "feed" : "feeds"), "
      + "\(baby.todayDiaperCount) \(baby.todayDiaperCount == 1 ? "diaper" : "diapers")"
  }

  static func smallLines(_ baby: BabyWidgetSnapshot, world: PreviewWorld) -> [String] {
    [baby.name, feedLine(baby, world: world)] + [dueLine(baby, world: world)].compactMap { $0 }
      + [diaperLine(baby, world: world), todayLine(baby)]
  }

  static func mediumLines(_ baby: BabyWidgetSnapshot, world: PreviewWorld) -> [String] {
    let name = TextLayout.pad(baby.name, to: 14) + "  "
    let blank = String(repeating: " ", count: 16)
    return [
      name + TextLayout.pad(feedLine(baby, world: world), to: 24) + "  " + (dueLine(baby, world: world) ?? ""),
      blank + TextLayout.pad(diaperLine(baby, world: world), to: 24) + "  " + todayLine(baby),
    ]
  }
}
