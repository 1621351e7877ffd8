import BabyDashboard
import BabyDashboardFixtures
import BabyDashboardText
import Foundation
import PlainStore

/// Every preview: each screen in each scenario, and the variants worth a look (a filter, a
/// form with errors, a widget size). Names are checked for collisions (case-insensitively, as
/// macOS file systems compare them) when the catalog is first used.
public enum PreviewCatalog {
  /// All previews, by screen, then scenario, then variant.
  public static let entries: [PreviewEntry] = dashboard + history + historyEdit + widget

  /// The preview called `name` ("Dashboard/two-babies"), or `nil`.
  public static func entry(named name: String) -> PreviewEntry? {
    entries.first { $0.name == name }
  }

  /// Checks that names are unique (ignoring case), made of safe characters, and that every
  /// scenario name is unique too.
  ///
  /// - Throws: ``PreviewError`` naming the colliding or bad names.
  public static func validate(_ entries: [PreviewEntry] = entries) throws {
    var seen: [String: String] = [:]
    for entry in entries {
      let parts = [entry.scenario.name] + (entry.variant.map { [$0] } ?? [])
      for part in parts where part.isEmpty || !part.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-") }) {
        throw PreviewError("preview '\(entry.name)': '\(part)' must be lowercase ASCII letters, digits and '-'")
      }
      let key = entry.name.lowercased()
      if let other = seen[key] {
        throw PreviewError("previews '\(other)' and '\(entry.name)' have the same name: rename a variant")
      }
      seen[key] = entry.name
    }
    let scenarioNames = Scenario.all.map(\.name)
    if Set(scenarioNames).count != scenarioNames.count {
      throw PreviewError("two scenarios share a name in \(scenarioNames): rename one")
    }
  }

  // MARK: - The screens

  static let dashboard: [PreviewEntry] = Scenario.all.map { scenario in
    PreviewEntry(screen: .dashboard, scenario: scenario, summary: "The dashboard of \(scenario.name).") { world in
      let store = try PreviewContainers.default(scenario: scenario, world: world)
      let now = world.now
      let model = DashboardModel(container: store.container, cache: store.cache, now: { now })
      try model.reload()
      return DashboardText.render(tiles: model.tiles, world: world, cacheWarning: model.cacheWarning)
    }
  }

  static let history: [PreviewEntry] =
    Scenario.all.map { historyEntry($0, summary: "The whole history of \($0.name).") }
    + [
      historyEntry(.monthsOfHistory, variant: "mia", summary: "Only Mia's events.", baby: "Mia"),
      historyEntry(.monthsOfHistory, variant: "tag-night", summary: "Only feeds tagged #night.", hashtag: "#Night"),
    ]

  static let historyEdit: [PreviewEntry] = [
    editEntry(.twoBabies, variant: "feed", summary: "Leo's last feed, ready to save.") {
      $0.babyName == "Leo" && $0.feed?.isInProgress == false
    },
    editEntry(.twoBabies, variant: "diaper", summary: "Mia's last diaper change.") {
      $0.babyName == "Mia" && $0.diaper != nil
    },
    editEntry(
      .twoBabies, variant: "invalid", summary: "Mia's last feed with an end before its start, a negative amount and an unknown unit.",
      where: { $0.babyName == "Mia" && $0.feed?.isInProgress == false },
      edit: { draft in
        guard case .feed(var form) = draft else { return }
        form.endTime = form.startTime.addingTimeInterval(-900)
        form.amountText = "-5"
        form.unitSymbol = "cups"
        draft = .feed(form)
      }),
    editEntry(
      .twoBabies, variant: "not-a-number", summary: "An amount that is not a number, with no unit.",
      where: { $0.babyName == "Leo" && $0.feed?.isInProgress == false },
      edit: { draft in
        guard case .feed(var form) = draft else { return }
        form.amountText = "about 4"
        form.unitSymbol = ""
        draft = .feed(form)
      }),
    editEntry(.monthsOfHistory, variant: "hashtags", summary: "A feed whose memo has two hashtags.") {
      $0.hashtags.count >= 2
    },
    editEntry(.edgeCases, variant: "in-progress", summary: "The feed in progress past its term.") {
      $0.feed?.isInProgress == true
    },
    editEntry(.edgeCases, variant: "orphan", summary: "The feed that belongs to no baby.") {
      $0.babyName == nil && $0.feed != nil
    },
    editEntry(.edgeCases, variant: "dst", summary: "The feed that spans the clock change.") {
      $0.hashtags.contains("밤")
    },
  ]

  static let widget: [PreviewEntry] = Scenario.all.flatMap { scenario in
    WidgetText.Family.allCases.map { family in
      PreviewEntry(
        screen: .widget, scenario: scenario, variant: family.rawValue,
        summary: "The \(family.rawValue) widget of \(scenario.name)."
      ) { world in
        let store = try PreviewContainers.default(scenario: scenario, world: world)
        let snapshots = try BabyWidgetSnapshots.make(
          from: store.container.newBackgroundContext(), now: world.now, timeZone: world.timeZone)
        return WidgetText.render(snapshots, family: family, world: world)
      }
    }
  }

  // MARK: - Builders

  static func historyEntry(
    _ scenario: Scenario, variant: String? = nil, summary: String, baby: String? = nil, hashtag: String? = nil
  ) -> PreviewEntry {
    PreviewEntry(screen: .history, scenario: scenario, variant: variant, summary: summary) { world in
      let store = try PreviewContainers.default(scenario: scenario, world: world)
      let model = HistoryModel(container: store.container, calendar: world.calendar, timeZone: world.timeZone)
      try model.reload()
      if let baby {
        guard let id = model.babies.first(where: { $0.name == baby })?.id else {
          throw PreviewError("preview History/\(scenario.name): scenario has no baby named '\(baby)'")
        }
        model.babyFilter = id
      }
      model.hashtagFilter = hashtag
      return HistoryText.render(model, world: world)
    }
  }

  static func editEntry(
    _ scenario: Scenario, variant: String, summary: String,
    where pick: @escaping @Sendable (HistoryEvent) -> Bool,
    edit: @escaping @Sendable (inout HistoryEditModel.Draft) -> Void = { _ in }
  ) -> PreviewEntry {
    PreviewEntry(screen: .historyEdit, scenario: scenario, variant: variant, summary: summary) { world in
      let store = try PreviewContainers.default(scenario: scenario, world: world)
      let history = HistoryModel(container: store.container, calendar: world.calendar, timeZone: world.timeZone)
      try history.reload()
      guard let event = history.events.first(where: pick) else {
        throw PreviewError("preview HistoryEdit/\(scenario.name).\(variant): the scenario has no such event in this world")
      }
      let model = try HistoryEditModel(editing: event, container: store.container, cache: store.cache)
      var draft = model.draft
      edit(&draft)
      model.draft = draft
      return HistoryEditText.render(model, world: world)
    }
  }
}
