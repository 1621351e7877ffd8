import BabyDashboard
import BabyDashboardFixtures
import Foundation
import Testing

@Suite struct FeatureFlagsTests {
  @Test(arguments: KeyValueBackend.allCases)
  func withNothingStoredEverythingIsOn(backend: KeyValueBackend) throws {
    let (store, cleanUp) = try backend.make()
    defer { cleanUp() }
    #expect(try FeatureFlags.load(from: store) == FeatureFlags(lastFeedAmountCache: true, legacyImporter: true))
  }

  @Test(arguments: KeyValueBackend.allCases)
  func storedFlagsOverrideTheDefaultsAndRemovingRestoresThem(backend: KeyValueBackend) throws {
    let (store, cleanUp) = try backend.make()
    defer { cleanUp() }
    try FeatureFlags.set(.lastFeedAmountCache, to: false, in: store)
    #expect(try store.allKeys() == ["featureFlag.lastFeedAmountCache"])
    #expect(try FeatureFlags.load(from: store) == FeatureFlags(lastFeedAmountCache: false, legacyImporter: true))
    try FeatureFlags.set(.legacyImporter, to: false, in: store)
    #expect(try FeatureFlags.load(from: store).legacyImporter == false)
    try FeatureFlags.set(.lastFeedAmountCache, to: nil, in: store)
    #expect(try FeatureFlags.load(from: store).lastFeedAmountCache == true)
  }

  @Test func aFlagThatIsNotABooleanIsAnError() throws {
    let store = InMemoryKeyValueStore(["featureFlag.legacyImporter": Data("yes".utf8)])
    let error = try #require(throws: KeyValueStoreError.self) { try FeatureFlags.load(from: store) }
    #expect(error.path == "featureFlag.legacyImporter")
    #expect(error.description.contains("true or false"))
  }

  @Test func theImporterRunsOnlyWhenAllowedAndNotYetDoneForThisSchema() {
    let on = FeatureFlags()
    let off = FeatureFlags(legacyImporter: false)
    let done = MigrationRecord(schemaVersion: 1, completedAt: Date(timeIntervalSince1970: 0))
    #expect(MigrationRecord.importerShouldRun(flags: on, record: nil, schemaVersion: 1))
    #expect(!MigrationRecord.importerShouldRun(flags: on, record: done, schemaVersion: 1))
    #expect(MigrationRecord.importerShouldRun(flags: on, record: done, schemaVersion: 2))
    // Backout: with the flag off the importer never runs, whatever was recorded.
    #expect(!MigrationRecord.importerShouldRun(flags: off, record: nil, schemaVersion: 1))
  }

  @Test(arguments: KeyValueBackend.allCases)
  func theMigrationRecordRoundTripsExactly(backend: KeyValueBackend) throws {
    let (store, cleanUp) = try backend.make()
    defer { cleanUp() }
    #expect(try MigrationRecord.load(from: store) == nil)
    let record = MigrationRecord(schemaVersion: 1, completedAt: Date(timeIntervalSince1970: 1_767_225_600.123_456))
    try record.save(to: store)
    #expect(try MigrationRecord.load(from: store) == record)
    #expect(try store.allKeys() == ["migrationCompleted"])
    try MigrationRecord.remove(from: store)
    #expect(try MigrationRecord.load(from: store) == nil)
  }
}
