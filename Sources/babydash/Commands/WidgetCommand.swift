import BabyDashboard
import BabyDashboardText
import Foundation

/// `babydash widget [--family small|medium] [--baby NAME]`.
enum WidgetCommand {
  static let command = Command(
    words: ["widget"], synopsis: "[--family small|medium] [--baby NAME]",
    summary: "Refresh the widget's snapshot file in the app group and print the widget.",
    options: [
      OptionSpec(name: "--family", value: "small|medium", help: "the widget's size (default: medium)"),
      OptionSpec(name: "--baby", value: "NAME", help: "the baby a small widget shows (default: the first); needs --family small"),
    ],
    details: "Examples:\n  babydash widget\n  babydash widget --family small --baby Mia"
  ) { invocation in
    let session = invocation.session
    let familyName = invocation.value("--family") ?? "medium"
    guard let family = WidgetText.Family(rawValue: familyName) else {
      throw invocation.usageError("bad value '\(familyName)' for --family: use small or medium")
    }
    if invocation.value("--baby") != nil, family != .small {
      throw invocation.usageError("--baby chooses the baby of a small widget: add --family small (the medium widget shows every baby)")
    }
    let container = try session.storeForReading()
    let babyName = try invocation.value("--baby").map { try session.baby($0, in: container).name }
    let snapshots = try refreshBabyWidgetSnapshots(
      using: container, now: session.now, timeZone: session.timeZone, to: session.widgetSnapshotsURL)
    invocation.output.print(
      WidgetText.render(snapshots, family: family, babyName: babyName, world: session.world), terminator: "")
  }
}
