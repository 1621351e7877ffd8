import BabyDashboard
import Foundation
import PlainStore
import Testing

/// Another device runs a newer app (schema version 2) and shares `changes/`: this `babydash`
/// keeps working and says what waits for its update.
@Suite struct SyncStatusAwaitingUpdateTests {
  /// BabyProfile as a schema version 2 would have it.
  struct BabyProfileV2: Entity, Hashable {
    static let entityName = BabyProfile.entityName
    var id: UUID
    var name: String
    var feedTerm: TimeInterval
    var createdAt: Date
    var isArchived: Bool
  }

  static let v2 = Schema(
    version: BabyDashboardSchema.version + 1,
    [EntitySchema(BabyProfileV2.self, unique: [[\BabyProfileV2.id]], indexed: [\BabyProfileV2.createdAt, \BabyProfileV2.name])]
      + BabyDashboardSchema.current.entities.filter { $0.name != BabyProfile.entityName },
    migrations: [SchemaMigration("babies can be archived", to: BabyDashboardSchema.version + 1, [.addProperty(\BabyProfileV2.isArchived, default: false)])])

  @Test func changesOfANewerAppWaitAndSyncStatusListsThem() throws {
    let tool = try BabydashProcess()
    defer { tool.removeAll() }
    #expect(try tool.run(at: "2026-01-15T06:00:00Z", ["baby", "add", "Mia"]).status == 0)

    // The other parent's phone, updated first, writes into the same changes/ folder.
    let changes = tool.appGroup.appendingPathComponent("BabyDashboard.store/changes")
    let phone = try StoreContainer.file(
      at: tool.appGroup.appendingPathComponent("phone.store"), schema: Self.v2,
      options: StoreOptions(watchesOtherProcesses: false, syncFolder: changes, deviceName: "phone"))
    let context = phone.newBackgroundContext()
    context.insert(BabyProfileV2(id: UUID(), name: "Leo", feedTerm: 7_200, createdAt: Date(timeIntervalSince1970: 1_768_460_000), isArchived: false))
    try context.save()
    let phoneID = try #require(try phone.syncStatus()?.thisDevice)

    let status = try tool.run(at: "2026-01-15T08:00:00Z", ["sync", "status"])
    #expect(status.status == 0, "\(status.stderr)")
    #expect(status.stdout.contains("Written by a newer version of the app (kept; merged once this one is updated):"))
    #expect(status.stdout.contains("changes/\(phoneID)/"))
    let list = try tool.run(at: "2026-01-15T08:00:00Z", ["baby", "list"])
    #expect(list.status == 0 && list.stdout.contains("Mia") && !list.stdout.contains("Leo"), "\(list.stdout)\(list.stderr)")
  }
}
