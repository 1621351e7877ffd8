import ArgumentParsing
import BabyDashboard
import BabyDashboardText

/// `babydash widget [--family small|medium] [--baby NAME]`.
enum WidgetCommand {
  static let family = Option<String>("--family", "small|medium", help: "the widget's size (default: medium)")
  static let baby = Option<String>("--baby", "NAME", help: "the baby a small widget shows (default: the first); needs --family small")

  static let command = Command(
    words: ["widget"], synopsis: "[--family small|medium] [--baby NAME]",
    summary: "Refresh the widget's snapshot file in the app group and print the widget.",
    options: [
      family.spec, baby.spec,
    ],
    details: "Examples:\n  babydash widget\n  babydash widget --family small --baby Mia"
  ) { invocation in
    let session = invocation.session
    let familyName = try invocation.value(WidgetCommand.family) ?? "medium"
    guard let family = WidgetText.Family(rawValue: familyName) else {
      throw invocation.usageError("bad value '\(familyName)' for --family: use small or medium")
    }
    if try invocation.value(WidgetCommand.baby) != nil, family != .small {
      throw invocation.usageError("--baby chooses the baby of a small widget: add --family small (the medium widget shows every baby)")
    }
    let container = try session.existingStore(nothingTo: "draw")
    let babyName = try invocation.value(WidgetCommand.baby).map { try session.baby($0, in: container).name }
    let snapshots = try refreshBabyWidgetSnapshots(
      using: container, now: session.now, timeZone: session.timeZone, to: session.widgetSnapshotsURL)
    try invocation.output.print(
      WidgetText.render(snapshots, family: family, babyName: babyName, world: session.world), terminator: "")
  }
}
