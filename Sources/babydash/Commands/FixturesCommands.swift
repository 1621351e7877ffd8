import BabyDashboard
import BabyDashboardPreviews
import Foundation
import PlainStore

/// `babydash fixtures list` and `babydash fixtures SCENARIO`.
enum FixturesCommands {
  static let all = [list, seed]

  static let list = Command(
    words: ["fixtures", "list"], synopsis: "",
    summary: "List the fixture scenarios."
  ) { invocation in
    let width = Scenario.all.map(\.name.count).max() ?? 0
    for scenario in Scenario.all {
      invocation.output.print(scenario.name + String(repeating: " ", count: width - scenario.name.count + 2) + scenario.summary)
    }
  }

  static let seed = Command(
    words: ["fixtures"], synopsis: "SCENARIO",
    summary: "Seed the store from a scenario, placed relative to --now (fixed ids: seeding twice adds nothing).",
    arguments: 1...1
  ) { invocation in
    let session = invocation.session
    let name = invocation.arguments[0]
    guard let scenario = Scenario.named(name) else {
      throw invocation.usageError(
        "unknown scenario '\(name)': one of \(Scenario.all.map(\.name).joined(separator: ", "))")
    }
    let container = try session.store()
    invocation.output.progress("seeding \(scenario.name)…")
    try scenario.seed(container, cache: session.cache, now: session.now, timeZone: session.timeZone)
    invocation.output.endProgress()
    let context = container.newBackgroundContext()
    let babies = try context.fetchCount(FetchDescriptor<BabyProfile>())
    let feeds = try context.fetchCount(FetchDescriptor<FeedSession>())
    let diapers = try context.fetchCount(FetchDescriptor<DiaperChange>())
    invocation.output.print(
      "Seeded '\(scenario.name)': the store now holds \(babies) babies, \(feeds) feeds and \(diapers) diaper changes.")
  }
}
