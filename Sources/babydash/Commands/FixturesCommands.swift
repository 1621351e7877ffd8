import ArgumentParsing
import BabyDashboard
import BabyDashboardFixtures
import BabyDashboardText

/// `babydash fixtures list` and `babydash fixtures SCENARIO`.
enum FixturesCommands {
  /// The scenarios, their summaries in one column (the names padded to the longest).
  static var scenarioTable: String {
    let width = Scenario.all.map(\.name.count).max() ?? 0
    return Scenario.all.map { "  " + $0.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + $0.summary }.joined(separator: "\n")
  }

  static let all = [list, seed]

  static let intoExisting = Flag("--into-existing", help: "seed a store that already holds data (mixes fixtures into it)")

  static let list = Command(
    words: ["fixtures", "list"], synopsis: "",
    summary: "List the fixture scenarios.",
    details: "Example:\n  babydash fixtures list"
  ) { invocation in
    let width = Scenario.all.map { TextLayout.width($0.name) }.max() ?? 0
    for scenario in Scenario.all {
      try invocation.output.print(TextLayout.pad(scenario.name, to: width) + "  " + scenario.summary)
    }
  }

  static let seed = Command(
    words: ["fixtures"], synopsis: "SCENARIO [--into-existing]",
    summary: "Seed an empty store from a scenario, placed relative to --now (fixed ids: seeding twice adds nothing).",
    options: [
      intoExisting.spec
    ],
    arguments: 1...1,
    details: "Scenarios:\n" + scenarioTable

      + "\n\nExample:\n  babydash --app-group /tmp/demo fixtures two-babies"
  ) { invocation in
    let session = invocation.session
    let name = invocation.arguments[0]
    guard let scenario = Scenario.named(name) else {
      throw invocation.usageError(
        "unknown scenario '\(name)': one of \(Scenario.all.map(\.name).joined(separator: ", "))")
    }
    if session.storeExists, !invocation.has(FixturesCommands.intoExisting) {
      let held = try session.storeForReading().newBackgroundContext().contentCounts()
      if !held.isEmpty {
        throw CommandLineError.data(
          "the store at '\(session.storeDirectory.path)' already holds \(Plural.counts(held)): "
            + "seeding would mix fixtures into it. Give an empty folder with --app-group, or add --into-existing")
      }
    }
    let container = try session.store()
    invocation.output.progress("seeding \(scenario.name)…")
    try scenario.seed(container, cache: session.cache, now: session.now, timeZone: session.timeZone)
    invocation.output.endProgress()
    let counts = try container.newBackgroundContext().contentCounts()
    try invocation.output.print("Seeded '\(scenario.name)': the store now holds \(Plural.counts(counts)).")
  }
}
