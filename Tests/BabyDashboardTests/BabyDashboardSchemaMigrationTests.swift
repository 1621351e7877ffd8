import BabyDashboard
import BabyDashboardFixtures
import BabyDashboardTesting
import Foundation
import PlainStore
import Testing

/// BabyDashboard's schema, one version on: BabyProfile gains `isArchived`, which babies stored
/// by version 1 read as false. The path an app update takes, end to end on a real store folder.
@Suite struct BabyDashboardSchemaMigrationTests {
  /// BabyProfile as schema version 2 would have it.
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
    migrations: BabyDashboardSchema.current.migrations + [
      SchemaMigration("babies can be archived", to: BabyDashboardSchema.version + 1, [.addProperty(\BabyProfileV2.isArchived, default: false)])
    ])

  @Test func aVersionOneStoreOpensInVersionTwoWithEveryBabyFeedAndDiaper() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("BabyDashboardMigration-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let store = folder.appendingPathComponent("BabyDashboard.store")
    let options = StoreOptions(author: "app", clock: { Fixed.now }, watchesOtherProcesses: false)
    let feed = makeFeedSession(
      profile: BabyProfile.mia, start: Fixed.date("2026-03-14T06:00:00Z"), end: Fixed.date("2026-03-14T06:20:00Z"), amountValue: 90,
      amountUnitSymbol: "mL", memoText: "#night", uuid: Fixed.id(20))
    let diaper = makeDiaperChange(profile: BabyProfile.leo, timestamp: Fixed.date("2026-03-14T07:00:00Z"), type: .poo, uuid: Fixed.id(30))
    do {
      let context = try StoreContainer.file(at: store, schema: BabyDashboardSchema.current, options: options).newBackgroundContext()
      for baby in [BabyProfile.mia, .leo] { context.insert(baby) }
      context.insert(feed)
      context.insert(diaper)
      try context.save()
    }

    let updated = try StoreContainer.file(at: store, schema: Self.v2, options: options)
    let context = updated.newBackgroundContext()
    let babies = try context.fetch(FetchDescriptor<BabyProfileV2>(sortBy: [SortDescriptor(\.createdAt)]))
    #expect(
      babies == [BabyProfile.mia, .leo].map {
        BabyProfileV2(id: $0.id, name: $0.name, feedTerm: $0.feedTerm, createdAt: $0.createdAt, isArchived: false)
      })
    #expect(try context.fetch(FetchDescriptor<FeedSession>()) == [feed])
    #expect(try context.fetch(FetchDescriptor<DiaperChange>()) == [diaper])

    // Archiving Leo is an ordinary edit in the new schema, and survives reopening.
    try context.edit(BabyProfileV2.self, id: BabyProfile.leo.id) { $0.isArchived = true }
    try context.save()
    let reopened = try StoreContainer.file(at: store, schema: Self.v2, options: options)
    #expect(try reopened.newBackgroundContext().fetch(FetchDescriptor<BabyProfileV2>()).filter(\.isArchived).map(\.name) == ["Leo"])

    // The version-1 program is told to update, and changes nothing.
    #expect {
      _ = try StoreContainer.file(at: store, schema: BabyDashboardSchema.current, options: options)
    } throws: { error in
      (error as? StoreError)?.code == .newerSchema(2)
    }
  }
}
