import BabyDashboard
import Foundation

/// `babydash diaper NAME pee|poo [--at TIME]`.
enum DiaperCommand {
  static let command = Command(
    words: ["diaper"], synopsis: "NAME pee|poo [--at TIME]",
    summary: "Log a diaper change (now, or at TIME).",
    options: [OptionSpec(name: "--at", value: "TIME", help: "when (default: now)")],
    arguments: 2...2
  ) { invocation in
    let session = invocation.session
    guard let type = DiaperType(rawValue: invocation.arguments[1].lowercased()) else {
      throw invocation.usageError("bad diaper type '\(invocation.arguments[1])': use pee or poo")
    }
    let at = try invocation.time("--at", default: session.now)
    let baby = try session.baby(invocation.arguments[0], in: try session.storeForReading())
    let diaper = try session.dashboard(at: at).logDiaper(type, for: baby.id)
    invocation.output.print("Logged a \(diaper.type.rawValue) for \(baby.name) at \(LocalTimeText.format(diaper.timestamp, now: session.now, in: session.timeZone)).")
  }
}
