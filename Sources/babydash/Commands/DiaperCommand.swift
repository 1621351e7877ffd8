import ArgumentParsing
import BabyDashboard
import Foundation

/// `babydash diaper NAME pee|poo [--at TIME]`, `diaper edit`, `diaper delete`.
enum DiaperCommand {
  static let all = [command, edit, delete]

  static let at = Option<TimeArgument>("--at", "TIME", help: "when (default: now)")
  static let editAt = Option<TimeArgument>("--at", "TIME", help: "when it happened")
  static let editType = Option<String>("--type", "pee|poo", help: "what it was")
  static let editBaby = Option<String>("--baby", "NAME", help: "the baby it belongs to")

  static let command = Command(
    words: ["diaper"], synopsis: "NAME pee|poo [--at TIME]",
    summary: "Log a diaper change (now, or at TIME).",
    options: [at.spec],
    arguments: 2...2,
    details: "Examples:\n  babydash diaper Mia pee\n  babydash diaper Leo poo --at 06:40"
  ) { invocation in
    let session = invocation.session
    let type = try DiaperCommand.type(invocation.arguments[1], invocation)
    let at = try invocation.time(DiaperCommand.at, default: session.now)
    let baby = try session.baby(invocation.arguments[0], in: try session.storeForReading())
    let diaper = try session.tracker().logDiaper(type, for: baby.id, at: at)
    try invocation.output.print("Logged a \(diaper.type.rawValue) for \(baby.name) at \(session.text(diaper.timestamp)).")
  }

  static let edit = Command(
    words: ["diaper", "edit"], synopsis: "ID [--at TIME] [--type pee|poo] [--baby NAME]",
    summary: "Change a diaper change (ID as babydash history shows it; a unique prefix is enough).",
    options: [
      editAt.spec, editType.spec, editBaby.spec,
    ],
    arguments: 1...1,
    details: "Example:\n  babydash diaper edit 9c41 --type poo"
  ) { invocation in
    let session = invocation.session
    let at = try invocation.time(DiaperCommand.editAt)
    let type = try invocation.value(DiaperCommand.editType).map { try DiaperCommand.type($0, invocation) }
    let container = try session.storeForReading()
    let (addressed, _) = try session.diaper(invocation.arguments[0])
    let baby = try invocation.value(DiaperCommand.editBaby).map { try session.baby($0, in: container) }
    guard at != nil || type != nil || baby != nil else {
      throw invocation.usageError("nothing to change: give --at, --type or --baby")
    }
    let edited = try session.tracker().editDiaper(addressed, timestamp: at, type: type, profileID: baby.map { .some($0.id) })
    try invocation.output.print(
      "Updated diaper change \(session.shortID(edited.uuid)): a \(edited.type.rawValue) at \(session.text(edited.timestamp)).")
  }

  static let delete = Command(
    words: ["diaper", "delete"], synopsis: "ID",
    summary: "Delete a diaper change (ID as babydash history shows it; a unique prefix is enough).",
    arguments: 1...1,
    details: "Example:\n  babydash diaper delete 9c41"
  ) { invocation in
    let session = invocation.session
    let (addressed, diaper) = try session.diaper(invocation.arguments[0])
    try session.tracker().deleteDiaper(addressed)
    try invocation.output.print(
      "Deleted diaper change \(session.shortID(diaper.uuid)) (a \(diaper.type.rawValue) at \(session.text(diaper.timestamp))).")
  }

  @MainActor
  static func type(_ text: String, _ invocation: Invocation) throws -> DiaperType {
    guard let type = DiaperType(rawValue: text.lowercased()) else {
      throw invocation.usageError("bad diaper type '\(text)': use pee or poo")
    }
    return type
  }
}
