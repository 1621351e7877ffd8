import BabyDashboard
import BabyDashboardTesting
import Foundation
import PlainStore
import Testing

/// Two versions of the app in one family: the launch step reads what the family's devices publish
/// about the change-file formats they read and says, in words the app can show, who should update.
/// A newer program is a container that reads format 3 (`StoreOptions.newestChangeFormat`).
@Suite struct LaunchVersionsTests {
  let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("LaunchVersions-\(UUID().uuidString)")
  var appGroup: URL { scratch.appendingPathComponent("group") }
  var changes: URL { scratch.appendingPathComponent("sync") }
  static let now = Date(timeIntervalSince1970: 1_768_460_000)

  func options(_ name: String, reads: Int) -> StoreOptions {
    var options = StoreOptions(clock: { Self.now }, watchesOtherProcesses: false, syncFolder: changes, deviceName: name)
    options.newestChangeFormat = reads
    return options
  }

  /// Another device of the family, on its own folder, that adds a baby.
  func otherDevice(_ name: String, reads: Int) throws {
    let container = try StoreContainer.file(
      at: scratch.appendingPathComponent(name.filter(\.isLetter) + ".store"), schema: BabyDashboardSchema.current, options: options(name, reads: reads))
    let context = container.newBackgroundContext()
    context.insert(BabyProfile(id: UUID(), name: name, createdAt: Self.now))
    try context.save()
  }

  /// This phone's launch, its program reading up to `reads`.
  func launch(reads: Int) throws -> LaunchReport {
    try FileManager.default.createDirectory(at: appGroup, withIntermediateDirectories: true)
    var launch = BabyDashboardLaunch(
      appGroupDirectory: appGroup, keyValueStore: FileKeyValueStore(appGroup: .current, directory: appGroup), deviceID: "phone-1",
      clock: { Self.now })
    launch.storeOptions = options("This phone", reads: reads)
    let storeOptions = launch.storeOptions
    let group = appGroup
    return launch.run(openingStore: { try StoreContainer.babyDashboard(inAppGroup: group, options: storeOptions) })
  }

  @Test func anotherPhoneOnANewerVersionAsksThisOneToUpdate() throws {
    defer { try? FileManager.default.removeItem(at: scratch) }
    try otherDevice("Mum's phone", reads: 3)
    let report = try launch(reads: 2)
    #expect(report.versionNotice == "Another phone (Mum's phone) runs a newer version; update this one")
    #expect(report.description.contains("\nversions: Another phone (Mum's phone) runs a newer version; update this one"), "\(report)")
  }

  @Test func aNewerVersionWaitsForTheDeviceThatHasNotUpdated() throws {
    defer { try? FileManager.default.removeItem(at: scratch) }
    try otherDevice("Dad's phone", reads: 2)
    let report = try launch(reads: 3)
    #expect(report.changeFormats?.writes == 2)
    #expect(report.versionNotice == "Waiting for Dad's phone to update before the new format is used")
    #expect(report.description.contains("\nversions: Waiting for Dad's phone to update before the new format is used"), "\(report)")
  }

  @Test func aFamilyOnOneVersionHasNothingToSay() throws {
    defer { try? FileManager.default.removeItem(at: scratch) }
    try otherDevice("Dad's phone", reads: 2)
    let report = try launch(reads: 2)
    #expect(report.changeFormats == ChangeFormats(reads: 2, writes: 2, newer: [], waitingFor: []))
    #expect(report.versionNotice == nil && !report.description.contains("versions:"))
  }
}
