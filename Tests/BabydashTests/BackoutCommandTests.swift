import BabyDashboard
import Foundation
import SwiftDataStoreBuilder
import Testing

/// `babydash backout` and `backout confirm`: the round trip through the tool, the SwiftData side
/// played by the fixture store's writer and reader.
@Suite struct BackoutCommandTests {
  let tool: BabydashProcess
  static let now = "2026-03-01T00:00:00Z"

  init() throws { tool = try BabydashProcess() }

  var swiftDataStore: URL { tool.appGroup.appendingPathComponent("BabyDashboard.sqlite") }

  @discardableResult
  func succeed(_ arguments: [String]) throws -> String {
    let result = try tool.run(["--now", Self.now] + arguments, environment: ["BABYDASH_DEVICE_ID": "phone-1"])
    #expect(result.status == 0, "babydash \(arguments.joined(separator: " ")): \(result.stderr)")
    return result.stdout
  }

  @Test func whatTheToolWroteAfterTheCutoverIsHandedBackConfirmedAndNotImportedTwice() throws {
    defer { tool.removeAll() }
    try LaunchCommandTests.familyStore(in: tool.appGroup)
    #expect(try succeed(["launch"]).contains("import: wrote 4 babies"))
    try succeed(["baby", "add", "Zoe"])
    try succeed(["feed", "log", "Zoe", "--start", "2026-02-28T23:00:00Z", "--end", "2026-02-28T23:20:00Z", "--amount", "80ml"])

    let refused = try tool.run(["backout"])
    #expect(refused.status == 65)
    #expect(refused.stderr.hasPrefix("babydash: the importer is on here (on for every device); a backout hands back only once it is off"), "\(refused.stderr)")

    try succeed(["flags", "set", "legacyImporter", "off"])
    let pending = try succeed(["launch"])
    #expect(pending.hasPrefix("launch: a backout to hand back\n"), "\(pending)")
    #expect(pending.contains("backout: 2 to create or edit, 0 to delete since the cutover — apply to the SwiftData store, then confirm\n"))
    let printed = try tool.run(["backout"])
    #expect(printed.status == 0, "\(printed.stderr)")
    let handback = try JSONDecoder().decode(BackoutHandback.self, from: Data(printed.stdout.utf8))
    #expect(printed.stderr == "babydash: 2 to create or edit, 0 to delete since the cutover; once applied, run `babydash backout confirm \(handback.through.sequence)`\n")
    guard case .babyProfile(_, let zoe) = handback.changes.first else { Issue.record("\(handback)"); return }
    #expect(zoe.name == "Zoe")

    // The SwiftData side: the fixture store rewritten with the handback applied, read back.
    var store = LegacyExportBackoutStore(try SwiftDataStoreReader(fileURL: swiftDataStore).read())
    try store.apply(handback)
    for suffix in ["", "-wal", "-shm"] { try FileManager.default.removeItem(atPath: swiftDataStore.path + suffix) }
    try SwiftDataStoreBuilder().write(store.saved, to: swiftDataStore)
    #expect(try tool.run(["backout", "confirm", "\(handback.through.sequence + 1)"]).status == 65)
    #expect(try succeed(["backout", "confirm", "\(handback.through.sequence)"]).hasPrefix("Handed back through \(handback.through.sequence) (2 to create or edit, 0 to delete)"))
    let readBack = try SwiftDataStoreReader(fileURL: swiftDataStore).read()
    #expect(readBack.babyProfiles.contains { $0.name == "Zoe" })
    #expect(readBack.feedSessions.contains { $0.amountValue == 80 && $0.profileID == zoe.id })

    // On again: imported again, nothing twice.
    let before = try succeed(["export"])
    try succeed(["flags", "set", "legacyImporter", "on"])
    let again = try succeed(["launch"])
    #expect(again.contains("import: wrote 0 babies, 0 feeds, 0 diaper changes; 20 already there, 2 duplicates skipped"), "\(again)")
    #expect(try succeed(["export"]) == before)
  }
}
