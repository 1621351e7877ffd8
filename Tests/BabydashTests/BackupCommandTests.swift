import Foundation
import Testing

/// `babydash export` writes a backup and `babydash import` restores it exactly.
@Suite struct BackupCommandTests {
  let source: BabydashProcess
  let target: BabydashProcess
  static let world = ["--now", "2026-03-10T14:30:00Z", "--time-zone", "America/New_York"]

  init() throws {
    source = try BabydashProcess()
    target = try BabydashProcess()
  }

  private func removeAll() {
    source.removeAll()
    target.removeAll()
  }

  @discardableResult
  private func succeed(_ tool: BabydashProcess, _ arguments: [String]) throws -> String {
    let result = try tool.run(Self.world + arguments)
    #expect(result.status == 0, "babydash \(arguments.joined(separator: " ")): \(result.stderr)")
    return result.stdout
  }

  /// A backup of the edge cases (orphans, a DST day, two Alexes, cached amounts), in a file.
  private func backup() throws -> (text: String, file: URL) {
    try succeed(source, ["fixtures", "edge-cases"])
    let text = try succeed(source, ["export"])
    let file = source.appGroup.appendingPathComponent("backup.json")
    try Data(text.utf8).write(to: file)
    return (text, file)
  }

  @Test func theExportCarriesIDsCreatedAtAndTheCacheInAVersionedFormat() throws {
    defer { removeAll() }
    let document = try JSONSerialization.jsonObject(with: Data(try backup().text.utf8)) as! [String: Any]
    #expect(document["format"] as? String == "babydash-backup")
    #expect(document["formatVersion"] as? Int == 2)
    #expect((document["babyProfiles"] as! [[String: Any]]).allSatisfy { $0["id"] != nil && $0["createdAt"] != nil })
    #expect((document["feedSessions"] as! [[String: Any]]).allSatisfy { $0["uuid"] != nil })
    #expect((document["lastFeedAmounts"] as? [[String: Any]])?.count == 2)
  }

  @Test func restoringIntoAnEmptyStoreGivesAByteIdenticalExport() throws {
    defer { removeAll() }
    let (text, file) = try backup()
    #expect(try succeed(target, ["import", file.path]).hasPrefix("Restored 'backup.json': wrote 4 babies, 6 feeds and 5 diaper changes; "))
    #expect(try succeed(target, ["export"]) == text)
    #expect(try succeed(target, ["status"]) == (try succeed(source, ["status"])))
  }

  @Test func restoringIntoANonEmptyStoreMergesByIDAndAgainChangesNothing() throws {
    defer { removeAll() }
    let (_, file) = try backup()
    try succeed(target, ["baby", "add", "Noa", "--created-at", "2026-03-01T00:00:00Z"])
    try succeed(target, ["import", file.path])
    let once = try target.snapshot()
    let again = try succeed(target, ["import", file.path])
    #expect(again.contains("wrote 0 babies, 0 feeds and 0 diaper changes; 15 objects already as in the backup.\n"))
    // The edge cases hold two babies of one name: the restore says so, each time.
    #expect(
      again.hasSuffix(
        "\n2 babies are named Alex (ids 00000000-0000-4000-8000-000000000003, 00000000-0000-4000-8000-000000000004): address each by its id.\n"))
    #expect(try target.snapshot() == once, "a second restore writes nothing")
    let babies = (try JSONSerialization.jsonObject(with: Data(try succeed(target, ["export"]).utf8)) as! [String: Any])["babyProfiles"] as! [[String: Any]]
    #expect(babies.count == 5)
  }

  /// Restoring after a baby and a feed were deleted: every device keeps a delete for good, so
  /// the two come back under new ids (the baby's feeds with it), the same ones at every restore,
  /// and a cache rebuilt from the change files shows what the restore showed.
  @Test func aBackupRestoredAfterDeletionsBringsThemBackUnderNewIDs() throws {
    defer { removeAll() }
    let (text, file) = try backup()
    let document = try JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: Any]
    let baby = (document["babyProfiles"] as! [[String: Any]])[0]["id"] as! String
    let feed = try #require((document["feedSessions"] as! [[String: Any]]).first { $0["profileID"] as? String != baby }?["uuid"] as? String)
    try succeed(source, ["baby", "remove", baby, "--yes"])
    try succeed(source, ["feed", "delete", feed])
    let restored = try succeed(source, ["import", file.path])
    #expect(restored.contains("2 objects of the backup had been deleted: they are under new ids (a deleted id never comes back, on any device).\n"), "\(restored)")
    let export = try succeed(source, ["export"])
    #expect(!export.contains(baby) && !export.contains(feed), "the old ids stay let go")
    let counts = { (text: String) in
      let json = try JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: Any]
      return ["babyProfiles", "feedSessions", "diaperChanges"].map { (json[$0] as! [Any]).count }
    }
    #expect(try counts(export) == counts(text))
    let once = try source.snapshot()
    #expect(try succeed(source, ["import", file.path]).contains("wrote 0 babies, 0 feeds and 0 diaper changes"))
    #expect(try source.snapshot() == once, "a second restore writes nothing")
    try FileManager.default.removeItem(at: source.appGroup.appendingPathComponent("BabyDashboard.store/local"))
    #expect(try succeed(source, ["export"]) == export, "a rebuild shows the same")
  }

  @Test func aBackupWithABadValueRestoresNothing() throws {
    defer { removeAll() }
    var (text, file) = try backup()
    text = text.replacingOccurrences(of: "\"feedTerm\" : 7200", with: "\"feedTerm\" : -7200")
    try Data(text.utf8).write(to: file)
    let before = try target.snapshot()
    let result = try target.run(Self.world + ["import", file.path])
    #expect(result.status == 65)
    #expect(result.stderr.hasPrefix("babydash: cannot restore 'backup.json': baby 00000000-0000-4000-8000-000000000002: The time between feeds"))
    #expect(try target.snapshot() == before)
  }
}
