import ArgumentParsing
import BabyDashboard
import Foundation
import PlainStore

/// `babydash backout` and `backout confirm`: what the app wrote to the store since the cutover,
/// as the value the app applies to its SwiftData store, and the confirmation that it did.
enum BackoutCommands {
  static let all = [show, confirm]

  static let show = Command(
    words: ["backout"], synopsis: "",
    summary: "Print what changed in the store since the cutover, to hand back to the SwiftData store (JSON).",
    details: """
      Only with the importer off (babydash flags set legacyImporter off) after a launch imported
      the SwiftData store. Prints the changes in the order to apply them: babies, feeds and
      diaper changes as they are now, with their ids, then the deletions; the summary and the
      confirm command go to standard error. Apply them through SwiftData's own API, then run
      `babydash backout confirm THROUGH`.

      Example:
        babydash backout > handback.json
      """
  ) { invocation in
    let handback = try current(invocation)
    try invocation.output.print(String(decoding: try handback.encoded(pretty: true), as: UTF8.self))
    try invocation.output.error(
      "babydash: \(handback.summary) since the cutover; once applied, run `babydash backout confirm \(handback.through.sequence)`")
  }

  static let confirm = Command(
    words: ["backout", "confirm"], synopsis: "THROUGH",
    summary: "Record that the app applied the handback through THROUGH; the import runs again once the importer is on.",
    arguments: 1...1,
    details: """
      THROUGH is the number `babydash backout` printed ("through"). Removes migrationCompleted,
      so that turning the importer on again imports the SwiftData store, adding nothing the
      store already holds.

      Example:
        babydash backout confirm 42
      """
  ) { invocation in
    guard let sequence = Int(invocation.arguments[0]), sequence >= 0 else {
      throw invocation.usageError("bad value '\(invocation.arguments[0])' for THROUGH: the number `babydash backout` printed")
    }
    let handback = try current(invocation)
    guard sequence == handback.through.sequence else {
      throw CommandLineError.data(
        "the handback now runs through \(handback.through.sequence), not \(sequence): the store changed since; "
          + "run `babydash backout` again and apply what it prints")
    }
    let session = invocation.session
    try MigrationBackout.confirm(handback, in: try session.store(), keyValueStore: session.keyValueStore)
    try invocation.output.print(
      "Handed back through \(sequence) (\(handback.summary)); the import runs again once the importer is on.")
  }

  /// The handback of this app group, or the reason there is none.
  @MainActor
  static func current(_ invocation: Invocation) throws -> BackoutHandback {
    let session = invocation.session
    let flags = try session.rolloutFlags(appVersion: nil)
    guard !flags.flags.legacyImporter else {
      throw CommandLineError.data(
        "the importer is on here (\(flags[.legacyImporter].reason)); a backout hands back only once it is off: "
          + "babydash flags set legacyImporter off")
    }
    guard session.storeExists, let handback = try MigrationBackout.handback(from: try session.store(), keyValueStore: session.keyValueStore) else {
      throw CommandLineError.data("no cutover here: no launch imported the SwiftData store, so there is nothing to hand back")
    }
    return handback
  }
}
